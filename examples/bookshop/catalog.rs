//! The catalog a new shop opens with: real books (title, author, year of first publication);
//! their prices and the copies on the shelf are invented. "Dune" (7 copies) and "Neuromancer"
//! (none) are what the tests and the guide's flows expect.

/// One title as the shop first stocks it.
pub struct Title {
    /// The book's title, which is also how tools name it.
    pub title: &'static str,
    /// Who wrote it.
    pub author: &'static str,
    /// The year it was first published.
    pub year: u16,
    /// Its price, in cents.
    pub price_cents: u32,
    /// Copies on the shelf.
    pub copies: u32,
}

const fn title(
    title: &'static str,
    author: &'static str,
    year: u16,
    price_cents: u32,
    copies: u32,
) -> Title {
    Title {
        title,
        author,
        year,
        price_cents,
        copies,
    }
}

/// Every title of a new shop, in the order `browse_catalog` lists them.
pub const OPENING_STOCK: &[Title] = &[
    title("Dune", "Frank Herbert", 1965, 1099, 7),
    title("Neuromancer", "William Gibson", 1984, 999, 0),
    title("Foundation", "Isaac Asimov", 1951, 899, 4),
    title("I, Robot", "Isaac Asimov", 1950, 899, 2),
    title(
        "The Left Hand of Darkness",
        "Ursula K. Le Guin",
        1969,
        1199,
        3,
    ),
    title("The Dispossessed", "Ursula K. Le Guin", 1974, 1199, 1),
    title("A Wizard of Earthsea", "Ursula K. Le Guin", 1968, 999, 5),
    title("Snow Crash", "Neal Stephenson", 1992, 1299, 2),
    title("The Diamond Age", "Neal Stephenson", 1995, 1299, 0),
    title("Cryptonomicon", "Neal Stephenson", 1999, 1599, 1),
    title("Pattern Recognition", "William Gibson", 2003, 1099, 2),
    title("Hyperion", "Dan Simmons", 1989, 1099, 3),
    title(
        "Do Androids Dream of Electric Sheep?",
        "Philip K. Dick",
        1968,
        999,
        2,
    ),
    title("Brave New World", "Aldous Huxley", 1932, 899, 6),
    title("Nineteen Eighty-Four", "George Orwell", 1949, 899, 8),
    title("Fahrenheit 451", "Ray Bradbury", 1953, 899, 4),
    title("The Martian Chronicles", "Ray Bradbury", 1950, 999, 1),
    title(
        "The Hitchhiker's Guide to the Galaxy",
        "Douglas Adams",
        1979,
        899,
        5,
    ),
    title("Ender's Game", "Orson Scott Card", 1985, 999, 3),
    title("Solaris", "Stanisław Lem", 1961, 1099, 1),
    title(
        "Roadside Picnic",
        "Arkady and Boris Strugatsky",
        1972,
        1099,
        0,
    ),
    title("Childhood's End", "Arthur C. Clarke", 1953, 999, 2),
    title("Rendezvous with Rama", "Arthur C. Clarke", 1973, 999, 2),
    title(
        "Stranger in a Strange Land",
        "Robert A. Heinlein",
        1961,
        1199,
        1,
    ),
    title(
        "The Moon Is a Harsh Mistress",
        "Robert A. Heinlein",
        1966,
        1099,
        2,
    ),
    title("Kindred", "Octavia E. Butler", 1979, 1099, 3),
    title("Parable of the Sower", "Octavia E. Butler", 1993, 1099, 2),
    title("The Forever War", "Joe Haldeman", 1974, 999, 1),
    title("Gateway", "Frederik Pohl", 1977, 999, 0),
    title("Frankenstein", "Mary Shelley", 1818, 699, 4),
    title("The Time Machine", "H. G. Wells", 1895, 599, 3),
    title("The War of the Worlds", "H. G. Wells", 1898, 599, 3),
    title("Slaughterhouse-Five", "Kurt Vonnegut", 1969, 999, 2),
    title("Cat's Cradle", "Kurt Vonnegut", 1963, 999, 1),
    title("The Handmaid's Tale", "Margaret Atwood", 1985, 1099, 4),
    title("Never Let Me Go", "Kazuo Ishiguro", 2005, 1099, 2),
    title("The Road", "Cormac McCarthy", 2006, 1099, 3),
    title("The Three-Body Problem", "Liu Cixin", 2008, 1299, 5),
    title("Blindsight", "Peter Watts", 2006, 1099, 1),
    title("Leviathan Wakes", "James S. A. Corey", 2011, 1199, 3),
    title("Ancillary Justice", "Ann Leckie", 2013, 1199, 2),
    title("Station Eleven", "Emily St. John Mandel", 2014, 1199, 2),
    title("The Fifth Season", "N. K. Jemisin", 2015, 1199, 4),
];

//! The questions a resolver may ask: the user (`Elicit`, `ElicitUrl`), the client's LLM
//! (`Sample`), the client's roots (`ListRoots`).

mod elicit;
mod elicit_url;
mod form;
mod list_roots;
mod sample;

pub use elicit::{Elicit, ElicitationResult};
pub use elicit_url::{ElicitUrl, UrlConsent};
pub use list_roots::ListRoots;
pub use sample::Sample;

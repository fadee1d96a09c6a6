//! The bounds on what a server publishes as skills: the Agent Skills limits per skill, and what
//! one server loads in all.

/// The most files one skill may have (its manifest's entries).
pub(super) const MAX_FILES_PER_SKILL: usize = 512;
/// The most bytes one skill's files may hold together (16 MiB).
pub(super) const MAX_BYTES_PER_SKILL: u64 = 16 * 1024 * 1024;
/// The most files a skills folder may hold in all.
pub(super) const MAX_FILES_IN_ALL: usize = 8 * MAX_FILES_PER_SKILL;
/// The most bytes a server loads as skills in all (they are kept in memory).
pub(super) const MAX_LOADED_BYTES: u64 = 4 * MAX_BYTES_PER_SKILL;
/// How many skills one `skills/list` page holds, and how many children one
/// `resources/directory/read` page.
pub(super) const PAGE_SIZE: usize = 50;

//! The options of `#[tool]`.

use super::{Listing, OptionValue, parse};
use proc_macro2::TokenStream;

/// `task = "…"`: whether the tool runs as a task.
#[derive(Clone, Copy, Default)]
pub(crate) enum TaskOption {
    /// Never (the default).
    #[default]
    Forbidden,
    /// When the client negotiates the tasks extension.
    Optional,
    /// Only as a task.
    Required,
}

/// The options of `#[tool(…)]`.
#[derive(Default)]
pub(crate) struct ToolOptions {
    pub(crate) listing: Listing,
    /// `input_schema = "path"`: a `fn() -> schemars::Schema` listed as written.
    pub(crate) input_schema: Option<syn::Path>,
    pub(crate) task: TaskOption,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
    pub(crate) once: bool,
    pub(crate) ask_before_task: bool,
}

const KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "scopes",
    "input_schema",
    "task",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "once",
    "ask_before_task",
];

impl ToolOptions {
    pub(crate) fn parse(attr: TokenStream) -> syn::Result<Self> {
        let mut options = Self::default();
        parse(attr, "tool", KEYS, |key, value| options.read(key, value))?;
        Ok(options)
    }

    fn read(&mut self, key: &str, value: &OptionValue<'_, '_>) -> syn::Result<bool> {
        match key {
            "input_schema" => self.input_schema = Some(input_schema(value)?),
            "task" => self.task = task(value)?,
            "read_only" => self.read_only = Some(value.flag()?),
            "destructive" => self.destructive = Some(value.flag()?),
            "idempotent" => self.idempotent = Some(value.flag()?),
            "open_world" => self.open_world = Some(value.flag()?),
            "once" => self.once = value.flag()?,
            "ask_before_task" => self.ask_before_task = value.flag()?,
            _ => return self.listing.read(key, value),
        }
        Ok(true)
    }
}

fn input_schema(value: &OptionValue<'_, '_>) -> syn::Result<syn::Path> {
    let literal = value.literal()?;
    literal.parse::<syn::Path>().map_err(|_| {
        syn::Error::new(
            literal.span(),
            "#[tool(input_schema = \"…\")] names a function `fn() -> schemars::Schema`",
        )
    })
}

fn task(value: &OptionValue<'_, '_>) -> syn::Result<TaskOption> {
    let literal = value.literal()?;
    match literal.value().as_str() {
        "forbidden" => Ok(TaskOption::Forbidden),
        "optional" => Ok(TaskOption::Optional),
        "required" => Ok(TaskOption::Required),
        other => Err(syn::Error::new(
            literal.span(),
            format!(
                "#[tool(task = \"{other}\")]: expected \"optional\" (a task when the client \
                 negotiates the tasks extension, a plain call otherwise), \"required\" (only as \
                 a task) or \"forbidden\""
            ),
        )),
    }
}

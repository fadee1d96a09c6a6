//! Everything the protocol files' examples name (tests only): every item of every file, the
//! files themselves (for `version::MODERN` and the like), and `json!`. Each file's examples use
//! a part of it.

#![allow(unused_imports)]

pub(crate) use super::cancelled::*;
pub(crate) use super::capabilities::*;
pub(crate) use super::completion::*;
pub(crate) use super::content::*;
pub(crate) use super::elicitation::*;
pub(crate) use super::icon::*;
pub(crate) use super::implementation::*;
pub(crate) use super::jsonrpc::*;
pub(crate) use super::lifecycle::*;
pub(crate) use super::list_changed::*;
pub(crate) use super::logging::*;
pub(crate) use super::meta::*;
pub(crate) use super::progress::*;
pub(crate) use super::prompts::*;
pub(crate) use super::resources::*;
pub(crate) use super::roots::*;
pub(crate) use super::sampling::*;
pub(crate) use super::subscriptions::*;
pub(crate) use super::tasks::*;
pub(crate) use super::tools::*;
pub(crate) use super::version::*;
pub(crate) use super::{
    cancelled, capabilities, completion, content, elicitation, icon, implementation, jsonrpc,
    lifecycle, list_changed, logging, meta, progress, prompts, resources, roots, sampling,
    subscriptions, tasks, tools, version,
};
pub(crate) use serde_json::json;

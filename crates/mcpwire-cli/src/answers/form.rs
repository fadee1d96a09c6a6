//! Asking a person on the terminal: a form elicitation field by field (required fields cannot
//! be left empty; defaults are accepted with Enter; choices are picked from a list), a URL to
//! open, or the text of a sampled message.

use super::field::{Field, shown};
use dialoguer::theme::SimpleTheme;
use dialoguer::{Confirm, Input, MultiSelect, Select};
use mcpwire::client::{FormElicitation, UrlElicitation};
use mcpwire::protocol::{ElicitAction, ElicitResult};
use serde_json::{Map, Value};
use std::io;

/// Asks `question` on the terminal.
pub fn ask_form(question: &FormElicitation) -> io::Result<ElicitResult> {
    eprintln!("? {}", question.message);
    let action = Select::with_theme(&SimpleTheme)
        .with_prompt("Your answer")
        .items(["answer the form", "decline", "cancel"])
        .default(0)
        .interact()
        .map_err(into_io)?;
    match action {
        1 => {
            return Ok(ElicitResult {
                action: ElicitAction::Decline,
                content: None,
            });
        }
        2 => {
            return Ok(ElicitResult {
                action: ElicitAction::Cancel,
                content: None,
            });
        }
        _ => {}
    }
    let mut content = Map::new();
    for field in Field::all(&question.requested_schema) {
        eprintln!("  {}", field.describe());
        if let Some(value) = ask_field(&field)? {
            content.insert(field.name.clone(), value);
        }
    }
    Ok(ElicitResult {
        action: ElicitAction::Accept,
        content: Some(content),
    })
}

/// One field; `None` when an optional field is skipped.
fn ask_field(field: &Field) -> io::Result<Option<Value>> {
    let theme = SimpleTheme;
    let prompt = field.name.clone();
    if field.kind == "array" && !field.choices.is_empty() {
        let chosen: Vec<bool> = field
            .choices
            .iter()
            .map(|(value, _)| {
                field
                    .default
                    .as_ref()
                    .and_then(Value::as_array)
                    .is_some_and(|d| d.contains(value))
            })
            .collect();
        let labels: Vec<&str> = field.choices.iter().map(|(_, l)| l.as_str()).collect();
        let picked = MultiSelect::with_theme(&theme)
            .with_prompt(prompt)
            .items(&labels)
            .defaults(&chosen)
            .interact()
            .map_err(into_io)?;
        let values = picked
            .into_iter()
            .map(|at| field.choices[at].0.clone())
            .collect();
        return Ok(Some(Value::Array(values)));
    }
    if !field.choices.is_empty() {
        let mut labels: Vec<String> = field.choices.iter().map(|(_, l)| l.clone()).collect();
        if !field.required {
            labels.push("(skip)".into());
        }
        let default = field
            .default
            .as_ref()
            .and_then(|d| field.choices.iter().position(|(value, _)| value == d))
            .unwrap_or(0);
        let at = Select::with_theme(&theme)
            .with_prompt(prompt)
            .items(&labels)
            .default(default)
            .interact()
            .map_err(into_io)?;
        return Ok(field.choices.get(at).map(|(value, _)| value.clone()));
    }
    if field.kind == "boolean" {
        return ask_boolean(field, prompt);
    }
    let mut input = Input::<String>::with_theme(&theme)
        .with_prompt(prompt)
        .allow_empty(true);
    if let Some(default) = &field.default {
        input = input.default(shown(default));
    }
    let required = field.required && field.default.is_none();
    let text = input
        .validate_with(|text: &String| -> Result<(), String> {
            if text.is_empty() {
                return match required {
                    true => Err("this field is required".into()),
                    false => Ok(()),
                };
            }
            field.parse(text).map(drop)
        })
        .interact_text()
        .map_err(into_io)?;
    if text.is_empty() {
        return Ok(None);
    }
    field.parse(&text).map(Some).map_err(io::Error::other)
}

fn ask_boolean(field: &Field, prompt: String) -> io::Result<Option<Value>> {
    let theme = SimpleTheme;
    match (
        field.default.as_ref().and_then(Value::as_bool),
        field.required,
    ) {
        (Some(default), _) => {
            let yes = Confirm::with_theme(&theme)
                .with_prompt(prompt)
                .default(default)
                .interact();
            Ok(Some(Value::Bool(yes.map_err(into_io)?)))
        }
        // No default: a required yes/no must be typed, an optional one may be skipped.
        (None, true) => {
            let yes = Confirm::with_theme(&theme).with_prompt(prompt).interact();
            Ok(Some(Value::Bool(yes.map_err(into_io)?)))
        }
        (None, false) => {
            let at = Select::with_theme(&theme)
                .with_prompt(prompt)
                .items(["yes", "no", "(skip)"])
                .default(2)
                .interact()
                .map_err(into_io)?;
            Ok([Some(Value::Bool(true)), Some(Value::Bool(false)), None][at].clone())
        }
    }
}

/// Shows the URL and asks whether the person went there.
pub fn ask_url(question: &UrlElicitation) -> io::Result<ElicitResult> {
    eprintln!("? {}\n  open: {}", question.message, question.url);
    let done = Confirm::with_theme(&SimpleTheme)
        .with_prompt("Did you complete it there?")
        .default(true)
        .interact()
        .map_err(into_io)?;
    let action = if done {
        ElicitAction::Accept
    } else {
        ElicitAction::Decline
    };
    Ok(ElicitResult {
        action,
        content: None,
    })
}

/// Shows the sampling request's messages and asks for the reply's text.
pub fn ask_sample(messages: &[String]) -> io::Result<String> {
    eprintln!("? the server asks the model:");
    for message in messages {
        eprintln!("  {message}");
    }
    Input::<String>::with_theme(&SimpleTheme)
        .with_prompt("Reply")
        .interact_text()
        .map_err(into_io)
}

fn into_io(error: dialoguer::Error) -> io::Error {
    match error {
        dialoguer::Error::IO(error) => error,
    }
}

//! A `SKILL.md`'s front matter: the YAML block between its opening `---` lines, read as JSON
//! exactly as written (`skills/list` shows it verbatim), and checked against the Agent Skills
//! rules for `name` and `description`.

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// The longest `name` the Agent Skills rules allow.
const MAX_NAME: usize = 64;
/// The longest `description` the Agent Skills rules allow, in characters.
const MAX_DESCRIPTION: usize = 1024;

/// The front matter of `text` (a `SKILL.md`), read as a JSON object; why not, otherwise.
pub(super) fn read(text: &str) -> Result<Map<String, Value>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or("it does not start with a front matter block ('---' on the first line)")?;
    let end = closing_fence(rest).ok_or("its front matter block has no closing '---' line")?;
    let documents = YamlLoader::load_from_str(&rest[..end])
        .map_err(|error| format!("its front matter is not valid YAML: {error}"))?;
    match documents.into_iter().next() {
        Some(Yaml::Hash(entries)) => object_of(entries),
        Some(_) => Err("its front matter is not a mapping of fields".into()),
        None => Err("its front matter is empty: it needs a name and a description".into()),
    }
}

/// Where the closing `---` line of a front matter block starts in `rest` (the text after the
/// opening line).
fn closing_fence(rest: &str) -> Option<usize> {
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        if line
            .trim_end_matches(['\n', '\r'])
            .trim_end_matches([' ', '\t'])
            == "---"
        {
            return Some(at);
        }
        at += line.len();
    }
    None
}

/// `yaml` as JSON; mappings must have string keys.
fn json_of(yaml: Yaml) -> Result<Value, String> {
    Ok(match yaml {
        Yaml::Null => Value::Null,
        Yaml::Boolean(value) => Value::Bool(value),
        Yaml::Integer(value) => Value::Number(value.into()),
        Yaml::Real(text) => text
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map_or(Value::String(text), Value::Number),
        Yaml::String(text) => Value::String(text),
        Yaml::Array(items) => {
            Value::Array(items.into_iter().map(json_of).collect::<Result<_, _>>()?)
        }
        Yaml::Hash(entries) => Value::Object(object_of(entries)?),
        Yaml::Alias(_) | Yaml::BadValue => {
            return Err("its front matter uses a YAML feature skills do not (an alias)".into());
        }
    })
}

/// A YAML mapping as a JSON object; its keys must be strings.
fn object_of(entries: yaml_rust2::yaml::Hash) -> Result<Map<String, Value>, String> {
    let mut object = Map::new();
    for (key, value) in entries {
        let Yaml::String(key) = key else {
            return Err(format!(
                "its front matter has a key that is not a string ({key:?})"
            ));
        };
        object.insert(key, json_of(value)?);
    }
    Ok(object)
}

/// Checks the front matter of the skill in the folder named `folder`: a `name` by the Agent
/// Skills rules that equals the folder's name, and a `description`.
pub(super) fn check(fields: &Map<String, Value>, folder: &str) -> Result<(), String> {
    let name = match fields.get("name") {
        Some(Value::String(name)) => name,
        Some(_) => return Err("its name is not a string".into()),
        None => return Err("its front matter has no name".into()),
    };
    if !valid_name(name) {
        return Err(format!(
            "its name '{name}' breaks the Agent Skills rules: 1 to {MAX_NAME} lowercase letters, \
             digits and single hyphens, neither first nor last"
        ));
    }
    if name != folder {
        return Err(format!(
            "its name '{name}' differs from its folder's name '{folder}'"
        ));
    }
    match fields.get("description") {
        Some(Value::String(description)) if description.trim().is_empty() => {
            Err("its description is empty".into())
        }
        Some(Value::String(description)) if description.chars().count() > MAX_DESCRIPTION => {
            Err(format!(
                "its description has {} characters; at most {MAX_DESCRIPTION} are allowed",
                description.chars().count()
            ))
        }
        Some(Value::String(_)) => Ok(()),
        Some(_) => Err("its description is not a string".into()),
        None => Err("its front matter has no description".into()),
    }
}

/// Whether `name` is a skill name by the Agent Skills rules.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_front_matter_is_read_as_written() {
        let text = "---\nname: code-review\ndescription: Review code.\nversion: \"1.0\"\nmetadata:\n  team: shop\nallowed-tools: [a, b]\n---\n\n# Code review\n";
        let fields = read(text).unwrap();
        assert_eq!(
            Value::Object(fields.clone()),
            json!({
                "name": "code-review",
                "description": "Review code.",
                "version": "1.0",
                "metadata": { "team": "shop" },
                "allowed-tools": ["a", "b"],
            })
        );
        assert!(check(&fields, "code-review").is_ok());
        assert!(read("\u{feff}---\r\nname: a\r\ndescription: b\r\n---\r\n").is_ok());
    }

    #[test]
    fn a_broken_front_matter_says_what_is_wrong() {
        let why = |text: &str| read(text).unwrap_err();
        assert!(why("# no front matter").contains("does not start"));
        assert!(why("---\nname: a\n").contains("no closing"));
        assert!(why("---\n- a\n- b\n---\n").contains("not a mapping"));
        assert!(why("---\nname: [unclosed\n---\n").contains("not valid YAML"));
        let fields = |yaml: Value| yaml.as_object().unwrap().clone();
        let check_of = |yaml: Value, folder: &str| check(&fields(yaml), folder).unwrap_err();
        assert!(check_of(json!({"description": "d"}), "a").contains("no name"));
        assert!(
            check_of(json!({"name": "Bad_Name", "description": "d"}), "Bad_Name").contains("rules")
        );
        assert!(check_of(json!({"name": "a--b", "description": "d"}), "a--b").contains("rules"));
        assert!(check_of(json!({"name": "-a", "description": "d"}), "-a").contains("rules"));
        assert!(check_of(json!({"name": "a", "description": "d"}), "b").contains("differs"));
        assert!(check_of(json!({"name": "a"}), "a").contains("no description"));
        assert!(check_of(json!({"name": "a", "description": " "}), "a").contains("empty"));
        let long = "x".repeat(1025);
        assert!(check_of(json!({"name": "a", "description": long}), "a").contains("1025"));
        assert!(
            check(
                &fields(json!({"name": &"a".repeat(64), "description": "d"})),
                &"a".repeat(64)
            )
            .is_ok()
        );
        assert!(
            check_of(
                json!({"name": &"a".repeat(65), "description": "d"}),
                &"a".repeat(65)
            )
            .contains("rules")
        );
    }
}

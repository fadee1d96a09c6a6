//! The string formats a form field may ask for (`email`, `uri`, `date`, `date-time`, as the
//! elicitation schema allows): an `--answer` that does not fit is refused with the reason,
//! rather than sent for the server to reject.

use serde_json::Value;

/// Checks `value` against the `format` of its field's schema `property`, if any.
pub fn check(name: &str, property: &Value, value: &Value) -> Result<(), String> {
    let (Some(format), Some(text)) = (
        property.get("format").and_then(Value::as_str),
        value.as_str(),
    ) else {
        return Ok(());
    };
    let fits = match format {
        "email" => is_email(text),
        "uri" => url::Url::parse(text).is_ok(),
        "date" => is_date(text),
        "date-time" => is_date_time(text),
        _ => true, // a format this CLI does not know: the server decides
    };
    match fits {
        true => Ok(()),
        false => Err(format!("{name}: {text:?} is not a valid {format}")),
    }
}

fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.is_empty()
        && !domain.contains('@')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !text.chars().any(char::is_whitespace)
}

/// `YYYY-MM-DD`, a day that exists.
fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let [year, month, day] = parts.as_slice() else {
        return false;
    };
    let number = |digits: &str, len: usize| {
        (digits.len() == len && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse::<u32>().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (number(year, 4), number(month, 2), number(day, 2))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339: `YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)`.
fn is_date_time(text: &str) -> bool {
    let Some((date, time)) = text.split_once(['T', 't']) else {
        return false;
    };
    let (clock, offset) = match time.find(['Z', 'z', '+', '-']) {
        Some(at) => time.split_at(at),
        None => return false,
    };
    let two = |digits: &str, max: u32| {
        digits.len() == 2
            && digits.bytes().all(|b| b.is_ascii_digit())
            && digits.parse::<u32>().is_ok_and(|n| n <= max)
    };
    let (whole, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let hms: Vec<&str> = whole.split(':').collect();
    let clock_fits = matches!(hms.as_slice(), [h, m, s] if two(h, 23) && two(m, 59) && two(s, 60))
        && !fraction.is_empty()
        && fraction.bytes().all(|b| b.is_ascii_digit());
    let offset_fits = match offset {
        "Z" | "z" => true,
        _ => offset[1..]
            .split_once(':')
            .is_some_and(|(h, m)| two(h, 23) && two(m, 59)),
    };
    is_date(date) && clock_fits && offset_fits
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fits(format: &str, text: &str) -> bool {
        check(
            "f",
            &json!({"type": "string", "format": format}),
            &json!(text),
        )
        .is_ok()
    }

    #[test]
    fn formats_are_checked() {
        assert!(fits("email", "ada@example.com"));
        assert!(!fits("email", "not-an-email"));
        assert!(!fits("email", "a b@example.com"));
        assert!(fits("uri", "https://ada.example/me"));
        assert!(!fits("uri", "ada.example"));
        assert!(fits("date", "2024-02-29"));
        assert!(!fits("date", "2023-02-29"));
        assert!(!fits("date", "31/01/2000"));
        assert!(fits("date-time", "2000-01-31T12:30:00Z"));
        assert!(fits("date-time", "2000-01-31T12:30:00.5+02:00"));
        assert!(!fits("date-time", "2000-01-31 12:30"));
        assert!(fits("hostname", "anything: the server decides"));
    }

    #[test]
    fn the_reason_names_the_field_and_the_format() {
        let property = json!({"type": "string", "format": "email"});
        assert_eq!(
            check("email", &property, &json!("nope")).unwrap_err(),
            r#"email: "nope" is not a valid email"#
        );
        // Not a string (or no format): nothing to check.
        assert!(check("n", &json!({"type": "integer"}), &json!(3)).is_ok());
    }
}

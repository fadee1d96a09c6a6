//! Reading a request's parameters as a method's params type, with the `-32602` a client can
//! act on when they do not fit.

use super::ErrorObject;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

/// `params` read as `T` (absent params read as `{}`), or `-32602` saying why not.
pub(crate) fn parse<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text).map_err(|error| {
        let why = error.to_string();
        let why = why.split(" at line ").next().unwrap_or_default();
        ErrorObject::invalid_params(format!("Invalid params: {why}"))
    })
}

/// `params` read as `T`, or `T::default()` when the request has none.
pub(crate) fn parse_or_default<T: DeserializeOwned + Default>(
    params: Option<&RawValue>,
) -> Result<T, ErrorObject> {
    match params {
        None => Ok(T::default()),
        Some(_) => parse(params),
    }
}

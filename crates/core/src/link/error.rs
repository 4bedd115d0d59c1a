//! [`ConfigError`]: what every parse of a link returns when a key is wrong, naming the key.

use serde::Serialize;

/// A configuration error: which key is wrong and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfigError {
    /// The offending key (or the text of an unknown key).
    pub key: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl ConfigError {
    /// An error on `key` with a message saying what is wrong and what is allowed.
    pub fn new(key: &str, message: impl Into<String>) -> Self {
        ConfigError { key: key.to_string(), message: message.into() }
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: {}", self.key, self.message)
    }
}

impl std::error::Error for ConfigError {}

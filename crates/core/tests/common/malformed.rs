//! The check that every refused configuration string names the offending key.

use attn_core::ConfigError;
use std::fmt::Display;

/// Each `(text, key)` of `cases` must be refused by `parse` with an error on `key` and a
/// non-empty message.
pub fn each_names_its_key<T: Display>(cases: &[(&str, &str)], parse: impl Fn(&str) -> Result<T, ConfigError>) {
    for (text, key) in cases {
        match parse(text) {
            Ok(c) => panic!("{:?} parsed as {}", text, c),
            Err(e) => {
                assert_eq!(&e.key, key, "{:?} gave {}", text, e);
                assert!(!e.message.is_empty());
            }
        }
    }
}

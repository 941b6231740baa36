//! The schema a store instance keeps its tables in.

use core::fmt;

use crate::error::SchemaNameError;

/// The PostgreSQL schema one store instance keeps its tables in: every replica of one
/// deployment names the same schema, and each test case gets a fresh, empty one.
///
/// Checked so that it can be written into SQL as an identifier without escaping: 1 to
/// [`MAX_LEN`](Self::MAX_LEN) bytes of `a`-`z`, `0`-`9` and `_`, not starting with a digit and
/// not with the reserved `pg_`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SchemaName(String);

impl SchemaName {
    /// The longest name, in bytes (PostgreSQL's `NAMEDATALEN - 1`).
    pub const MAX_LEN: usize = 63;

    /// A schema name, checked.
    ///
    /// # Errors
    /// What is wrong with `name`.
    pub fn new(name: impl Into<String>) -> Result<Self, SchemaNameError> {
        let name = name.into();
        if name.is_empty() {
            return Err(SchemaNameError::Empty);
        }
        if name.len() > Self::MAX_LEN {
            return Err(SchemaNameError::TooLong);
        }
        if let Some(c) = name
            .chars()
            .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))
        {
            return Err(SchemaNameError::InvalidCharacter(c));
        }
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(SchemaNameError::StartsWithDigit);
        }
        if name.starts_with("pg_") {
            return Err(SchemaNameError::Reserved);
        }
        Ok(Self(name))
    }

    /// The name as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SchemaName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

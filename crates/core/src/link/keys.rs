//! One declarative key table per lab: every URL key is defined once, as a [`Key`] (name, kind and
//! range, choices, a one-line meaning, an optional one-line effect, the `allowed` text of docs/links.md,
//! and how it reads and writes the lab's typed configuration). Parsing and range validation
//! ([`apply`], [`check_ranges`]), the canonical order and `pairs()` ([`pairs`]), the choice names,
//! and the key tables of docs/links.md ([`markdown_table`]) derive from the table; only cross-key checks
//! stay hand-written in each lab. The page reads the tables through [`super::key_info`] (field
//! tooltips, limits, choices).
//!
//! The default of a key is its value in the lab's default preset, and a preset's values are the
//! `get` of that preset's configuration: both derive from the table too.

use super::{format_f64, parse_float, quote, values, ConfigError};

/// How a key's value is written and which values are allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number in `lo..=hi`.
    Count {
        /// Smallest allowed value.
        lo: u64,
        /// Largest allowed value.
        hi: u64,
    },
    /// A finite number between `lo` and `hi` (open or closed ends; `-inf..inf`: any finite number).
    Float {
        /// Lower end.
        lo: f64,
        /// Whether `lo` itself is excluded.
        lo_open: bool,
        /// Upper end.
        hi: f64,
        /// Whether `hi` itself is excluded.
        hi_open: bool,
    },
    /// A PRNG seed, `0..=4294967295`.
    Seed,
    /// `on` or `off`.
    Switch,
    /// One of the names, in this order (an enum's names: [`Named::NAMES`]).
    Choice(&'static [&'static str]),
    /// Free text of at most this many bytes (percent-encoded in the canonical form).
    Text {
        /// Longest value, in bytes.
        max_bytes: usize,
    },
    /// A value with a grammar of the lab's own (matrices, points, lists, a nested link); its
    /// `set` parses and checks it.
    Custom,
}

/// A value read from a link by its key's [`Kind`], handed to the key's `set`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// [`Kind::Count`].
    Count(usize),
    /// [`Kind::Float`].
    Float(f64),
    /// [`Kind::Seed`].
    Seed(u32),
    /// [`Kind::Switch`].
    Switch(bool),
    /// [`Kind::Choice`]: the index of the name.
    Choice(usize),
    /// [`Kind::Text`] and [`Kind::Custom`]: the decoded text.
    Text(&'a str),
}

impl Value<'_> {
    /// The whole number of a `Count` (0 for another kind: the table's tests keep kinds and
    /// setters consistent).
    pub fn count(self) -> usize {
        if let Value::Count(v) = self {
            v
        } else {
            0
        }
    }
    /// The number of a `Float` (NaN for another kind).
    pub fn float(self) -> f64 {
        if let Value::Float(v) = self {
            v
        } else {
            f64::NAN
        }
    }
    /// The seed of a `Seed` (0 for another kind).
    pub fn seed(self) -> u32 {
        if let Value::Seed(v) = self {
            v
        } else {
            0
        }
    }
    /// The switch of a `Switch` (false for another kind).
    pub fn on(self) -> bool {
        matches!(self, Value::Switch(true))
    }
    /// The choice index of a `Choice` (0 for another kind).
    pub fn index(self) -> usize {
        if let Value::Choice(v) = self {
            v
        } else {
            0
        }
    }
}

impl<'a> Value<'a> {
    /// The text of a `Text` or `Custom` value ("" for another kind).
    pub fn str(self) -> &'a str {
        if let Value::Text(v) = self {
            v
        } else {
            ""
        }
    }
}

/// One URL key of a lab whose typed configuration is `C`.
pub struct Key<C: 'static> {
    /// The key as written in links (`beta`).
    pub name: &'static str,
    /// How the value is written and which values are allowed.
    pub kind: Kind,
    /// What the key is, in one line (docs/links.md, field tooltips).
    pub meaning: &'static str,
    /// What changing it does, in one line ("" when the meaning says it all).
    pub effect: &'static str,
    /// The "allowed" text of docs/links.md ("" to derive it from the kind).
    pub allowed: &'static str,
    /// The value as written in the canonical link.
    pub get: fn(&C) -> String,
    /// Stores a value read by `kind` (a `Custom` value is parsed and checked here).
    pub set: fn(&mut C, Value<'_>) -> Result<(), ConfigError>,
}

impl<C> Key<C> {
    /// The "allowed" text of docs/links.md: the table's own, or one derived from the kind.
    pub fn allowed_text(&self) -> String {
        if !self.allowed.is_empty() {
            return self.allowed.to_string();
        }
        match self.kind {
            Kind::Count { lo, hi } => format!("{}..={}", lo, hi),
            Kind::Float { .. } => float_range_text(self.name, self.kind),
            Kind::Seed => "0..=4294967295".into(),
            Kind::Switch => "`on`, `off`".into(),
            Kind::Choice(names) => names.iter().map(|n| format!("`{}`", n)).collect::<Vec<_>>().join(", "),
            Kind::Text { max_bytes } => format!("at most {} bytes", max_bytes),
            Kind::Custom => String::new(),
        }
    }
}

/// An enum whose variants are written by name in links; [`Kind::Choice`] takes its `NAMES`.
pub trait Named: Copy + PartialEq + 'static {
    /// Every variant, in the order of [`Named::NAMES`].
    const ALL: &'static [Self];
    /// The names, as written in links.
    const NAMES: &'static [&'static str];

    /// The name of this variant.
    fn name(self) -> &'static str {
        Self::NAMES[self.index()]
    }
    /// The position of this variant in [`Named::ALL`].
    fn index(self) -> usize {
        Self::ALL.iter().position(|v| *v == self).unwrap_or(0)
    }
    /// The variant at `index` of [`Named::ALL`] (the first for an index out of range).
    fn from_index(index: usize) -> Self {
        Self::ALL.get(index).copied().unwrap_or(Self::ALL[0])
    }
    /// The variant named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::NAMES.iter().position(|n| *n == name).map(Self::from_index)
    }
}

/// Defines an enum with a name per variant, written once, and implements [`Named`] for it.
#[macro_export]
macro_rules! named_enum {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum $name { $($(#[$vmeta])* $variant,)+ }
        impl $crate::link::Named for $name {
            const ALL: &'static [Self] = &[$($name::$variant,)+];
            const NAMES: &'static [&'static str] = &[$($text,)+];
        }
    };
}

/// An end of a range as messages write it: `1000`, `0.5`, `1e6`.
fn end_text(x: f64) -> String {
    if x.abs() >= 1e6 {
        format_f64(x)
    } else {
        format!("{}", x)
    }
}

/// "0 < beta <= 1000", "0 <= momentum < 1", "a finite number".
fn float_range_text(name: &str, kind: Kind) -> String {
    let Kind::Float { lo, lo_open, hi, hi_open } = kind else { return String::new() };
    let (lo_finite, hi_finite) = (lo.is_finite(), hi.is_finite());
    let lo_part = if lo_finite { format!("{} {} ", end_text(lo), if lo_open { "<" } else { "<=" }) } else { "".into() };
    let hi_part = if hi_finite { format!(" {} {}", if hi_open { "<" } else { "<=" }, end_text(hi)) } else { "".into() };
    if !lo_finite && !hi_finite {
        return "a finite number".into();
    }
    format!("{}{}{}", lo_part, name, hi_part)
}

impl Kind {
    /// Reads `raw` (decoded) for key `name`: syntax and range; the error names the key and what
    /// is allowed.
    pub fn read<'a>(self, name: &str, raw: &'a str) -> Result<Value<'a>, ConfigError> {
        match self {
            Kind::Count { lo, hi } => values::count(name, raw, lo as usize, hi as usize).map(Value::Count),
            Kind::Float { .. } => {
                let x = parse_float(name, raw)?;
                if in_float_range(x, self) {
                    // `-0` reads as `0`: one value, so one canonical link (a run with `-0` gave
                    // the same numbers: no key's arithmetic tells the two zeros apart).
                    Ok(Value::Float(x + 0.0))
                } else {
                    // What was typed, not the number it reads as: `1e-400` is refused as "1e-400".
                    let mantissa = raw.split(['e', 'E']).next().unwrap_or(raw);
                    let reads = if x == 0.0 && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
                        " (too small for a 64-bit float: it reads as 0)"
                    } else {
                        ""
                    };
                    Err(ConfigError::new(
                        name,
                        format!("{} is out of range{}; allowed: {}", quote(raw), reads, float_range_text(name, self)),
                    ))
                }
            }
            Kind::Seed => values::seed(name, raw).map(Value::Seed),
            Kind::Switch => match raw {
                "on" => Ok(Value::Switch(true)),
                "off" => Ok(Value::Switch(false)),
                _ => Err(not_allowed(name, raw, &["on", "off"])),
            },
            Kind::Choice(names) => {
                names.iter().position(|n| *n == raw).map(Value::Choice).ok_or_else(|| not_allowed(name, raw, names))
            }
            Kind::Text { max_bytes } => {
                if raw.len() > max_bytes {
                    Err(ConfigError::new(name, format!("{} bytes long; at most {} are allowed", raw.len(), max_bytes)))
                } else {
                    Ok(Value::Text(raw))
                }
            }
            Kind::Custom => Ok(Value::Text(raw)),
        }
    }
}

fn in_float_range(x: f64, kind: Kind) -> bool {
    let Kind::Float { lo, lo_open, hi, hi_open } = kind else { return false };
    let above = if lo_open { x > lo } else { x >= lo };
    let below = if hi_open { x < hi } else { x <= hi };
    x.is_finite() && above && below
}

/// `"x" is not allowed; allowed: a, b, c`.
pub fn not_allowed(name: &str, raw: &str, names: &[&str]) -> ConfigError {
    ConfigError::new(name, format!("{} is not allowed; allowed: {}", quote(raw), names.join(", ")))
}

/// The key of `table` named `name`.
pub fn find<'t, C>(table: &'t [Key<C>], name: &str) -> Option<&'t Key<C>> {
    table.iter().find(|k| k.name == name)
}

/// Reads `raw` as the value of key `name` and stores it in `c`; errors name the key.
pub fn apply<C>(table: &[Key<C>], c: &mut C, name: &str, raw: &str) -> Result<(), ConfigError> {
    let key = find(table, name).ok_or_else(|| ConfigError::new(name, "unknown key"))?;
    let value = key.kind.read(key.name, raw)?;
    (key.set)(c, value)
}

/// Every key's value in `c`, in the table's (canonical) order.
pub fn pairs<C>(table: &[Key<C>], c: &C) -> Vec<(&'static str, String)> {
    table.iter().map(|k| (k.name, (k.get)(c))).collect()
}

/// The keys a link of this lab may hold, in canonical order: `version`, then the table's.
pub fn key_names<C>(table: &[Key<C>]) -> Vec<&'static str> {
    std::iter::once("version").chain(table.iter().map(|k| k.name)).collect()
}

/// Checks that every value of `c` is in its key's range (a configuration built in code, not
/// parsed): each value is written as in a link and read back by its kind, in table order.
/// `Custom` keys are the lab's to check.
pub fn check_ranges<C>(table: &[Key<C>], c: &C) -> Result<(), ConfigError> {
    for key in table.iter().filter(|k| !matches!(k.kind, Kind::Custom | Kind::Text { .. })) {
        let text = (key.get)(c);
        key.kind.read(key.name, &text)?;
    }
    Ok(())
}

/// The docs/links.md table of a lab's keys: `| key | meaning | allowed | default (`PRESET`) |` with a
/// row per key (`default`: the value in `default_config`, the lab's default preset named
/// `default_name`; long values shortened).
pub fn markdown_table<C>(table: &[Key<C>], default_config: &C, default_name: &str) -> String {
    let mut out = format!("| key | meaning | allowed | default (`{}`) |\n|---|---|---|---|\n", default_name);
    for key in table {
        let value = (key.get)(default_config);
        let default = if value.is_empty() {
            "empty".to_string()
        } else if value.len() > 40 {
            format!("`{}…`", &value[..value.char_indices().nth(37).map(|(i, _)| i).unwrap_or(value.len())])
        } else {
            format!("`{}`", value)
        };
        let meaning =
            if key.effect.is_empty() { key.meaning.to_string() } else { format!("{}; {}", key.meaning, key.effect) };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            key.name,
            escape_cell(&meaning),
            escape_cell(&key.allowed_text()),
            escape_cell(&default)
        ));
    }
    out
}

fn escape_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The formatting helpers a table's `get` uses.
pub mod write {
    /// `on` / `off`.
    pub fn on_off(b: bool) -> String {
        if b { "on" } else { "off" }.to_string()
    }
    /// Whole numbers joined by commas.
    pub fn list(v: &[usize]) -> String {
        v.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")
    }
}

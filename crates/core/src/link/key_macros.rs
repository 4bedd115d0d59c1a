//! The macros that write one row of a lab's key table ([`super::Key`]) from its field: a
//! whole number, a finite number, a choice of a named enum, a switch, a seed, a text, and the
//! `lab` and `preset` keys every lab with presets starts with. Exported at the crate root
//! (`crate::key_count!`, ...).

/// The `lab` key of lab `lab`'s table: `key_lab!("depth", "allowed")` (`allowed`: the docs'
/// text); its parser refuses another lab's name, saying which lab that is.
#[macro_export]
macro_rules! key_lab {
    ($lab:expr, $allowed:expr) => {
        $crate::link::Key {
            name: "lab",
            kind: $crate::link::Kind::Custom,
            meaning: "which lab",
            effect: "",
            allowed: $allowed,
            get: |_| $lab.to_string(),
            set: |_, v| $crate::link::values::lab("lab", v.str(), $lab),
        }
    };
}

/// The `preset` key of a lab with presets (field `preset`, a [`crate::link::LabPreset`]):
/// `key_preset!("allowed")`. Writing a configuration writes its preset's name; reading one sets
/// nothing here (the lab's parser starts from the named preset, whatever its position).
#[macro_export]
macro_rules! key_preset {
    ($allowed:expr) => {
        $crate::link::Key {
            name: "preset",
            kind: $crate::link::Kind::Custom,
            meaning: "starting configuration",
            effect: "",
            allowed: $allowed,
            get: |c| $crate::link::LabPreset::name(c.preset).to_string(),
            set: |_, _| Ok(()),
        }
    };
}

/// A [`super::Key`] for a whole-number field: `key_count!(field, lo, hi, "meaning")`.
#[macro_export]
macro_rules! key_count {
    ($f:ident, $lo:expr, $hi:expr, $meaning:expr) => {
        $crate::link::Key {
            name: stringify!($f),
            kind: $crate::link::Kind::Count { lo: $lo as u64, hi: $hi as u64 },
            meaning: $meaning,
            effect: "",
            allowed: "",
            get: |c| c.$f.to_string(),
            set: |c, v| {
                c.$f = v.count();
                Ok(())
            },
        }
    };
}

/// A [`super::Key`] for a finite-number field: `key_float!(field, open 0.0, closed 10.0, "meaning")`
/// (`open`: the end is excluded; `f64::INFINITY` ends: unbounded).
#[macro_export]
macro_rules! key_float {
    (@open open) => { true };
    (@open closed) => { false };
    ($f:ident, $lo_end:ident $lo:expr, $hi_end:ident $hi:expr, $meaning:expr) => {
        $crate::link::Key {
            name: stringify!($f),
            kind: $crate::link::Kind::Float {
                lo: $lo,
                lo_open: $crate::key_float!(@open $lo_end),
                hi: $hi,
                hi_open: $crate::key_float!(@open $hi_end),
            },
            meaning: $meaning,
            effect: "",
            allowed: "",
            get: |c| $crate::link::format_f64(c.$f),
            set: |c, v| {
                c.$f = v.float();
                Ok(())
            },
        }
    };
}

/// A [`super::Key`] for a field of a [`super::Named`] enum: `key_choice!(field, Enum, "meaning")`.
#[macro_export]
macro_rules! key_choice {
    ($f:ident, $enum:ty, $meaning:expr) => {
        $crate::link::Key {
            name: stringify!($f),
            kind: $crate::link::Kind::Choice(<$enum as $crate::link::Named>::NAMES),
            meaning: $meaning,
            effect: "",
            allowed: "",
            get: |c| $crate::link::Named::name(c.$f).to_string(),
            set: |c, v| {
                c.$f = <$enum as $crate::link::Named>::from_index(v.index());
                Ok(())
            },
        }
    };
}

/// A [`super::Key`] for an `on` / `off` field: `key_switch!(field, "meaning")`.
#[macro_export]
macro_rules! key_switch {
    ($f:ident, $meaning:expr) => {
        $crate::link::Key {
            name: stringify!($f),
            kind: $crate::link::Kind::Switch,
            meaning: $meaning,
            effect: "",
            allowed: "",
            get: |c| $crate::link::keys::write::on_off(c.$f),
            set: |c, v| {
                c.$f = v.on();
                Ok(())
            },
        }
    };
}

/// A [`super::Key`] for a PRNG seed field: `key_seed!(field, "meaning")`.
#[macro_export]
macro_rules! key_seed {
    ($f:ident, $meaning:expr) => {
        $crate::link::Key {
            name: stringify!($f),
            kind: $crate::link::Kind::Seed,
            meaning: $meaning,
            effect: "",
            allowed: "",
            get: |c| c.$f.to_string(),
            set: |c, v| {
                c.$f = v.seed();
                Ok(())
            },
        }
    };
}

/// A [`super::Key`] for a free-text field (percent-encoded in links): `key_text!(field, max, "meaning")`.
#[macro_export]
macro_rules! key_text {
    ($f:ident, $max:expr, $meaning:expr) => {
        $crate::link::Key {
            name: stringify!($f),
            kind: $crate::link::Kind::Text { max_bytes: $max },
            meaning: $meaning,
            effect: "",
            allowed: "",
            get: |c| $crate::link::encode_value(&c.$f),
            set: |c, v| {
                c.$f = v.str().to_string();
                Ok(())
            },
        }
    };
}

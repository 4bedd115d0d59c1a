//! The names of Dong, Cordonnier and Loukas's architectures (science.md §3) as every lab writes
//! and draws them: the depth lab's variants (`depth::Variant`, §3), the model lab's variants of a
//! trained encoder (`model::forward::Variant`, §6.3) and its repeated layer (`model::keys`'s
//! `variant`), the CLI's JSON and the web charts' legends and colours.
//!
//! Only the names are shared. What a variant's layer does stays each lab's own: the depth lab's
//! SAN+MLP has no skip anywhere, the model lab's removes the attention's skip and keeps the
//! feed-forward block with its own residual (§6.3); the depth lab also has `configured`.

/// One architecture's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Architecture {
    /// In a depth link's `variants` key: `san`, `san-mlp`, `san-skip`, `transformer`, `configured`.
    pub name: &'static str,
    /// In outputs, legends and the model lab's `variant` key: `SAN`, `SAN+MLP`, `SAN+skip`,
    /// `transformer`, `configured`.
    pub label: &'static str,
}

/// Pure attention, no skip connections, no MLP.
pub const SAN: Architecture = Architecture { name: "san", label: "SAN" };
/// Attention and MLP, the attention without its skip.
pub const SAN_MLP: Architecture = Architecture { name: "san-mlp", label: "SAN+MLP" };
/// Attention with its skip connection, no MLP.
pub const SAN_SKIP: Architecture = Architecture { name: "san-skip", label: "SAN+skip" };
/// Attention and MLP, each with its skip connection.
pub const TRANSFORMER: Architecture = Architecture { name: "transformer", label: "transformer" };
/// The depth lab's layer as its keys `skip`, `mlp`, `mlp_residual` say.
pub const CONFIGURED: Architecture = Architecture { name: "configured", label: "configured" };

/// Every architecture in the order of the paper's figure, then `configured`: a chart draws
/// architecture `k` in its `k`-th series colour, whatever order the results arrive in.
pub const ARCHITECTURES: [Architecture; 5] = [SAN, SAN_MLP, SAN_SKIP, TRANSFORMER, CONFIGURED];

/// The place of the architecture labelled `label` in [`ARCHITECTURES`] (its series colour), or
/// None for another label.
pub fn order_of(label: &str) -> Option<usize> {
    ARCHITECTURES.iter().position(|a| a.label == label)
}

/// Serde for a lab's variant enum as its label (`SAN`, ...): written with `$ty::label`, read back
/// with `$find` (a `fn(&str) -> Option<$ty>`), an unknown text refused as "no `$what` variant".
#[macro_export]
macro_rules! serde_as_label {
    ($ty:ty, $find:expr, $what:expr) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.label())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(d)?;
                $find(&text).ok_or_else(|| serde::de::Error::custom(format!("no {} variant {:?}", $what, text)))
            }
        }
    };
}

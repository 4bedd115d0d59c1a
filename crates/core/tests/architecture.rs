//! The architectures' names are one table (core `architecture`) for the depth lab, the model lab
//! and its repeated layer; what each variant's layer does stays each lab's own (science.md §3 and
//! §6.3).

use attn_core::architecture::{order_of, ARCHITECTURES};
use attn_core::depth::{self, DepthConfig};
use attn_core::model::forward::{self as model_forward};
use attn_core::model::keys::VARIANT_NAMES;

#[test]
fn every_lab_names_an_architecture_from_the_one_table() {
    // The depth lab's variants are the table, in its order: name and label.
    let depth: Vec<(&str, &str)> = depth::VARIANTS.iter().map(|v| (v.name(), v.label())).collect();
    let table: Vec<(&str, &str)> = ARCHITECTURES.iter().map(|a| (a.name, a.label)).collect();
    assert_eq!(depth, table);
    assert_eq!(
        depth,
        [
            ("san", "SAN"),
            ("san-mlp", "SAN+MLP"),
            ("san-skip", "SAN+skip"),
            ("transformer", "transformer"),
            ("configured", "configured")
        ]
    );
    // The model lab's four carry the same labels, and its `variant` key reads them.
    for v in model_forward::VARIANTS {
        let d = depth::VARIANTS.iter().find(|d| d.label() == v.label()).expect("a depth variant of the same label");
        assert_eq!(v.architecture(), d.architecture());
        assert_eq!(model_forward::Variant::from_label(v.label()), Some(v));
    }
    assert_eq!(VARIANT_NAMES, ["transformer", "SAN+skip", "SAN+MLP", "SAN"]);
    // A chart's colour slot is the place in the figure.
    assert_eq!(["SAN", "SAN+MLP", "SAN+skip", "transformer", "configured"].map(order_of), [0, 1, 2, 3, 4].map(Some));
    assert_eq!(order_of("san"), None);
}

#[test]
fn each_lab_keeps_its_own_layer_for_a_shared_name() {
    use depth::Variant::*;
    // The depth lab (§3): SAN+MLP has no skip anywhere, the transformer both.
    let c = DepthConfig::default();
    let flags = |v: depth::Variant| {
        let b = v.block(&c);
        (b.skip, b.mlp, b.mlp_residual)
    };
    assert_eq!(
        [San, SanMlp, SanSkip, Transformer].map(flags),
        [(false, false, false), (false, true, false), (true, false, false), (true, true, true)]
    );
    // The model lab (§6.3): SAN+MLP removes only the attention's skip; the feed-forward block
    // keeps its own residual.
    use model_forward::Variant as M;
    assert_eq!(
        [M::San, M::SanMlp, M::SanSkip, M::Transformer].map(|v| (v.skip(), v.ffn())),
        [(false, false), (false, true), (true, false), (true, true)]
    );
}

#[test]
fn each_legend_starts_with_the_label_and_says_what_its_own_layer_keeps() {
    for v in depth::VARIANTS {
        assert!(v.legend().starts_with(&format!("{}: ", v.label())), "{:?}", v.legend());
    }
    for v in model_forward::VARIANTS {
        assert!(v.legend().starts_with(&format!("{}: ", v.label())), "{:?}", v.legend());
    }
    // The shared name, each lab's own layer: the depth lab's SAN+MLP has no skip anywhere, the
    // model lab's keeps the MLP's.
    assert_eq!(depth::Variant::SanMlp.legend(), "SAN+MLP: attention and MLP, no skips");
    assert_eq!(model_forward::Variant::SanMlp.legend(), "SAN+MLP: no attention skip, MLP with its skip");
    // The repeated layer's control: key `variant`'s names, the unmodified layer first.
    let choices = attn_core::model::keys::variant_choices();
    assert_eq!(choices.map(|(name, _)| name), VARIANT_NAMES);
    assert_eq!(choices[0], ("transformer", "unmodified layer"));
    for (name, text) in choices {
        let v = model_forward::Variant::from_label(name).expect("a variant of the key's names");
        assert_eq!(text, v.choice());
    }
}

#[test]
fn both_labs_variants_are_their_labels_in_json() {
    // The depth lab's read back from label or name, the model lab's from its label; NaN from null.
    for v in depth::VARIANTS {
        assert_eq!(serde_json::to_value(v).unwrap(), v.label());
        assert_eq!(serde_json::from_value::<depth::Variant>(v.label().into()).unwrap(), v);
        assert_eq!(serde_json::from_value::<depth::Variant>(v.name().into()).unwrap(), v);
    }
    let curve = serde_json::json!({ "variant": "SAN+MLP", "residual": [1.0, null] });
    let c: attn_core::model::Curve = serde_json::from_value(curve.clone()).unwrap();
    assert_eq!(c.variant, model_forward::Variant::SanMlp);
    assert!(c.residual[0] == 1.0 && c.residual[1].is_nan());
    assert_eq!(serde_json::to_value(&c).unwrap(), curve);
    let e = serde_json::from_value::<model_forward::Variant>("san-mlp".into()).unwrap_err();
    assert_eq!(e.to_string(), "no model variant \"san-mlp\"");
}

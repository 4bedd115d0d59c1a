//! The depth lab's configuration string: presets, canonical round trip, malformed input, and the
//! `lab` dispatcher.

use attn_core::depth::{
    parse, Activation, DepthConfig, DepthPreset, InputSource, LayerNorm, Precision, ResidualDef, Select,
    SimilarityNorm, Variant, WeightsSource, DEPTH_PRESETS,
};
use attn_core::lab::{parse_lab, requested_lab, LabConfig};
use attn_core::link::LabPreset;

#[test]
fn every_preset_round_trips_and_is_canonical() {
    for p in DEPTH_PRESETS {
        let c = p.config();
        c.validate().unwrap_or_else(|e| panic!("{}: {}", p.name(), e));
        let s = c.to_canonical_string();
        assert_eq!(s, format!("version=7&lab=depth&preset={}", p.name()));
        assert_eq!(parse(&s).unwrap(), c);
        assert_eq!(parse_lab(&s).unwrap(), LabConfig::Depth(c.clone()));
        assert_eq!(DepthPreset::from_name(p.name()), Some(p));
        assert!(!p.description().is_empty());
        assert!(c.differences_from_preset().is_empty());
    }
    assert_eq!(parse("").unwrap(), DepthConfig::default());
    // A link without `version` is an old link: the default it was made with, `bert-init`.
    assert_eq!(parse("lab=depth").unwrap().preset, DepthPreset::BertInit);
    assert_eq!(parse("version=7&lab=depth").unwrap().preset, DepthPreset::CollapseSmall);
}

/// `bert-init` is BERT-base at initialisation (science.md §3).
#[test]
fn bert_init_is_bert_base_at_initialisation() {
    let c = DepthPreset::BertInit.config();
    assert_eq!((c.layers, c.heads, c.d_model, c.d_head, c.tokens, c.mlp_width), (12, 12, 768, 64, 128, 3072));
    assert_eq!((c.weight_scale, c.qk_scale, c.bias_scale), (0.02, 0.02, 0.0));
    assert_eq!(
        (c.layernorm, c.activation, c.skip, c.mlp, c.mlp_residual),
        (LayerNorm::Post, Activation::Gelu, true, true, true)
    );
    assert_eq!((c.weights, c.input, c.shared), (WeightsSource::Random, InputSource::BertEmbeddings, false));
    assert_eq!(c.variants, vec![Variant::San, Variant::SanMlp, Variant::SanSkip, Variant::Transformer]);
    assert_eq!((c.residual_def, c.precision), (ResidualDef::Mean, Precision::F32));
    assert_eq!(c.n(), 128);
    let t = DepthPreset::ContextText.config();
    assert_eq!(t.input, InputSource::Text);
    assert!(t.n() > 40 && t.n() <= 512, "{}", t.n());
    let p = DepthPreset::ParticleEuler.config();
    assert_eq!(
        (p.weights, p.input, p.heads, p.d_model, p.tokens),
        (WeightsSource::Particle, InputSource::Particle, 1, 2, 20)
    );
}

#[test]
fn keys_override_the_preset_in_any_order() {
    let c = parse("layers=3&lab=depth&preset=collapse-small&heads=2&qk_scale=0.5&variants=san-skip,san").unwrap();
    assert_eq!((c.layers, c.heads, c.qk_scale, c.d_model), (3, 2, 0.5, 64));
    assert_eq!(c.variants, vec![Variant::SanSkip, Variant::San]);
    assert_eq!(
        c.to_canonical_string(),
        "version=7&lab=depth&preset=collapse-small&layers=3&heads=2&qk_scale=0.5&variants=san-skip,san"
    );
    let d = parse("#lab=depth&layernorm=pre&activation=relu&similarity_norm=max-abs&select=threshold&threshold=-0.5&residual_def=argmin&precision=f64&seed=7&skip=off&mlp_residual=off&shared=on&bias_scale=0.01&tokens=64&sentences=32,32&separators=off").unwrap();
    assert_eq!(
        (d.layernorm, d.activation, d.similarity_norm, d.select),
        (LayerNorm::Pre, Activation::Relu, SimilarityNorm::MaxAbs, Select::Threshold)
    );
    assert_eq!((d.threshold, d.residual_def, d.precision, d.seed), (-0.5, ResidualDef::Argmin, Precision::F64, 7));
    assert_eq!((d.skip, d.mlp_residual, d.shared, d.bias_scale, d.separators), (false, false, true, 0.01, false));
    assert_eq!(d.sentences, vec![32, 32]);
    let s = d.to_canonical_string();
    assert_eq!(parse(&s).unwrap(), d);
    assert!(s.starts_with("version=7&lab=depth&preset=bert-init&tokens=64&skip=off"), "{}", s);
    assert_eq!(d.differences_from_preset()[0], ("tokens", "128".to_string(), "64".to_string()));
    // Variant labels are accepted too; the canonical form uses the names.
    assert_eq!(
        parse("variants=SAN,transformer").unwrap().to_canonical_string(),
        "version=7&lab=depth&preset=bert-init&input=gaussian&variants=san,transformer"
    );
}

/// Text and the nested particle configuration survive the canonical string.
#[test]
fn text_and_particle_round_trip_percent_encoded() {
    let text = "Hello, world & friends = 100% #1? Ünïcode — naïve café.\nNew line; a+b";
    let c = DepthConfig { text: text.to_string(), input: InputSource::Text, ..DepthPreset::ContextText.config() };
    c.validate().unwrap();
    let s = c.to_canonical_string();
    assert!(s.starts_with("version=7&lab=depth&preset=context-text&text=Hello%2C%20world%20%26"), "{}", s);
    assert_eq!(parse(&s).unwrap(), c);
    assert_eq!(parse_lab(&s).unwrap(), LabConfig::Depth(c));
    let p = parse("preset=particle-euler&particle=preset%3Dpolytope%26n%3D7%26seed%3D3&tokens=7").unwrap();
    assert_eq!(p.particle, "version=1&preset=polytope&n=7&seed=3");
    assert_eq!(p.to_canonical_string(), "version=7&lab=depth&preset=particle-euler&tokens=7&particle=version%3D1%26preset%3Dpolytope%26n%3D7%26seed%3D3");
    assert_eq!(parse(&p.to_canonical_string()).unwrap(), p);
    // The particle configuration is kept in its canonical form.
    assert_eq!(parse("particle=n%3D20%26preset%3Dpolytope").unwrap().particle, "version=1&preset=polytope");
}

/// Each malformed string and the key its error must name.
const MALFORMED: &[(&str, &str)] = &[
    ("lab=depth&bogus=1", "bogus"),
    ("lab=depth&beta=2", "beta"),
    ("lab=depth&eta_z=2", "eta_z"),
    ("lab=depth&preset=polytope", "preset"),
    ("lab=depth&preset=nope", "preset"),
    ("lab=depth&layers=0", "layers"),
    ("lab=depth&layers=49", "layers"),
    ("lab=depth&layers=2.5", "layers"),
    ("lab=depth&heads=0", "heads"),
    ("lab=depth&heads=17", "heads"),
    ("lab=depth&d_model=0", "d_model"),
    ("lab=depth&d_model=1025", "d_model"),
    ("lab=depth&d_head=257", "d_head"),
    ("lab=depth&tokens=1", "tokens"),
    ("lab=depth&tokens=513", "tokens"),
    ("lab=depth&skip=yes", "skip"),
    ("lab=depth&mlp=1", "mlp"),
    ("lab=depth&mlp_width=0", "mlp_width"),
    ("lab=depth&mlp_width=4097", "mlp_width"),
    ("lab=depth&activation=sigmoid", "activation"),
    ("lab=depth&mlp_residual=", "mlp_residual"),
    ("lab=depth&layernorm=both", "layernorm"),
    ("lab=depth&weight_scale=0", "weight_scale"),
    ("lab=depth&weight_scale=11", "weight_scale"),
    ("lab=depth&qk_scale=-1", "qk_scale"),
    ("lab=depth&qk_scale=inf", "qk_scale"),
    ("lab=depth&bias_scale=-0.1", "bias_scale"),
    ("lab=depth&shared=true", "shared"),
    ("lab=depth&weights=trained", "weights"),
    ("lab=depth&particle=n%3D0", "particle"),
    ("lab=depth&particle=%zz", "particle"),
    ("lab=depth&weights=particle", "heads"),
    ("lab=depth&weights=particle&heads=1", "d_model"),
    ("lab=depth&weights=particle&heads=1&d_model=2", "d_head"),
    ("lab=depth&input=particle", "tokens"),
    ("lab=depth&input=particle&tokens=20", "d_model"),
    ("lab=depth&input=image", "input"),
    ("lab=depth&input=text", "text"),
    ("lab=depth&input=text&text=%20%20", "text"),
    ("lab=depth&input=text&text=one&separators=off", "text"),
    ("lab=depth&input=text&text=a%20b%20c&sentences=2", "sentences"),
    ("lab=depth&sentences=64,63", "sentences"),
    ("lab=depth&sentences=64,0,64", "sentences"),
    ("lab=depth&sentences=a", "sentences"),
    ("lab=depth&separators=maybe", "separators"),
    ("lab=depth&similarity_norm=l2", "similarity_norm"),
    ("lab=depth&select=top", "select"),
    ("lab=depth&quantile=1", "quantile"),
    ("lab=depth&quantile=0", "quantile"),
    ("lab=depth&threshold=NaN", "threshold"),
    ("lab=depth&residual_def=median", "residual_def"),
    ("lab=depth&precision=f16", "precision"),
    ("lab=depth&seed=-1", "seed"),
    ("lab=depth&variants=", "variants"),
    ("lab=depth&variants=san,san", "variants"),
    ("lab=depth&variants=san,bert", "variants"),
    ("lab=depth&d_model=1024&mlp_width=4096&heads=16&d_head=256", "d_model"),
    ("lab=depth&tokens=512&heads=16&layers=12&d_model=64&d_head=4&mlp_width=64", "tokens"),
    ("lab=depth&layers=48&tokens=512&d_model=1024&mlp_width=4096&heads=2", "layers"),
    ("lab=depth&layers=1&layers=2", "layers"),
    ("lab=depth&version=8", "version"),
    ("lab=depth&nokey", "nokey"),
    ("lab=depth&=3", "(empty key)"),
    ("lab=depth&layers=%zz", "layers"),
    ("preset=bert-init", "preset"),
    ("layers=3", "layers"),
];

#[test]
fn malformed_strings_name_the_key() {
    crate::common::malformed::each_names_its_key(MALFORMED, parse_lab);
    // A depth preset without lab=depth says what to add.
    let e = parse_lab("preset=bert-init").unwrap_err();
    assert!(e.message.contains("lab=depth"), "{}", e);
    // A particle configuration too long for the canonical string is refused by its key.
    let row = vec!["0.123456789"; 64].join(",");
    let points = vec![row; 1024].join(";");
    let big = format!("lab=depth&particle=preset%3Dpolytope%26n%3D1024%26d%3D64%26init%3Dpoints%26points%3D{}", points);
    let e = parse(&big).unwrap_err();
    assert_eq!(e.key, "particle");
    assert!(e.message.contains("bytes long"), "{}", e);
    // A too-long text is refused by its key; a text too long in tokens as well.
    let long = format!("lab=depth&input=text&text={}", "a".repeat(20_001));
    assert_eq!(parse(&long).unwrap_err().key, "text");
    let many = format!("lab=depth&input=text&text={}", "a%20".repeat(600));
    let e = parse(&many).unwrap_err();
    assert_eq!(e.key, "text");
    assert!(e.message.contains("601") || e.message.contains("602"), "{}", e);
}

/// `lab=depth` gives the depth parser; the other labs are unchanged.
#[test]
fn parse_lab_dispatches_by_the_lab_key() {
    let d = parse_lab("?lab=depth&preset=collapse-small&seed=3").unwrap();
    assert_eq!(d.lab(), "depth");
    assert_eq!(d.to_canonical_string(), "version=7&lab=depth&preset=collapse-small&seed=3");
    assert_eq!(d, LabConfig::Depth(parse("lab=depth&preset=collapse-small&seed=3").unwrap()));
    assert_eq!(d.differences_from_preset(), vec![("seed", "1".to_string(), "3".to_string())]);
    assert_eq!(d.pairs()[0], ("lab", "depth".to_string()));
    assert_eq!(parse_lab("preset=polytope&n=3").unwrap().lab(), "particles");
    assert_eq!(parse_lab("lab=training").unwrap().lab(), "training");
    assert_eq!(parse_lab("lab=depths").unwrap_err().key, "lab");
    // The depth parser refuses another lab's name.
    assert_eq!(parse("lab=training").unwrap_err().key, "lab");
    assert_eq!(requested_lab("lab=depth&layers=0"), "depth");
    assert_eq!(requested_lab("#lab=depth&preset=bert-init"), "depth");
}

#[test]
fn random_strings_and_mutations_never_panic() {
    let seeds: Vec<String> = DEPTH_PRESETS
        .iter()
        .map(|p| p.config().to_canonical_string() + "&layers=2&heads=2&d_model=8&d_head=4&tokens=6&mlp_width=8&sentences=3,3")
        .chain(std::iter::once("lab=depth&preset=context-text&text=the%20cat.%20a%20dog!&sentences=2,2,1&layers=1".to_string()))
        .chain(std::iter::once("lab=depth&preset=particle-euler&particle=preset%3Dpolytope%26n%3D5&tokens=5&layers=2".to_string()))
        .chain(std::iter::once("lab=depth&preset=collapse-small&layers=2&embed=1&panels=residual,paths&controls=&theme=dark&residual_axis=linear".to_string()))
        .collect();
    crate::common::fuzz::random_strings_and_mutations(
        21,
        &seeds,
        "lab=depth&",
        parse_lab,
        LabConfig::to_canonical_string,
    );
    // As links: the view keys survive the round trip too.
    crate::common::fuzz::random_strings_and_mutations(
        22,
        &seeds,
        "lab=depth&",
        attn_core::lab::parse_link,
        attn_core::lab::Link::to_canonical_string,
    );
}

/// Row 15 of "Defects found by a demanding user": when a text sets `n` (`input=text`, or
/// `input=bert-embeddings` with a text) a `tokens` written in the link was ignored silently.
/// Since version 4 it is refused, naming `tokens` and the text's count, unless it equals that
/// count; a value from the preset is not checked, and the canonical form leaves `tokens` out.
/// Older links keep their meaning: the step to version 4 drops their ignored `tokens`.
#[test]
fn when_a_text_sets_n_a_written_tokens_must_be_its_count() {
    // The context-text preset's text has 73 tokens with its markers (its preset `tokens` is 128).
    let e = parse("version=4&lab=depth&preset=context-text&tokens=5").unwrap_err();
    assert_eq!(e.key, "tokens");
    assert!(
        e.message.contains("\"5\"") && e.message.contains("n = 73 tokens") && e.message.contains("tokens=73"),
        "{}",
        e
    );
    let e =
        parse("version=4&lab=depth&preset=collapse-small&input=text&text=One%20two.%20Three&tokens=32").unwrap_err();
    assert_eq!(e.key, "tokens", "{}", e);
    let e = parse("version=4&lab=depth&preset=bert-init&text=One%20two.%20Three&tokens=12&layers=2").unwrap_err();
    assert_eq!(e.key, "tokens", "bert-embeddings with a text: {}", e);
    // The count itself is accepted, and not part of the configuration.
    let plain = parse("version=4&lab=depth&preset=context-text").unwrap();
    assert_eq!(plain.n(), 73);
    let same = parse("version=4&lab=depth&preset=context-text&tokens=73").unwrap();
    assert_eq!(same, plain);
    assert_eq!(same.to_canonical_string(), "version=7&lab=depth&preset=context-text");
    // A preset's `tokens` is not checked (collapse-small's 32 against a 7-token text).
    let text = parse("version=4&lab=depth&preset=collapse-small&input=text&text=One%20two.%20Three").unwrap();
    assert_eq!((text.n(), text.tokens), (7, 32));
    assert!(!text.to_canonical_string().contains("tokens="), "{}", text);
    // Older links (versions 3, 2, 1 and 0: no version) ran with the text's count: they still do.
    for old in [
        "version=3&lab=depth&preset=context-text&tokens=5",
        "version=2&lab=depth&preset=context-text&tokens=5",
        "lab=depth&preset=context-text&tokens=5",
        "version=1&lab=depth&tokens=300&preset=context-text",
    ] {
        assert_eq!(parse(old).unwrap(), plain, "{}", old);
        assert_eq!(parse(old).unwrap().to_canonical_string(), "version=7&lab=depth&preset=context-text", "{}", old);
    }
    let old = parse("version=3&lab=depth&preset=collapse-small&input=text&text=One%20two.%20Three&tokens=9").unwrap();
    assert_eq!(old, text);
    let old = parse("version=3&lab=depth&preset=bert-init&text=One%20two.%20Three&tokens=12&layers=2").unwrap();
    assert_eq!(old, parse("version=4&lab=depth&preset=bert-init&text=One%20two.%20Three&layers=2").unwrap());
    // Without a text setting `n`, `tokens` is the sequence length, in every version.
    for v in ["version=3&", "version=4&", ""] {
        let g = parse(&format!("{}lab=depth&preset=context-text&input=gaussian&tokens=9", v)).unwrap();
        assert_eq!((g.tokens, g.n()), (9, 9), "{}", v);
        assert_eq!(g.to_canonical_string(), "version=7&lab=depth&preset=context-text&tokens=9&input=gaussian");
    }
    let b = parse("version=3&lab=depth&preset=bert-init&tokens=16&layers=2").unwrap();
    assert_eq!((b.input, b.tokens), (InputSource::BertEmbeddings, 16), "bert-embeddings without a text");
    // A configuration built in code writes no `tokens` when a text sets `n` either.
    let built = DepthConfig { tokens: 40, ..DepthPreset::ContextText.config() };
    assert_eq!(built.to_canonical_string(), "version=7&lab=depth&preset=context-text");
    assert!(built.differences_from_preset().is_empty());
}

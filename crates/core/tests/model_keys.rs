//! The model lab's link (crates/core/src/model/keys.rs): parsing, the canonical form, the `model`
//! key's weights check, and hostile values refused naming the key.

use attn_core::lab::{key_infos, parse_lab_link, parse_link, LabConfig};
use attn_core::link::LAB_NAMES as LABS;
use attn_core::model::keys::{model_id, parse, parse_with_view, Bilinear, HeadSpace, ModelLink, TileScale};
use attn_core::model::Variant;

const SHA: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";

#[test]
fn a_link_round_trips_through_its_canonical_form() {
    let l = parse("#lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=The%20fox.%20A%20dog%26cat").unwrap();
    assert_eq!(
        l,
        ModelLink {
            model: "all-MiniLM-L6-v2@53aa51172d142c89".into(),
            text: "The fox. A dog&cat".into(),
            cos_tol: 0.01,
            bilinear: Bilinear::Sym,
            head_space: HeadSpace::X,
            repeat_layer: 0,
            iterations: 100,
            variant: Variant::Transformer,
            layer: 1,
            head: 0,
            grid_scale: TileScale::Head,
            hidden_layer: 0,
            step: None,
        }
    );
    let canon = l.to_canonical_string();
    assert_eq!(canon, "version=7&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=The%20fox.%20A%20dog%26cat");
    assert_eq!(parse(&canon), Ok(l.clone()));
    let viewed = ModelLink { layer: 3, head: 11, ..l };
    let c = viewed.to_canonical_string();
    assert!(c.ends_with("&layer=3&head=11"), "{}", c);
    assert_eq!(parse(&c), Ok(viewed.clone()));
    // cos_tol is written only when it is not its default, before the view keys.
    let tol = ModelLink { cos_tol: 0.02, ..viewed };
    let c = tol.to_canonical_string();
    assert!(c.ends_with("&text=The%20fox.%20A%20dog%26cat&cos_tol=0.02&layer=3&head=11"), "{}", c);
    assert_eq!(parse(&c), Ok(tol.clone()));
    // bilinear likewise, after cos_tol; sym is its default.
    let raw = ModelLink { bilinear: Bilinear::Raw, ..tol.clone() };
    let c = raw.to_canonical_string();
    assert!(c.ends_with("&cos_tol=0.02&bilinear=raw&layer=3&head=11"), "{}", c);
    assert_eq!(parse(&c), Ok(raw));
    let sym = parse("lab=model&text=hi&bilinear=sym").unwrap();
    assert_eq!(sym.bilinear, Bilinear::Sym);
    assert!(!sym.to_canonical_string().contains("bilinear"), "{}", sym.to_canonical_string());
    // head_space likewise, after bilinear; x is its default.
    let sphere = ModelLink { head_space: HeadSpace::Sphere, bilinear: Bilinear::Raw, ..tol.clone() };
    let c = sphere.to_canonical_string();
    assert!(c.ends_with("&cos_tol=0.02&bilinear=raw&head_space=sphere&layer=3&head=11"), "{}", c);
    assert_eq!(parse(&c), Ok(sphere));
    assert_eq!(parse("lab=model&text=hi&head_space=z").unwrap().head_space, HeadSpace::Z);
    let x = parse("lab=model&text=hi&head_space=x").unwrap();
    assert!(!x.to_canonical_string().contains("head_space"), "{}", x.to_canonical_string());
    // hidden_layer (view key) last, left out at its default 0.
    let hidden = ModelLink { hidden_layer: 4, ..tol.clone() };
    let c = hidden.to_canonical_string();
    assert!(c.ends_with("&cos_tol=0.02&layer=3&head=11&hidden_layer=4"), "{}", c);
    assert_eq!(parse(&c), Ok(hidden));
    let zero = parse("lab=model&text=hi&hidden_layer=0").unwrap();
    assert_eq!(zero.hidden_layer, 0);
    assert!(!zero.to_canonical_string().contains("hidden_layer"), "{}", zero.to_canonical_string());
    assert_eq!(model_id("all-MiniLM-L6-v2", SHA), "all-MiniLM-L6-v2@53aa51172d142c89");
    let example = ModelLink::example();
    assert_eq!(example.model, model_id("all-MiniLM-L6-v2", SHA));
    assert_eq!(parse(&example.to_canonical_string()), Ok(example));
}

#[test]
fn bad_values_are_refused_naming_the_key() {
    let base = "lab=model&model=m@0123456789abcdef&text=hi";
    let cases = [
        ("lab=model&model=m@0123456789abcdef", "text"),
        ("lab=depth&model=m@0123456789abcdef&text=hi", "lab"),
        ("lab=model&model=m@0123456789ABCDEF&text=hi", "model"),
        ("lab=model&model=m@0123&text=hi", "model"),
        ("lab=model&model=@0123456789abcdef&text=hi", "model"),
        ("lab=model&model=a%20b@0123456789abcdef&text=hi", "model"),
        ("lab=model&model=m@0123456789abcdef&text=%20%20", "text"),
        ("lab=model&model=m@0123456789abcdef&text=%FF%FE", "text"),
        ("lab=model&model=m@0123456789abcdef&text=%ZZ", "text"),
        ("lab=model&model=m@0123456789abcdef&text=hi&layer=0", "layer"),
        ("lab=model&model=m@0123456789abcdef&text=hi&head=-1", "head"),
        ("lab=model&model=m@0123456789abcdef&text=hi&seed=3", "seed"),
        ("lab=model&model=m@0123456789abcdef&text=hi&cos_tol=0", "cos_tol"),
        ("lab=model&model=m@0123456789abcdef&text=hi&cos_tol=2.5", "cos_tol"),
        ("lab=model&model=m@0123456789abcdef&text=hi&cos_tol=nan", "cos_tol"),
        ("lab=model&model=m@0123456789abcdef&text=hi&bilinear=full", "bilinear"),
        ("lab=model&model=m@0123456789abcdef&text=hi&bilinear=", "bilinear"),
        ("lab=model&model=m@0123456789abcdef&text=hi&head_space=y", "head_space"),
        ("lab=model&model=m@0123456789abcdef&text=hi&head_space=X", "head_space"),
        ("lab=model&model=m@0123456789abcdef&text=hi&hidden_layer=-1", "hidden_layer"),
        ("lab=model&model=m@0123456789abcdef&text=hi&hidden_layer=1.5", "hidden_layer"),
        ("lab=model&model=m@0123456789abcdef&text=hi&hidden_layer=257", "hidden_layer"),
    ];
    for (link, key) in cases {
        let e = parse(link).expect_err(link);
        assert_eq!(e.key, key, "{}: {}", link, e);
    }
    assert!(parse(base).is_ok());
    // Without `lab`, a link is read as the model lab's (as each lab's own parser does).
    assert_eq!(parse("model=m@0123456789abcdef&text=hi"), parse(base));
    let other = parse("lab=depth&model=m@0123456789abcdef&text=hi").unwrap_err();
    assert!(other.message.contains("depth lab"), "{}", other);
    let long = format!("{}&text={}", "lab=model&model=m@0123456789abcdef", "a".repeat(20_001));
    assert_eq!(parse(&long).unwrap_err().key, "text");
    let huge = format!("{}&text={}", "lab=model&model=m@0123456789abcdef", "a".repeat(2_000_000));
    assert!(parse(&huge).is_err());
}

/// A key the model lab does not have is refused naming it, also in a link without `model` and
/// `text` (the page opened the default for these, dropping the key); `model` has the key
/// table's default, the served model's weights.
#[test]
fn unknown_keys_are_refused_and_model_has_its_default() {
    for (link, key) in [
        ("lab=model&bogus=1", "bogus"),
        ("lab=model&preset=polytope", "preset"),
        ("lab=model&n=20", "n"),
        ("lab=model&residual_axis=linear", "residual_axis"),
        ("version=4&lab=model&layer=2&bogus=1", "bogus"),
    ] {
        let e = parse_link(link).expect_err(link);
        assert_eq!(e.key, key, "{}: {}", link, e);
        assert!(e.message.starts_with("unknown key for lab=model"), "{}: {}", link, e);
    }
    let l = parse("lab=model&text=hello").unwrap();
    assert_eq!(l.model, ModelLink::example().model);
    assert_eq!(l.model, "all-MiniLM-L6-v2@53aa51172d142c89");
    assert_eq!(l.to_canonical_string(), "version=7&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=hello");
    let default = key_infos("model").unwrap().into_iter().find(|k| k.name == "model").unwrap();
    assert_eq!(default.default, l.model);
    // `text` has no default a link could mean: the page's first text is not the table's example.
    assert_eq!(parse("lab=model").unwrap_err().key, "text");
}

/// A malformed `model` value says what is malformed and the form, naming `model`.
#[test]
fn a_malformed_model_value_says_what_is_malformed() {
    for (value, said) in [
        ("@53aa51172d142c89", "the name before '@' is empty"),
        ("all-MiniLM-L6-v2@53AA51172D142C89", r#""53AA51172D142C89" after '@' has upper-case hex digits"#),
        ("all-MiniLM-L6-v2@53aa5117", r#""53aa5117" after '@' is not 16 hex digits"#),
        ("all-MiniLM-L6-v2@53aa51172d142c8g", r#""53aa51172d142c8g" after '@' is not 16 hex digits"#),
        ("all-MiniLM-L6-v2", "it has no '@' between the name and the hash"),
        ("a%20b@0123456789abcdef", r#"the name holds " ", which a name cannot"#),
        ("a@b@0123456789abcdef", r#"the name holds "@""#),
    ] {
        let link = format!("lab=model&model={}&text=hi", value);
        let e = parse(&link).expect_err(&link);
        assert_eq!(e.key, "model", "{}", link);
        assert!(e.message.contains(" is malformed: "), "{}: {}", link, e);
        assert!(e.message.contains(said), "{}: {}", link, e);
        assert!(e.message.ends_with("first 16 hex digits, lower case, of model.safetensors' sha256"), "{}", e);
    }
    let long = format!("lab=model&model={}@0123456789abcdef&text=hi", "m".repeat(65));
    assert!(parse(&long).unwrap_err().message.contains("the name is 65 bytes long; at most 64"));
}

#[test]
fn a_link_made_with_other_weights_is_refused_naming_model_and_both_hashes() {
    let l = parse("lab=model&model=all-MiniLM-L6-v2@0123456789abcdef&text=hi").unwrap();
    assert!(l.check_model("all-MiniLM-L6-v2@0123456789abcdef").is_ok());
    let e = l.check_model(&model_id("all-MiniLM-L6-v2", SHA)).unwrap_err();
    assert_eq!(e.key, "model");
    assert!(e.message.contains("0123456789abcdef") && e.message.contains("53aa51172d142c89"), "{}", e);
}

#[test]
fn random_strings_and_mutations_never_panic() {
    let seeds = vec![
        ModelLink::example().to_canonical_string(),
        "lab=model&model=m.x_1-2@0123456789abcdef&text=%E6%9D%B1%E4%BA%AC%2C%20caf%C3%A9&layer=6&head=11".to_string(),
    ];
    crate::common::fuzz::random_strings_and_mutations(14, &seeds, "lab=model&", parse, ModelLink::to_canonical_string);
}

#[test]
fn the_scale_view_key_reads_head_or_shared_and_is_written_only_when_shared() {
    let base = "lab=model&model=m@0123456789abcdef&text=hi";
    assert_eq!(parse(base).unwrap().grid_scale, TileScale::Head);
    assert_eq!(parse(&format!("{}&grid_scale=head", base)).unwrap(), parse(base).unwrap());
    let shared = parse(&format!("{}&grid_scale=shared&head=2", base)).unwrap();
    assert_eq!(shared.grid_scale, TileScale::Shared);
    assert_eq!(
        shared.to_canonical_string(),
        "version=7&lab=model&model=m@0123456789abcdef&text=hi&head=2&grid_scale=shared"
    );
    assert_eq!(parse(&shared.to_canonical_string()), Ok(shared));
    let e = parse(&format!("{}&grid_scale=max", base)).unwrap_err();
    assert_eq!(e.key, "grid_scale");
    assert!(e.message.contains("head, shared") || e.message.contains("`head`, `shared`"), "{}", e);
}

#[test]
fn the_registry_reads_model_links_with_the_page_view_keys() {
    assert!(LABS.contains(&"model"));
    let text = "lab=model&model=m@0123456789abcdef&text=hi&theme=dark&embed=1&layer=2&panels=grid,tokens&controls=";
    let link = parse_link(text).unwrap();
    let LabConfig::Model(m) = &link.config else { panic!("not a model link: {:?}", link) };
    assert_eq!((m.layer, m.head, m.text.as_str()), (2, 0, "hi"));
    assert_eq!(link.config.lab(), "model");
    assert!(link.view.embed);
    assert_eq!(link.view.panels, vec!["tokens", "grid"]);
    assert!(link.view.controls.is_empty());
    // Model keys, the lab's view keys, then the page's view keys, in canonical order.
    assert_eq!(
        link.to_canonical_string(),
        "version=7&lab=model&model=m@0123456789abcdef&text=hi&layer=2&embed=1&panels=tokens,grid&controls=&theme=dark"
    );
    assert_eq!(parse_link(&link.to_canonical_string()), Ok(link.clone()));
    assert_eq!(parse_lab_link("model", text), Ok(link.clone()));
    // The model lab's parser takes the page's link and drops its view (as `attn encode` does).
    assert_eq!(parse(text), Ok(m.clone()));
    assert_eq!(parse_with_view(text).unwrap().1, link.view);
    // Another lab's page refuses it naming `lab`, and a model page refuses another lab's link.
    assert_eq!(parse_lab_link("depth", text).unwrap_err().key, "lab");
    let e = parse_lab_link("model", "lab=depth&preset=bert-init").unwrap_err();
    assert_eq!(e.key, "lab");
    assert!(e.message.contains("depth lab"), "{}", e);
    // Bad page view keys are refused naming the key.
    for (bad, key) in
        [("panels=heatmap", "panels"), ("controls=play", "controls"), ("step=3", "step"), ("embed=2", "embed")]
    {
        assert_eq!(
            parse_link(&format!("lab=model&model=m@0123456789abcdef&text=hi&{}", bad)).unwrap_err().key,
            key,
            "{}",
            bad
        );
    }
    assert!(link.config.differences_from_preset().is_empty());
    assert_eq!(link.config.pairs(), m.pairs());
    assert!(!link.config.caption().is_empty());
}

#[test]
fn the_key_infos_of_the_model_lab_list_its_keys_with_the_example_defaults() {
    let infos = key_infos("model").unwrap();
    let names: Vec<&str> = infos.iter().map(|k| k.name).collect();
    assert_eq!(
        names,
        [
            "lab",
            "model",
            "text",
            "cos_tol",
            "bilinear",
            "head_space",
            "repeat_layer",
            "iterations",
            "variant",
            "layer",
            "head",
            "grid_scale",
            "hidden_layer",
            "step"
        ]
    );
    let json = serde_json::to_value(&infos).unwrap();
    assert_eq!(json[1]["default"], ModelLink::example().model);
    assert_eq!(json[3]["default"], "0.01");
    assert_eq!(json[4]["choices"], serde_json::json!(["sym", "raw"]));
    assert_eq!(json[4]["default"], "sym");
    assert_eq!(json[5]["choices"], serde_json::json!(["x", "z", "sphere"]));
    assert_eq!(json[5]["default"], "x");
    assert_eq!(json[6]["default"], "0");
    assert_eq!(json[7]["default"], "100");
    assert_eq!(json[8]["choices"], serde_json::json!(["transformer", "SAN+skip", "SAN+MLP", "SAN"]));
    assert_eq!(json[8]["default"], "transformer");
    assert_eq!(json[11]["choices"], serde_json::json!(["head", "shared"]));
    assert_eq!(json[11]["default"], "head");
    assert_eq!(json[12]["default"], "0");
    assert_eq!(json[13]["default"], "", "absent: the last repetition");
}

/// The view keys that point into the model are checked against its shape, naming the key: the
/// page and `attn encode --config` refuse the same links with the same words.
#[test]
fn view_keys_past_the_model_are_refused_naming_the_key() {
    let link = |tail: &str| parse(&format!("lab=model&text=hi{}", tail)).unwrap();
    assert_eq!(link("&layer=6&head=11&hidden_layer=6").check_shape(6, 12), Ok(()));
    let e = link("&hidden_layer=7").check_shape(6, 12).unwrap_err();
    assert_eq!(e.key, "hidden_layer");
    assert_eq!(
        e.to_string(),
        "`hidden_layer`: the model has hidden states 0..=6 (0: the embeddings, 6: the last layer's output)"
    );
    let e = link("&layer=7").check_shape(6, 12).unwrap_err();
    assert_eq!(e.to_string(), "`layer`: the model has layers 1..=6 and heads 0..=11");
    assert_eq!(link("&head=12").check_shape(6, 12).unwrap_err().key, "head");
}

/// The layer repeated (`repeat_layer`, `iterations`, `variant`): written after `bilinear` and
/// before the view keys, each only when it differs from 0, 100 and `transformer`; read back the
/// same; bad values refused naming the key; `repeat_layer` past the model refused by its shape.
#[test]
fn the_repeated_layers_keys_round_trip_and_refuse_naming_the_key() {
    let l = parse("lab=model&text=hi&repeat_layer=3&iterations=50&variant=SAN%2Bskip&layer=2").unwrap();
    assert_eq!((l.repeat_layer, l.iterations, l.variant), (3, 50, Variant::SanSkip));
    let c = l.to_canonical_string();
    assert!(c.ends_with("&text=hi&repeat_layer=3&iterations=50&variant=SAN+skip&layer=2"), "{}", c);
    assert_eq!(parse(&c), Ok(l.clone()));
    for (name, v) in [("transformer", Variant::Transformer), ("SAN+MLP", Variant::SanMlp), ("SAN", Variant::San)] {
        let m = parse(&format!("lab=model&text=hi&repeat_layer=1&variant={}", name)).unwrap();
        assert_eq!(m.variant, v);
        assert_eq!(parse(&m.to_canonical_string()), Ok(m));
    }
    let plain = parse("lab=model&text=hi&repeat_layer=0&iterations=100&variant=transformer").unwrap();
    assert_eq!(plain.to_canonical_string(), "version=7&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=hi");
    for (tail, key) in [
        ("&repeat_layer=-1", "repeat_layer"),
        ("&repeat_layer=257", "repeat_layer"),
        ("&iterations=0", "iterations"),
        ("&iterations=1001", "iterations"),
        ("&iterations=2.5", "iterations"),
        ("&variant=san", "variant"),
        ("&variant=SAN%20skip", "variant"),
    ] {
        let e = parse(&format!("lab=model&text=hi{}", tail)).unwrap_err();
        assert_eq!(e.key, key, "{}: {}", tail, e);
    }
    let e = parse("lab=model&text=hi&repeat_layer=7").unwrap().check_shape(6, 12).unwrap_err();
    assert_eq!(e.to_string(), "`repeat_layer`: the model has layers 1..=6 (0: none repeated)");
    assert_eq!(parse("lab=model&text=hi&repeat_layer=6").unwrap().check_shape(6, 12), Ok(()));
}

#[test]
fn step_names_the_repetition_shown_of_the_repeated_layer() {
    let text = "lab=model&text=hi&repeat_layer=3&iterations=50&step=17";
    let link = parse_link(text).unwrap();
    let LabConfig::Model(m) = &link.config else { panic!("not a model link: {:?}", link) };
    assert_eq!(m.step, Some(17));
    let c = link.to_canonical_string();
    assert!(c.ends_with("&text=hi&repeat_layer=3&iterations=50&step=17"), "{}", c);
    assert_eq!(parse_link(&c), Ok(link.clone()));
    // 0..=iterations: repetition 0 is the layer's input, `iterations` the last.
    for ok in ["step=0", "step=50"] {
        assert!(parse_link(&format!("lab=model&text=hi&repeat_layer=3&iterations=50&{}", ok)).is_ok(), "{}", ok);
    }
    for (tail, why) in [
        ("&repeat_layer=3&iterations=50&step=51", "0..=50"),
        ("&repeat_layer=3&step=101", "0..=100"),
        ("&repeat_layer=3&step=-1", "0..=iterations"),
        ("&repeat_layer=3&step=", "0..=iterations"),
        ("&step=0", "repeats none"),
        ("&repeat_layer=3&step=2&t=1", ""),
    ] {
        let e = parse_link(&format!("lab=model&text=hi{}", tail)).unwrap_err();
        assert!(e.key == "step" || e.key == "t", "{}: {}", tail, e);
        assert!(e.message.contains(why), "{}: {}", tail, e);
    }
}

#[test]
fn a_bare_links_view_keys_are_the_pages_and_the_tables_view_keys() {
    use attn_core::model::keys::{bare_view_keys, BARE_VIEW_KEYS, MODEL_TABLE};
    for k in BARE_VIEW_KEYS {
        let key = MODEL_TABLE.iter().find(|e| e.name == k).unwrap_or_else(|| panic!("{k} is not a model key"));
        assert!(key.effect.starts_with("view key"), "{k}: {}", key.effect);
    }
    assert_eq!(
        bare_view_keys(),
        ["embed", "panels", "controls", "theme", "bg", "layer", "head", "grid_scale", "hidden_layer"]
    );
}

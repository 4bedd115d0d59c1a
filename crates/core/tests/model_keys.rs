//! The model lab's link (crates/core/src/model/keys.rs): parsing, the canonical form, the `model`
//! key's weights check, and hostile values refused naming the key.

mod common;

use attn_core::model::keys::{model_id, parse, ModelLink};

const SHA: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";

#[test]
fn a_link_round_trips_through_its_canonical_form() {
    let l = parse("#lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=The%20fox.%20A%20dog%26cat").unwrap();
    assert_eq!(
        l,
        ModelLink {
            model: "all-MiniLM-L6-v2@53aa51172d142c89".into(),
            text: "The fox. A dog&cat".into(),
            layer: 1,
            head: 0
        }
    );
    let canon = l.to_canonical_string();
    assert_eq!(canon, "version=4&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=The%20fox.%20A%20dog%26cat");
    assert_eq!(parse(&canon), Ok(l.clone()));
    let viewed = ModelLink { layer: 3, head: 11, ..l };
    let c = viewed.to_canonical_string();
    assert!(c.ends_with("&layer=3&head=11"), "{}", c);
    assert_eq!(parse(&c), Ok(viewed));
    assert_eq!(model_id("all-MiniLM-L6-v2", SHA), "all-MiniLM-L6-v2@53aa51172d142c89");
    let example = ModelLink::example();
    assert_eq!(example.model, model_id("all-MiniLM-L6-v2", SHA));
    assert_eq!(parse(&example.to_canonical_string()), Ok(example));
}

#[test]
fn bad_values_are_refused_naming_the_key() {
    let base = "lab=model&model=m@0123456789abcdef&text=hi";
    let cases = [
        ("lab=model&text=hi", "model"),
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
    common::fuzz::random_strings_and_mutations(14, &seeds, "lab=model&", parse, ModelLink::to_canonical_string);
}

//! What a refusal says: it names the key, and shows what was typed so that the reason is visible
//! (control and invisible characters escaped, numbers as written).

use attn_core::lab::parse_link;
use attn_core::link::quote;

/// The message of the refusal of `text` (any lab), with its key.
fn refusal(text: &str) -> (String, String) {
    let e = parse_link(text).expect_err(text);
    (e.key, e.message)
}

#[test]
fn quote_escapes_control_and_invisible_characters() {
    assert_eq!(quote("polytope\0"), r#""polytope\u{0}""#);
    assert_eq!(quote("polytope\n"), r#""polytope\u{a}""#);
    assert_eq!(quote("polytope\u{1b}[31m"), r#""polytope\u{1b}[31m""#);
    assert_eq!(quote("a\tb\rc\u{7f}"), r#""a\u{9}b\u{d}c\u{7f}""#);
    assert_eq!(quote("poly\u{200b}tope"), r#""poly\u{200b}tope""#);
    assert_eq!(quote("\u{202e}123"), r#""\u{202e}123""#);
    assert_eq!(quote(r#"say "hi" \ bye"#), r#""say \"hi\" \\ bye""#);
    assert_eq!(quote("Grüße 東京"), "\"Grüße 東京\"");
    // Cut after 40 characters; an escape counts as one character.
    let long = format!("{}\0{}", "x".repeat(39), "y".repeat(10));
    assert_eq!(quote(&long), format!("\"{}\\u{{0}}…\"", "x".repeat(39)));
    assert_eq!(quote(&"z".repeat(40)), format!("\"{}\"", "z".repeat(40)));
}

/// Row 6 of "Defects found by a demanding user": a valid name followed by a control character
/// was refused as `unknown preset "polytope"`, the character dropped from the message.
#[test]
fn a_control_character_in_a_value_is_shown_escaped() {
    for (text, shown) in [
        ("version=2&preset=polytope%00", r#""polytope\u{0}""#),
        ("version=2&preset=polytope%0A", r#""polytope\u{a}""#),
        ("version=2&preset=polytope%1B%5B31m", r#""polytope\u{1b}[31m""#),
        ("version=2&preset=poly%E2%80%8Btope", r#""poly\u{200b}tope""#),
        ("version=2&lab=training&preset=scan-snap%00", r#""scan-snap\u{0}""#),
        ("version=2&lab=depth&preset=bert-init%0A", r#""bert-init\u{a}""#),
        ("version=2&preset=polytope&model=euclidean%09", r#""euclidean\u{9}""#),
        ("version=2&preset=polytope&seed=1%00", r#""1\u{0}""#),
        ("version=2&preset=polytope&beta=1%7F", r#""1\u{7f}""#),
        ("version=2&preset=polytope&theme=dark%0D", r#""dark\u{d}""#),
        ("version=2&lab=depth&preset=bert-init&variants=san%00", r#""san\u{0}""#),
    ] {
        let (key, message) = refusal(text);
        assert!(message.contains(shown), "{}: {} (key {})", text, message, key);
        assert!(!message.chars().any(char::is_control), "{}: {:?}", text, message);
    }
    assert_eq!(refusal("version=2&preset=polytope%00").0, "preset");
}

/// Row 7: a number too small for a 64-bit float reads as 0; the refusal quoted the 0, not what
/// was typed.
#[test]
fn an_out_of_range_number_is_quoted_as_typed() {
    for (text, key, shown) in [
        (
            "version=2&preset=polytope&beta=1e-400",
            "beta",
            r#""1e-400" is out of range (too small for a 64-bit float: it reads as 0); allowed: 0 < beta <= 1000"#,
        ),
        (
            "version=2&lab=training&preset=scan-snap&snap_tol=1e-400",
            "snap_tol",
            r#""1e-400" is out of range (too small"#,
        ),
        ("version=2&preset=polytope&dt=0.0000e-999", "dt", r#""0.0000e-999" is out of range; allowed: 0 < dt <= 1"#),
        ("version=2&preset=polytope&beta=1001", "beta", r#""1001" is out of range; allowed: 0 < beta <= 1000"#),
        ("version=2&preset=polytope&scale=+2e6", "scale", r#""+2e6" is out of range"#),
        (
            "version=2&lab=depth&preset=bert-init&quantile=1.0",
            "quantile",
            r#""1.0" is out of range; allowed: 0 < quantile < 1"#,
        ),
        ("version=2&preset=polytope&n=00", "n", r#""00" is out of range; allowed: 1..=16384"#),
        ("version=2&preset=polytope&t=21.000", "t", r#""21.000" is outside the run"#),
    ] {
        let (k, message) = refusal(text);
        assert_eq!(k, key, "{}", text);
        assert!(message.contains(shown), "{}: {}", text, message);
    }
}

/// Row 11: a link whose `lab` names no lab was refused on another key (`lab=Training` on
/// `preset`, by the particle lab that shows it), or listed only `particles` (`lab=foo`). Every
/// parser reads `lab` before any other key, and an unknown lab lists the three.
#[test]
fn an_unknown_lab_is_refused_on_lab_listing_the_labs() {
    let unknown = |name: &str| format!("unknown lab \"{}\"; allowed: particles, training, depth, model", name);
    let particles = attn_core::particles::config::parse;
    for (text, name) in [
        ("version=2&lab=Training&preset=scan-snap", "Training"),
        ("version=2&preset=polytope&lab=foo", "foo"),
        ("version=2&preset=scan-snap&lab=%00", "\\u{0}"),
        ("lab=PARTICLES&n=0", "PARTICLES"),
        ("version=2&lab=Training&preset=scan-snap&eta_z=2", "Training"),
    ] {
        // The page shows a link with an unknown lab in the particle lab (its own parser), and
        // `check_link` goes through the registry: the same refusal.
        for e in [particles(text).unwrap_err(), parse_link(text).unwrap_err()] {
            assert_eq!((e.key.as_str(), e.message.clone()), ("lab", unknown(name)), "{}", text);
        }
        assert_eq!(attn_core::training::parse(text).unwrap_err().key, "lab", "{}", text);
        assert_eq!(attn_core::depth::parse(text).unwrap_err().key, "lab", "{}", text);
    }
    // Another lab's name, given to one lab's parser: refused on `lab` (before its preset).
    let e = particles("lab=training&preset=scan-snap").unwrap_err();
    assert_eq!(e.key, "lab");
    assert!(e.message.contains("lab=training is the training lab"), "{}", e);
    assert_eq!(attn_core::training::parse("preset=bert-init&lab=depth").unwrap_err().key, "lab");
    assert_eq!(attn_core::depth::parse("preset=polytope&lab=particles").unwrap_err().key, "lab");
    // What a program running one lab asks.
    use attn_core::lab::named_lab;
    assert_eq!(named_lab("preset=polytope"), Ok(None));
    assert_eq!(named_lab("#lab=depth&preset=x"), Ok(Some("depth")));
    assert_eq!(named_lab("lab=%74raining"), Ok(Some("training")));
    assert_eq!(named_lab("lab=Training").unwrap_err().message, unknown("Training"));
    assert_eq!(named_lab("lab=%zz").unwrap_err().key, "lab");
}

/// A key holding an invisible or control character is named escaped, as values are quoted: a
/// raw zero-width space before `n` would read as `n: unknown key`, as if `n` were unknown.
#[test]
fn an_invisible_character_in_a_key_is_shown_escaped() {
    for (text, key) in [
        ("version=4&preset=polytope&%E2%80%8Bn=5", r"\u{200b}n"),
        ("version=4&pre%C2%ADset=polytope", r"pre\u{ad}set"),
        ("version=4&preset=polytope&n%0A%1B[31m=3", r"n\u{a}\u{1b}[31m"),
        ("version=4&preset=polytope&n%E2%80%8B=3", r"n\u{200b}"),
        ("version=4&preset=polytope&a%22b%5C=1", r#"a\"b\\"#),
        ("version=4&lab=training&preset=scan-snap&%E2%80%AEseed=1", r"\u{202e}seed"),
        ("version=4&lab=depth&preset=collapse-small&lay%E2%80%8Bers=2", r"lay\u{200b}ers"),
        ("version=4&lab=model&te%E2%80%8Cxt=hi", r"te\u{200c}xt"),
    ] {
        let e = parse_link(text).expect_err(text);
        assert_eq!(e.key, key, "{}", text);
        assert!(e.to_string().starts_with(&format!("`{}`: unknown key for lab=", key)), "{}: {}", text, e);
    }
    // Cut after 40 characters as a quoted value is, an escape counting as one character.
    let long = format!("version=4&preset=polytope&{}%E2%80%8B{}=1", "k".repeat(39), "z".repeat(5));
    assert_eq!(parse_link(&long).unwrap_err().key, format!("{}\\u{{200b}}…", "k".repeat(39)));
}

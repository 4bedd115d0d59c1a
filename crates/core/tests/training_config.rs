//! The training lab's configuration string: presets, canonical round trip, malformed input, and
//! the `lab` dispatcher.

use attn_core::lab::{parse_lab, requested_lab, LabConfig};
use attn_core::link::LabPreset;
use attn_core::rng::Rng;
use attn_core::training::{parse, TrainingConfig, TrainingPreset, WeightsInit, TRAINING_PRESETS};

#[test]
fn every_preset_round_trips_and_is_canonical() {
    for p in TRAINING_PRESETS {
        let c = p.config();
        let s = c.to_canonical_string();
        assert_eq!(s, format!("version=7&lab=training&preset={}", p.name()));
        assert_eq!(parse(&s).unwrap(), c);
        assert_eq!(parse_lab(&s).unwrap(), LabConfig::Training(c.clone()));
        assert!(!p.description().is_empty());
        c.validate().unwrap();
    }
    assert_eq!(parse("").unwrap(), TrainingConfig::default());
    assert_eq!(TrainingConfig::default().preset, TrainingPreset::ScanSnap);
}

/// The presets are the paper's settings (science.md §5).
#[test]
fn presets_are_the_papers_settings() {
    let a = TrainingPreset::ScanSnap.config();
    assert_eq!((a.queries, a.next_per_query, a.commons, a.distinct, a.synthetic_m()), (2, 1, 10, 10, 34));
    assert_eq!((a.weight_lo, a.weight_hi, a.weights_init), (0.1, 1.0, WeightsInit::Zero));
    assert_eq!((a.eta_z, a.ratio, a.momentum, a.batch, a.seq_len, a.iterations), (1.0, 1.0, 0.9, 128, 128, 1000));
    let b = TrainingPreset::ScanSnapSweep.config();
    assert_eq!((b.queries, b.next_per_query, b.synthetic_m(), b.weights_init), (1, 2, 33, WeightsInit::Uniform));
}

#[test]
fn keys_override_the_preset_in_any_order() {
    let c = parse("eta_z=2&lab=training&preset=scan-snap-sweep&ratio=10&seed=7").unwrap();
    assert_eq!((c.eta_z, c.ratio, c.seed, c.queries), (2.0, 10.0, 7, 1));
    assert_eq!(c.to_canonical_string(), "version=7&lab=training&preset=scan-snap-sweep&eta_z=2&ratio=10&seed=7");
    let d = parse(
        "#version=7&lab=training&momentum=0&weights_init=uniform&snap_tol=1e-4&weight_lo=0.25&commons_per_query=2",
    )
    .unwrap();
    let s = d.to_canonical_string();
    assert_eq!(s, "version=7&lab=training&preset=scan-snap&commons_per_query=2&weight_lo=0.25&weights_init=uniform&momentum=0&snap_tol=1e-4");
    assert_eq!(parse(&s).unwrap(), d);
    assert_eq!(d.differences_from_preset()[0], ("commons_per_query", "0".to_string(), "2".to_string()));
}

/// Text with every awkward character survives the canonical string.
#[test]
fn text_round_trips_percent_encoded() {
    let text = "Hello, world & friends = 100% #1? Ünïcode — naïve café.\nNew line; a+b";
    let c = TrainingConfig { text: text.to_string(), ..TrainingPreset::ScanSnap.config() };
    c.validate().unwrap();
    let s = c.to_canonical_string();
    assert!(s.starts_with("version=7&lab=training&preset=scan-snap&text=Hello%2C%20world%20%26"), "{}", s);
    assert_eq!(parse(&s).unwrap(), c);
    assert_eq!(parse_lab(&s).unwrap(), LabConfig::Training(c));
}

/// Each malformed string and the key its error must name.
const MALFORMED: &[(&str, &str)] = &[
    ("lab=training&bogus=1", "bogus"),
    ("lab=training&n=3", "n"),
    ("lab=training&preset=polytope", "preset"),
    ("lab=training&preset=nope", "preset"),
    ("lab=training&queries=0", "queries"),
    ("lab=training&queries=33", "queries"),
    ("lab=training&queries=2.5", "queries"),
    ("lab=training&queries=-1", "queries"),
    ("lab=training&queries=32&next_per_query=4", "queries"),
    ("lab=training&next_per_query=0", "next_per_query"),
    ("lab=training&commons=257", "commons"),
    ("lab=training&commons_per_query=65", "commons_per_query"),
    ("lab=training&distinct=0", "distinct"),
    ("lab=training&weight_lo=0", "weight_lo"),
    ("lab=training&weight_hi=-1", "weight_hi"),
    ("lab=training&weight_hi=NaN", "weight_hi"),
    ("lab=training&weights_init=normal", "weights_init"),
    ("lab=training&eta_z=0", "eta_z"),
    ("lab=training&eta_z=101", "eta_z"),
    ("lab=training&eta_z=inf", "eta_z"),
    ("lab=training&ratio=0", "ratio"),
    ("lab=training&ratio=abc", "ratio"),
    ("lab=training&momentum=1", "momentum"),
    ("lab=training&momentum=-0.1", "momentum"),
    ("lab=training&batch=0", "batch"),
    ("lab=training&batch=4097", "batch"),
    ("lab=training&batch=4096&seq_len=4096", "batch"),
    ("lab=training&seq_len=1", "seq_len"),
    ("lab=training&iterations=20001", "iterations"),
    ("lab=training&iterations=20000&commons=256&distinct=64", "iterations"),
    ("lab=training&seed=4294967296", "seed"),
    ("lab=training&query_row=2", "query_row"),
    ("lab=training&text=a%20b%20c&query_row=3", "query_row"),
    ("lab=training&snap_tol=0", "snap_tol"),
    ("lab=training&snap_tol=1", "snap_tol"),
    ("lab=training&vocab=1", "vocab"),
    ("lab=training&vocab=513", "vocab"),
    ("lab=training&text=hello%20world", "text"),
    ("lab=training&text=%zz", "text"),
    ("lab=training&eta_z=1&eta_z=2", "eta_z"),
    ("lab=training&version=8", "version"),
    ("lab=training&nokey", "nokey"),
    ("lab=training&=3", "(empty key)"),
    ("lab=quantum", "lab"),
    ("lab=%zz", "lab"),
    ("preset=scan-snap", "preset"),
];

#[test]
fn malformed_strings_name_the_key() {
    crate::common::malformed::each_names_its_key(MALFORMED, parse_lab);
    // A training preset without lab=training says what to add.
    let e = parse_lab("preset=scan-snap").unwrap_err();
    assert!(e.message.contains("lab=training"), "{}", e);
    // A text with too many classes for its vocabulary (K x M > 2^21) is refused by its key.
    let mut rng = Rng::new(3, 3);
    let words: Vec<String> = (0..6000)
        .map(|_| {
            let a = (b'a' + (rng.next_u64() % 26) as u8) as char;
            let b = (b'a' + (rng.next_u64() % 26) as u8) as char;
            format!("{}{}", a, b)
        })
        .collect();
    let e = parse(&format!("lab=training&vocab=512&text={}", words.join("%20"))).unwrap_err();
    assert_eq!(e.key, "text", "{}", e);
    assert!(parse(&format!("lab=training&vocab=64&text={}", words.join("%20"))).is_ok());
    // A too-long text is refused by its key.
    let long = format!("lab=training&text={}", "a".repeat(20_001));
    assert_eq!(parse(&long).unwrap_err().key, "text");
}

/// `lab` absent or `particles`: the particle parser, unchanged; `training`: the training parser.
#[test]
fn parse_lab_dispatches_by_the_lab_key() {
    let p = parse_lab("preset=polytope-3d&n=30").unwrap();
    assert_eq!(p, LabConfig::Particles(attn_core::parse("preset=polytope-3d&n=30").unwrap()));
    assert_eq!(p.lab(), "particles");
    assert_eq!(parse_lab("").unwrap(), LabConfig::Particles(attn_core::particles::config::Config::default()));
    let q = parse_lab("lab=particles&n=7").unwrap();
    assert_eq!(q.to_canonical_string(), "version=1&preset=polytope&n=7");
    let t = parse_lab("?lab=training&preset=scan-snap-sweep&eta_z=3").unwrap();
    assert_eq!(t.lab(), "training");
    assert_eq!(t.to_canonical_string(), "version=7&lab=training&preset=scan-snap-sweep&eta_z=3");
    assert_eq!(parse_lab("lab%3Dtraining").unwrap_err().key, "lab%3Dtraining"); // not a key=value pair
                                                                                // Particle keys in a training configuration and training keys in a particle one are refused.
    assert_eq!(parse_lab("lab=training&beta=2").unwrap_err().key, "beta");
    assert_eq!(parse_lab("eta_z=2").unwrap_err().key, "eta_z");
    // Every particle error is the particle parser's own.
    for s in ["n=0", "model=quantum", "v=1,2;3"] {
        assert_eq!(parse_lab(s).unwrap_err(), attn_core::parse(s).unwrap_err());
    }
}

#[test]
fn random_strings_and_mutations_never_panic() {
    let seeds: Vec<String> = TRAINING_PRESETS
        .iter()
        .map(|p| {
            p.config().to_canonical_string()
                + "&eta_z=2&text=the%20cat%20sat%20on%20the%20mat&vocab=5&seq_len=4&query_row=1"
        })
        .chain(TRAINING_PRESETS.iter().map(|p| {
            p.config().to_canonical_string()
                + "&iterations=9&step=4&embed=1&panels=chart&controls=play,eta_z&theme=light&speed=7"
        }))
        .collect();
    crate::common::fuzz::random_strings_and_mutations(
        12,
        &seeds,
        "lab=training&",
        parse_lab,
        LabConfig::to_canonical_string,
    );
    // As links: the view keys survive the round trip too.
    crate::common::fuzz::random_strings_and_mutations(
        14,
        &seeds,
        "lab=training&",
        attn_core::lab::parse_link,
        attn_core::lab::Link::to_canonical_string,
    );
}

/// The page shows the lab a link asks for even when the link is refused.
#[test]
fn requested_lab_reads_the_lab_key_of_valid_and_invalid_text() {
    assert_eq!(requested_lab(""), "particles");
    assert_eq!(requested_lab("preset=polytope&n=3"), "particles");
    assert_eq!(requested_lab("lab=particles&beta=abc"), "particles");
    assert_eq!(requested_lab("#lab=training&preset=scan-snap"), "training");
    assert_eq!(requested_lab("preset=scan-snap&l%61b=training&eta_z=-1"), "training");
    assert_eq!(requested_lab("lab=train"), "particles");
    assert_eq!(requested_lab("lab=%ZZ"), "particles");
    // The model lab: the page shows it and its parser's messages.
    assert_eq!(requested_lab("lab=model&model=m@0123456789abcdef&text=hi"), "model");
    assert_eq!(requested_lab("lab=model&text="), "model");
    // Each lab's pairs and differences, through the dispatcher.
    let t = parse_lab("version=7&lab=training&eta_z=2").unwrap();
    assert_eq!(t.pairs(), parse("version=7&lab=training&eta_z=2").unwrap().pairs());
    assert_eq!(t.differences_from_preset(), vec![("eta_z", "1".to_string(), "2".to_string())]);
    let p = parse_lab("preset=polytope&n=3").unwrap();
    assert_eq!(p.differences_from_preset(), vec![("n", "20".to_string(), "3".to_string())]);
    assert_eq!(p.pairs()[0], ("preset", "polytope".to_string()));
}

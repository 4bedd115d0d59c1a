//! Links: the schema version and its migrations, the canonical link's round trip, a lab page
//! reading its own lab, and the key tables the page reads (the view keys are in `view.rs`).

use attn_core::depth::DEPTH_PRESETS;
use attn_core::lab::{parse_lab, parse_link, LabConfig, Link};
use attn_core::link::LabPreset;
use attn_core::link::{migrate, read_version, VERSION};
use attn_core::particles::config::PRESETS;
use attn_core::training::{Trainer, TRAINING_PRESETS};
use attn_core::{parse, Simulation};

fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Every canonical string of every lab made today starts with `version=7`.
#[test]
fn canonical_strings_start_with_the_version() {
    assert_eq!(VERSION, 7);
    let all: Vec<String> = PRESETS
        .iter()
        .map(|p| p.config().to_canonical_string())
        .chain(TRAINING_PRESETS.iter().map(|p| p.config().to_canonical_string()))
        .chain(DEPTH_PRESETS.iter().map(|p| p.config().to_canonical_string()))
        .collect();
    for s in &all {
        assert!(s.starts_with("version=7&"), "{}", s);
        assert_eq!(s.matches("version=").count(), 1, "{}", s);
        assert_eq!(parse_lab(s).unwrap().to_canonical_string(), *s);
    }
}

#[test]
fn read_version_is_0_without_the_key_and_refuses_unknown_versions() {
    assert_eq!(read_version(&owned(&[("preset", "polytope")])), Ok(0));
    assert_eq!(read_version(&owned(&[("n", "3"), ("version", "1")])), Ok(1));
    assert_eq!(read_version(&owned(&[("version", "2"), ("n", "3")])), Ok(2));
    assert_eq!(read_version(&owned(&[("version", "3"), ("n", "3")])), Ok(3));
    assert_eq!(read_version(&owned(&[("version", "4")])), Ok(4));
    assert_eq!(read_version(&owned(&[("version", "5")])), Ok(5));
    assert_eq!(read_version(&owned(&[("version", "7")])), Ok(7));
    for bad in ["8", "17", "0", "1.0", "", "one", "-1"] {
        let e = read_version(&owned(&[("version", bad)])).unwrap_err();
        assert_eq!(e.key, "version", "{:?}", bad);
        assert!(e.message.contains("allowed: 1, 2, 3, 4, 5, 6, 7"), "{}", e);
    }
    let e = read_version(&owned(&[("version", "1"), ("version", "1")])).unwrap_err();
    assert_eq!(e.key, "version");
}

/// Version 0 (every link made before versions): the step to version 1 keeps every key and value;
/// the later steps add only the defaults they changed (a particle link's `heatmap=one`).
#[test]
fn migrate_from_version_0_is_the_identity_on_every_key() {
    let pairs =
        owned(&[("preset", "hyperplanes"), ("n", "30"), ("v", "1,0;0,2"), ("coords", "x"), ("lab", "particles")]);
    let mut want = pairs.clone();
    want.push(("heatmap".to_string(), "one".to_string()));
    assert_eq!(migrate(0, pairs.clone()).unwrap(), want);
    // Every preset's pre-version link (its old canonical form) means what it meant: the same
    // keys, and version 1's arithmetic (written back as `version=1`).
    for p in PRESETS {
        let today = p.config().to_canonical_string();
        let old = today.strip_prefix("version=7&").unwrap();
        let want = p.config_at(1);
        assert_eq!(want.version, 1);
        assert_eq!(parse(old).unwrap(), want, "{}", old);
        assert_eq!(parse(old).unwrap().to_canonical_string(), format!("version=1&{}", old));
    }
    for p in TRAINING_PRESETS {
        let old = format!("lab=training&preset={}&eta_z=2", p.name());
        assert_eq!(parse_lab(&old).unwrap(), parse_lab(&format!("version=1&{}", old)).unwrap());
    }
    for p in DEPTH_PRESETS {
        let old = format!("lab=depth&preset={}&layers=3", p.name());
        assert_eq!(parse_lab(&old).unwrap(), parse_lab(&format!("version=1&{}", old)).unwrap());
    }
    // A depth link of version 0 nests a particle configuration of version 0.
    let old = parse_lab("lab=depth&preset=particle-euler&particle=preset%3Dpolytope%26n%3D20%26seed%3D4").unwrap();
    let LabConfig::Depth(d) = old else { panic!("depth") };
    assert_eq!(d.particle, "version=1&preset=polytope&seed=4");
}

/// Version 1 to 2: the keys are kept (version 2 changed the arithmetic, not a key); the
/// `version` pair is consumed.
#[test]
fn migrate_from_version_1_drops_only_the_version_pair() {
    let pairs = owned(&[("version", "1"), ("preset", "leaders"), ("t", "2"), ("embed", "1"), ("heatmap", "max")]);
    assert_eq!(migrate(1, pairs.clone()).unwrap(), pairs[1..].to_vec());
}

/// Version 8 and later do not exist yet: refused with a message naming `version`.
#[test]
fn versions_newer_than_this_code_are_refused() {
    for v in [8u32, 9, 1000] {
        let e = migrate(v, Vec::new()).unwrap_err();
        assert_eq!(e.key, "version");
        assert!(e.message.contains("allowed: 1, 2, 3, 4, 5, 6, 7"), "{}", e);
    }
    for text in ["version=8", "version=8&lab=training", "lab=depth&version=8", "version=9&t=1"] {
        let e = parse_link(text).unwrap_err();
        assert_eq!(e.key, "version", "{}", text);
        assert!(e.message.contains("newer"), "{}", e);
    }
}

/// A version 0 or 1 link keeps the Taylor exponential of its attention weights (its tokens
/// replay bit for bit, and it writes `version=1`); version 2 uses the rational one: different
/// last bits, the same dynamics (agreeing to round-off over 200 steps).
#[test]
fn version_1_links_keep_their_arithmetic_and_version_2_uses_the_rational_exponential() {
    let run = |text: &str| {
        let c = parse(text).unwrap();
        let mut sim = Simulation::new(&c);
        for _ in 0..200 {
            sim.step().unwrap();
        }
        (c, sim.state().to_vec())
    };
    let keys = "preset=polytope-3d&n=64&seed=5&beta=1&dt=0.01&integrate_in=x&coords=x&scale=1";
    let (c0, x0) = run(keys);
    let (c1, x1) = run(&format!("version=1&{}", keys));
    let (c2, x2) = run(&format!("version=2&{}", keys));
    assert_eq!((c0.version, c1.version, c2.version), (1, 1, 2));
    assert!(c1.to_canonical_string().starts_with("version=1&") && c2.to_canonical_string().starts_with("version=2&"));
    let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&x0), bits(&x1), "a link without version replays as version 1");
    assert_ne!(bits(&x1), bits(&x2), "version 2's exponential changes last bits");
    let scale = crate::common::max_abs(&x1);
    let diff = crate::common::max_diff(&x1, &x2);
    assert!(diff <= 1e-12 * scale, "versions 1 and 2 differ by {:e} (scale {:e})", diff, scale);
    // The empty string (nothing to replay) is today's default.
    assert_eq!(parse("").unwrap().version, VERSION);
}

/// Property: for links with view keys in every lab, `parse_link(to_string(l)) == l` and the
/// canonical string is a fixed point.
#[test]
fn every_valid_link_round_trips() {
    let mut links = Vec::new();
    let panels = ["tokens", "heatmap", "chart", "tokens,chart", "heatmap,chart"];
    let controls = ["", "play", "play,step,reset,seed,speed,preset", "beta,n,view", "dt,until,model,integrator,d"];
    for (i, p) in PRESETS.iter().enumerate() {
        let c = p.config();
        let last = attn_core::run::steps_for(c.until, c.dt);
        for j in 0..6u64 {
            let moment =
                if j % 2 == 0 { format!("step={}", (last * j) / 5) } else { format!("t={}", c.until * j as f64 / 7.0) };
            links.push(format!(
                "preset={}&{}&embed={}&panels={}&controls={}&theme={}&speed={}&heatmap={}&trails={}&camera={},{}&colour={}",
                p.name(),
                moment,
                j % 2,
                panels[(i + j as usize) % panels.len()],
                controls[(i * 3 + j as usize) % controls.len()],
                ["auto", "light", "dark"][j as usize % 3],
                1 + (i as u64 * 37 + j * 101) % 1000,
                ["one", "max"][i % 2],
                j % 2,
                -6.0 + 1.7 * j as f64,
                -1.55 + 0.5 * j as f64,
                ["clusters", "index", "plain"][(i + j as usize) % 3],
            ));
        }
    }
    for p in TRAINING_PRESETS {
        for j in 0..4 {
            links.push(format!(
                "lab=training&preset={}&iterations=20&step={}&embed=1&panels=chart,sweep&controls=eta_z,ratio&speed={}",
                p.name(),
                j * 5,
                1 + j * 30
            ));
        }
    }
    for p in DEPTH_PRESETS {
        links.push(format!("lab=depth&preset={}&embed=1&panels=spectrum,residual&controls=layers,preset&theme=dark&residual_axis=linear", p.name()));
    }
    links.push("preset=polytope&d=7&projection=7,2".into());
    links.push("preset=polytope&d=4&projection=pca3&coords=x".into());
    for text in &links {
        let l: Link = parse_link(text).unwrap_or_else(|e| panic!("{}: {}", text, e));
        let s = l.to_canonical_string();
        // Particle links without `version` keep version 1's arithmetic; the other labs' numbers
        // do not depend on the version, which they write as today's.
        assert!(s.starts_with(if text.starts_with("lab=") { "version=7&" } else { "version=1&" }), "{}", s);
        assert_eq!(parse_link(&s).as_ref(), Ok(&l), "{}", text);
        assert_eq!(parse_link(&s).unwrap().to_canonical_string(), s);
    }
    assert_eq!(links.len(), 80);
}

/// Row 18 of "Defects found by a demanding user": `-0` was kept as written, so one run had two
/// canonical links. A number key reads `-0` as `0` (likewise the view's `t` and `camera`).
#[test]
fn negative_zero_is_written_as_zero() {
    for (text, canonical) in [
        (
            "version=4&lab=training&preset=scan-snap&momentum=-0",
            "version=7&lab=training&preset=scan-snap&momentum=0&iterations=100",
        ),
        (
            "version=4&lab=training&preset=scan-snap&momentum=-0.0e5",
            "version=7&lab=training&preset=scan-snap&momentum=0&iterations=100",
        ),
        ("version=4&lab=depth&preset=bert-init&bias_scale=-0", "version=7&lab=depth&preset=bert-init"),
        ("version=4&lab=depth&preset=bert-init&threshold=-0", "version=7&lab=depth&preset=bert-init&threshold=0"),
        ("version=2&preset=polytope&until=-0", "version=2&preset=polytope&until=0"),
        ("version=2&preset=polytope&t=-0", "version=2&preset=polytope&t=0"),
        ("version=2&preset=polytope-3d&camera=-0,-0", "version=2&preset=polytope-3d&camera=0,0"),
    ] {
        let link = parse_link(text).unwrap();
        assert_eq!(link.to_canonical_string(), canonical, "{}", text);
        let plain = parse_link(&text.replace("-0", "0")).unwrap();
        assert_eq!(link, plain, "{}", text);
        assert_eq!(parse_link(canonical).unwrap(), link, "{}", canonical);
    }
    // Explicit matrix entries and points keep their sign: their zero's sign reaches the tokens.
    assert!(parse("version=2&preset=polytope&v=1,-0;0,1").unwrap().to_canonical_string().contains("v=1,-0;0,1"));
}

/// Reading `-0` as `0` changes no run's numbers: momentum `-0` and `0` train to the same bits
/// (the only key of the three labs where a zero multiplies state; a zero `bias_scale` means no
/// biases either way).
#[test]
fn momentum_minus_zero_trained_the_same_bits_as_zero() {
    for preset in TRAINING_PRESETS {
        let run = |momentum: f64| {
            let c = attn_core::training::TrainingConfig { momentum, iterations: 40, ..preset.config() };
            let mut t = Trainer::new(&c);
            t.run();
            let r = t.record();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            (bits(&r.loss), bits(&r.entropy), bits(&r.max_dc), bits(&r.query_logits), bits(&r.query_c))
        };
        assert_eq!(run(-0.0), run(0.0), "{}", preset.name());
    }
}

/// Row 15 (API part): a host's `setConfig` with `embed=…` was ignored silently; it is refused
/// naming `embed` (embed mode is the embedding page's). Everything else is checked as a link.
#[test]
fn a_setconfig_link_may_not_set_embed() {
    use attn_core::lab::parse_api_link;
    for text in ["version=4&preset=polytope&embed=0", "preset=leaders&embed=1&t=2", "%65mbed=0", "embed=x&n=0"] {
        let e = parse_api_link(text).unwrap_err();
        assert_eq!(e.key, "embed", "{}", text);
        assert!(e.message.contains("setConfig cannot change embed mode"), "{}", e);
    }
    let l = parse_api_link("version=4&preset=leaders&t=2&theme=dark&panels=tokens").unwrap();
    assert_eq!(l, parse_link("version=4&preset=leaders&t=2&theme=dark&panels=tokens").unwrap());
    assert_eq!(parse_api_link("preset=leaders&beta=-1").unwrap_err().key, "beta");
}

/// FNV-1a over the bits of `x`: a fingerprint of a run's tokens.
fn fingerprint(x: &[f64]) -> u64 {
    x.iter()
        .flat_map(|v| v.to_bits().to_le_bytes())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The configuration of `text` and its tokens after `steps` steps.
fn tokens_after(text: &str, steps: usize) -> (attn_core::Config, Vec<f64>) {
    let c = parse(text).unwrap();
    let mut sim = Simulation::new(&c);
    for _ in 0..steps {
        sim.step().unwrap();
    }
    (c, sim.state().to_vec())
}

/// Versions 3 and 4 changed depth-lab keys only: a particle link of version 2, 3 or 4 runs
/// version 2's arithmetic (the rational exponential), and replays bit for bit the tokens version
/// 2 computed (fingerprints taken with the code of version 2, commit 0bc738d, `VERSION = 2`).
/// Each writes the version it was written in.
#[test]
fn versions_3_and_4_keep_version_2s_particle_arithmetic() {
    for (keys, steps, want) in [
        (
            "preset=polytope-3d&n=64&seed=5&beta=1&dt=0.01&integrate_in=x&coords=x&scale=1",
            200,
            0x196f_5284_19dd_e8d4u64,
        ),
        ("preset=sphere-sa-clusters&n=48&seed=3&integrator=rk4&dt=0.05", 100, 0x968a_42c3_9863_d802),
    ] {
        let (c4, x4) = tokens_after(&format!("version=4&{}", keys), steps);
        assert_eq!(c4.version, 4);
        for v in [2u32, 3, 4] {
            let (c, x) = tokens_after(&format!("version={}&{}", v, keys), steps);
            assert_eq!(c.version, v);
            assert_eq!(attn_core::Config { version: 4, ..c.clone() }, c4, "{}", keys);
            assert!(c.to_canonical_string().starts_with(&format!("version={}&", v)), "{}", c);
            assert_eq!(fingerprint(&x), want, "{}: version {}'s tokens", keys, v);
        }
        assert_eq!(fingerprint(&x4), want);
        // Version 1's exponential differs in the last bits.
        assert_ne!(fingerprint(&tokens_after(&format!("version=1&{}", keys), steps).1), want);
    }
}

/// Version 3 to 4: a depth link whose text sets `n` (as version 3's presets defined it) loses
/// the `tokens` the text overrode; other links keep every pair.
#[test]
fn migrate_from_version_3_drops_only_tokens_a_text_overrode() {
    let context = owned(&[("version", "3"), ("lab", "depth"), ("preset", "context-text"), ("tokens", "5")]);
    assert_eq!(migrate(3, context.clone()).unwrap(), context[1..3].to_vec());
    // bert-init (the default preset) reads BERT's input embeddings: with a text, the text sets n.
    // (Version 6's step then writes the preset it opened: `bert-init`, the default until version 6.)
    let bert = owned(&[("lab", "depth"), ("text", "a b. c"), ("tokens", "5")]);
    let mut want = bert[..2].to_vec();
    want.push(("preset".to_string(), "bert-init".to_string()));
    assert_eq!(migrate(3, bert.clone()).unwrap(), want);
    for kept in [
        owned(&[("lab", "depth"), ("preset", "context-text"), ("input", "gaussian"), ("tokens", "5")]),
        owned(&[("lab", "depth"), ("preset", "bert-init"), ("tokens", "5")]),
        owned(&[
            ("lab", "depth"),
            ("preset", "context-text"),
            ("input", "bert-embeddings"),
            ("text", ""),
            ("tokens", "5"),
        ]),
        owned(&[("lab", "training"), ("preset", "scan-snap-sweep"), ("text", "a b c"), ("seq_len", "5")]),
    ] {
        assert_eq!(migrate(3, kept.clone()).unwrap(), kept, "{:?}", kept);
    }
    // A version-4 link is not migrated: its `tokens` is checked by the depth parser.
    assert_eq!(migrate(4, context[1..].to_vec()).unwrap(), context[1..].to_vec());
}

/// A lab's own page reads a link with that lab's parser: the same link as `parse_link` for its
/// own lab, another lab's link refused naming `lab`, an unknown lab refused naming `lab`.
#[test]
fn a_lab_page_reads_its_own_lab_and_refuses_another() {
    use attn_core::lab::parse_lab_link;
    for (lab, text) in [
        ("particles", "version=4&preset=hyperplanes&n=30&speed=7"),
        ("training", "version=4&lab=training&preset=scan-snap&eta_z=2"),
        ("depth", "version=4&lab=depth&preset=collapse-small&residual_axis=linear"),
    ] {
        assert_eq!(parse_lab_link(lab, text).unwrap(), parse_link(text).unwrap(), "{text}");
    }
    let e = parse_lab_link("particles", "version=4&lab=training&preset=scan-snap").unwrap_err();
    assert_eq!(e.key, "lab");
    assert!(e.message.contains("training lab"), "{}", e.message);
    let e = parse_lab_link("depth", "version=4&lab=particles&preset=polytope").unwrap_err();
    assert_eq!(e.key, "lab");
    let e = parse_lab_link("Training", "version=4&lab=training&preset=scan-snap").unwrap_err();
    assert_eq!(e.key, "lab");
    assert!(e.message.contains("unknown lab"), "{}", e.message);
}

/// The page's field hints come from the key tables: every key of every lab, with its meaning,
/// its range or choices, and its default in the lab's default preset.
#[test]
fn the_key_tables_reach_the_page_as_plain_rows() {
    use attn_core::lab::key_infos;
    let particles = key_infos("particles").unwrap();
    let names: Vec<&str> = particles.iter().map(|k| k.name).collect();
    assert_eq!(names[..3], ["preset", "lab", "model"]);
    let beta = particles.iter().find(|k| k.name == "beta").unwrap();
    assert_eq!(
        (beta.kind, beta.lo, beta.lo_open, beta.hi, beta.hi_open),
        ("float", Some(0.0), true, Some(1000.0), false)
    );
    assert!(beta.meaning.contains('β'), "{}", beta.meaning);
    assert_eq!(beta.default, "1");
    let model = particles.iter().find(|k| k.name == "model").unwrap();
    assert_eq!(model.choices, ["euclidean", "sphere-sa", "sphere-usa"]);
    let n = particles.iter().find(|k| k.name == "n").unwrap();
    assert_eq!((n.kind, n.lo, n.hi, n.default.as_str()), ("count", Some(1.0), Some(16384.0), "20"));
    for lab in ["training", "depth"] {
        let rows = key_infos(lab).unwrap();
        assert!(rows.iter().any(|k| k.name == "seed" && k.kind == "seed"), "{lab}");
        assert!(rows.iter().all(|k| !k.meaning.is_empty()), "{lab}: every key has a meaning");
    }
    assert_eq!(key_infos("nope").unwrap_err().key, "lab");
}

//! The configuration string: presets, canonical round trip, and malformed input.

use attn_core::link::LabPreset;
use attn_core::particles::config::{parse, Config, MatrixSpec, Preset, PRESETS};

#[test]
fn every_preset_round_trips_and_is_canonical() {
    for p in PRESETS {
        let c = p.config();
        let s = c.to_canonical_string();
        assert_eq!(s, format!("version=7&preset={}", p.name()));
        assert_eq!(parse(&s).unwrap(), c);
        assert!(!p.description().is_empty());
    }
}

#[test]
fn empty_string_is_the_polytope_preset() {
    assert_eq!(parse("").unwrap(), Preset::Polytope.config());
    assert_eq!(parse("#").unwrap(), Config::default());
}

#[test]
fn keys_override_the_preset_in_any_order() {
    let a = parse("n=30&preset=polytope-3d&seed=9").unwrap();
    assert_eq!((a.n, a.d, a.seed), (30, 3, 9));
    assert_eq!(a.to_canonical_string(), "version=1&preset=polytope-3d&n=30&seed=9");
    let b = parse("preset=hyperplanes&v=1,0;0,2&dt=0.05&coords=x").unwrap();
    assert_eq!(b.to_canonical_string(), "version=1&preset=hyperplanes&dt=0.05&v=1,0;0,2&coords=x");
    assert_eq!(parse(&b.to_canonical_string()).unwrap(), b);
}

#[test]
fn changing_the_model_family_sets_the_keys_that_depend_on_it() {
    let c = parse("model=sphere-sa").unwrap();
    assert_eq!(
        c.to_canonical_string(),
        "version=1&preset=polytope&model=sphere-sa&integrate_in=x&integrator=retraction&coords=x"
    );
    assert_eq!(parse(&c.to_canonical_string()).unwrap(), c);
    let e = parse("preset=sphere-sa&model=euclidean").unwrap();
    assert_eq!(e.integrator, attn_core::particles::config::Integrator::Euler);
    assert_eq!(parse(&e.to_canonical_string()).unwrap(), e);
    // Written keys are kept (and then validated).
    assert_eq!(parse("model=sphere-sa&coords=z").unwrap_err().key, "coords");
}

#[test]
fn floats_use_shortest_round_trip_text() {
    let c = parse("beta=0.1&dt=0.3&scale=1e-7&until=123456.78").unwrap();
    let s = c.to_canonical_string();
    assert!(s.contains("beta=0.1") && s.contains("dt=0.3") && s.contains("scale=1e-7"), "{}", s);
    assert_eq!(parse(&s).unwrap(), c);
}

#[test]
fn percent_encoded_values_decode() {
    let c = parse("preset=polytope&v=1%2C0%3B0%2C1").unwrap();
    assert_eq!(c.v, MatrixSpec::Explicit { rows: 2, cols: 2, data: vec![1.0, 0.0, 0.0, 1.0] });
}

/// Each malformed string and the key its error must name.
const MALFORMED: &[(&str, &str)] = &[
    ("preset=hyperplanes&d=3", "v"),
    ("bogus=1", "bogus"),
    ("preset=nope", "preset"),
    ("n=0", "n"),
    ("n=16385", "n"),
    ("n=-3", "n"),
    ("n=2.5", "n"),
    ("d=0", "d"),
    ("d=257", "d"),
    ("dt=0", "dt"),
    ("dt=1.5", "dt"),
    ("dt=NaN", "dt"),
    ("dt=inf", "dt"),
    ("beta=-1", "beta"),
    ("beta=abc", "beta"),
    ("seed=4294967296", "seed"),
    ("seed=-1", "seed"),
    ("until=-1", "until"),
    ("until=1e6&dt=1e-5", "until"),
    ("model=quantum", "model"),
    ("model=sphere-sa&integrate_in=z", "integrate_in"),
    ("model=sphere-sa&integrate_in=x&coords=x&integrator=euler", "integrator"),
    ("dt=1e-300", "dt"),
    ("preset=sphere-sa&integrator=euler", "integrator"),
    ("integrator=retraction", "integrator"),
    ("integrator=leapfrog", "integrator"),
    ("q=1,2;3", "q"),
    ("k=1,2,3;4,5,6", "k"),
    ("v=", "v"),
    ("v=1,x;0,1", "v"),
    ("v=1e400,0;0,1", "v"),
    ("init=points", "points"),
    ("init=points&points=1,2;3,4", "points"),
    ("init=ball", "init"),
    ("scale=0", "scale"),
    ("cluster_tol=1", "cluster_tol"),
    ("coords=w", "coords"),
    ("preset=sphere-sa&coords=z", "coords"),
    ("n=3&n=4", "n"),
    ("version=8", "version"),
    ("lab=depth", "lab"),
    ("nokey", "nokey"),
    ("v=%zz", "v"),
    ("preset=metastability&points=0,0;1,0;0,1;1,1;-1,0", "points"),
];

#[test]
fn malformed_strings_name_the_key() {
    crate::common::malformed::each_names_its_key(MALFORMED, parse);
}

#[test]
fn random_strings_and_mutations_never_panic() {
    let view = "&t=0.5&panels=tokens,chart&controls=play,beta&theme=dark&speed=5&heatmap=max&trails=0&projection=pca3&camera=0.3,-0.2&colour=index";
    let seeds: Vec<String> = PRESETS
        .iter()
        .map(|p| p.config().to_canonical_string() + "&n=7&v=1,2;3,4&seed=3")
        .chain(PRESETS.iter().map(|p| format!("{}&d=5{}", p.config().to_canonical_string(), view)))
        .chain(std::iter::once("preset=polytope&d=6&step=3&embed=1&projection=2,5".to_string()))
        .collect();
    crate::common::fuzz::random_strings_and_mutations(11, &seeds, "", parse, Config::to_canonical_string);
    // The same strings as links: the view keys survive the round trip too.
    crate::common::fuzz::random_strings_and_mutations(
        13,
        &seeds,
        "",
        attn_core::lab::parse_link,
        attn_core::lab::Link::to_canonical_string,
    );
}

#[test]
fn a_huge_string_is_refused_quickly() {
    let s = "n=1&".repeat(2_000_000);
    assert_eq!(parse(&s).unwrap_err().key, "config");
}

/// The keys a model family requires: what the parser sets for unwritten keys on a family change
/// and what the page's model field sets in its draft (one rule, `family_keys`).
#[test]
fn a_model_family_names_the_keys_it_requires() {
    use attn_core::particles::config::{family_keys, Integrator, Model, Space};
    assert_eq!(
        family_keys(Model::SphereSa, Integrator::Euler),
        [("integrate_in", "x"), ("coords", "x"), ("integrator", "retraction")]
    );
    assert_eq!(family_keys(Model::SphereUsa, Integrator::Rk4), [("integrate_in", "x"), ("coords", "x")]);
    assert_eq!(family_keys(Model::Euclidean, Integrator::Retraction), [("integrator", "euler")]);
    assert!(family_keys(Model::Euclidean, Integrator::Rk4).is_empty());
    // The parser applies them to the keys a link does not write.
    let c = parse("version=4&preset=polytope&model=sphere-sa").unwrap();
    assert_eq!((c.integrate_in, c.coords, c.integrator), (Space::X, Space::X, Integrator::Retraction));
}

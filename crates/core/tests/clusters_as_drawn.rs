//! The clusters as the token view draws them (science.md §1.7): from version 5 a run links
//! tokens closer than `cluster_tol` times the larger of the initial and the current spread, with
//! `cluster_tol` 0.016 by default, and its heatmap takes the order its preset suggests; a link of
//! version 4 or older keeps the initial spread, 1e-3 and the cluster order, its numbers and its
//! canonical form unchanged. The tokens are the same bits in both.

use crate::common::{run, sim};
use attn_core::lab::parse_link;
use attn_core::parse;
use attn_core::particles::analysis::clusters::{cluster_labels, spread};
use attn_core::particles::analysis::metrics::{Metrics, MetricsScratch};
use attn_core::particles::config::Preset;
use attn_core::Simulation;

fn metrics(s: &mut Simulation) -> Metrics {
    Metrics::compute(s, &mut MetricsScratch::default()).unwrap()
}

/// On `polytope` the version 5 count is the single linkage of the shown tokens at 0.016 times
/// the larger spread (the plain rule, computed here), falling from 20 to 5 as the dots merge on
/// screen; version 4 says 20 until t = 4.1. The tokens are the same bits.
#[test]
fn polytope_counts_the_dots_that_merge_and_version_4_keeps_its_numbers() {
    let mut new = sim("version=5&preset=polytope");
    let mut old = sim("version=4&preset=polytope");
    let s0 = new.initial_spread();
    let mut seen = Vec::new();
    for step in 1..=60u64 {
        run(&mut new, 1);
        run(&mut old, 1);
        assert_eq!(new.state(), old.state(), "the same tokens at step {step}");
        let z = new.state().to_vec();
        let tol_rel = 0.016 * s0.max(spread(&z, 20, 2)) / spread(&z, 20, 2);
        let want = cluster_labels(&z, 20, 2, tol_rel).0;
        let (m_new, m_old) = (metrics(&mut new), metrics(&mut old));
        assert_eq!(m_new.clusters, want, "step {step}");
        assert_eq!(m_old.clusters, cluster_labels(&z, 20, 2, 1e-3 * s0 / spread(&z, 20, 2)).0, "step {step}");
        seen.push((step, m_new.clusters, m_old.clusters));
    }
    let at = |k: u64| seen[k as usize - 1];
    assert_eq!(at(15).1, 20, "t = 1.5: no two dots within 4 px yet");
    assert!(at(24).1 < 20 && at(24).2 == 20, "t = 2.4: {:?}", at(24));
    assert_eq!((at(40).1, at(40).2), (5, 20), "t = 4: the five corners, which version 4 does not see");
}

/// Growing tokens (`coords=x`, V = I: x = e^t z): version 5 measures against the current spread,
/// as the view that follows them, so the corners are counted in x too; version 4 measured
/// against the initial spread, which the grown distances dwarf.
#[test]
fn growing_tokens_are_counted_against_their_current_spread() {
    let mut new = sim("version=5&preset=polytope&coords=x");
    let mut old = sim("version=4&preset=polytope&coords=x");
    run(&mut new, 100);
    run(&mut old, 100);
    assert_eq!((metrics(&mut new).clusters, metrics(&mut old).clusters), (5, 20));
}

/// `cluster_tol`'s default is 0.016 from version 5, 1e-3 before; each version's canonical form
/// leaves out its own default and keeps the other's.
#[test]
fn the_cluster_tol_default_is_the_links_versions() {
    assert_eq!(parse("version=5&preset=polytope").unwrap().cluster_tol, 0.016);
    assert_eq!(parse("").unwrap().cluster_tol, 0.016);
    for old in ["version=4&preset=polytope", "version=2&preset=sphere-sa", "preset=leaders"] {
        let c = parse(old).unwrap();
        assert_eq!(c.cluster_tol, 1e-3, "{old}");
        assert!(!c.to_canonical_string().contains("cluster_tol"), "{old}");
        assert!(c.differences_from_preset().is_empty(), "{old}");
    }
    assert_eq!(parse("version=4&preset=polytope").unwrap().to_canonical_string(), "version=4&preset=polytope");
    assert_eq!(
        parse("version=4&preset=polytope&cluster_tol=0.016").unwrap().to_canonical_string(),
        "version=4&preset=polytope&cluster_tol=0.016"
    );
    assert_eq!(
        parse("version=5&preset=polytope&cluster_tol=0.001").unwrap().to_canonical_string(),
        "version=5&preset=polytope&cluster_tol=1e-3"
    );
}

/// The heatmap's order: the preset's suggestion from version 5 (`leader` where attention turns
/// Boolean, `cluster` on the sphere), `cluster` before; a link naming the suggestion reads as
/// not naming it.
#[test]
fn the_heatmap_order_is_the_presets_suggestion_from_version_5() {
    assert_eq!(Preset::Polytope.suggested_order(5), "leader");
    assert_eq!(Preset::SphereSaClusters.suggested_order(5), "cluster");
    assert!(attn_core::particles::config::PRESETS.iter().all(|p| p.suggested_order(4) == "cluster"));
    for (text, order, canonical) in [
        ("version=5&preset=polytope", None, "version=5&preset=polytope"),
        ("version=5&preset=polytope&order=leader", None, "version=5&preset=polytope"),
        ("version=5&preset=polytope&order=cluster", Some("cluster"), "version=5&preset=polytope&order=cluster"),
        ("version=5&preset=sphere-sa&order=cluster", None, "version=5&preset=sphere-sa"),
        ("version=4&preset=polytope&order=cluster", None, "version=4&preset=polytope"),
        ("version=4&preset=polytope&order=leader", Some("leader"), "version=4&preset=polytope&order=leader"),
    ] {
        let l = parse_link(text).unwrap();
        assert_eq!(l.view.order, order, "{text}");
        assert_eq!(l.to_canonical_string(), canonical, "{text}");
    }
}

/// The heatmap's colour scale: the preset's suggestion from version 7 (`max`, 0 to max P, where
/// no entry of `P` comes near 1: collapse, the sphere presets, metastability), `one` before and
/// for the Euclidean presets whose `P` turns Boolean; older links keep `one` (the migrate step
/// writes it), and a link naming the suggestion reads as not naming it.
#[test]
fn the_heatmap_scale_is_the_presets_suggestion_from_version_7() {
    use attn_core::link::HEAT_SCALE_SUGGESTED;
    assert_eq!(HEAT_SCALE_SUGGESTED, 7);
    assert_eq!(Preset::SphereSaClusters.suggested_heatmap(7), "max");
    assert_eq!(Preset::Collapse.suggested_heatmap(7), "max");
    assert_eq!(Preset::Polytope.suggested_heatmap(7), "one");
    assert!(attn_core::particles::config::PRESETS.iter().all(|p| p.suggested_heatmap(6) == "one"));
    for (text, heatmap, canonical) in [
        ("version=7&preset=sphere-sa-clusters", None, "version=7&preset=sphere-sa-clusters"),
        ("version=7&preset=sphere-sa-clusters&heatmap=max", None, "version=7&preset=sphere-sa-clusters"),
        (
            "version=7&preset=sphere-sa-clusters&heatmap=one",
            Some("one"),
            "version=7&preset=sphere-sa-clusters&heatmap=one",
        ),
        ("version=7&preset=polytope&heatmap=one", None, "version=7&preset=polytope"),
        ("version=7&preset=polytope&heatmap=max", Some("max"), "version=7&preset=polytope&heatmap=max"),
        // Older links: 0 to 1 as they were drawn.
        ("version=6&preset=sphere-sa-clusters", None, "version=6&preset=sphere-sa-clusters"),
        (
            "version=6&preset=sphere-sa-clusters&heatmap=max",
            Some("max"),
            "version=6&preset=sphere-sa-clusters&heatmap=max",
        ),
        ("preset=sphere-sa", None, "version=1&preset=sphere-sa"),
    ] {
        let l = parse_link(text).unwrap();
        assert_eq!(l.view.heatmap, heatmap, "{text}");
        assert_eq!(l.to_canonical_string(), canonical, "{text}");
        assert_eq!(parse_link(canonical).unwrap(), l, "{text}");
    }
    let migrated = attn_core::link::migrate(6, vec![("preset".into(), "sphere-sa".into())]).unwrap();
    assert_eq!(migrated, [("preset".to_string(), "sphere-sa".to_string()), ("heatmap".to_string(), "one".to_string())]);
    let depth = attn_core::link::migrate(6, vec![("lab".into(), "depth".into())]).unwrap();
    assert_eq!(depth, [("lab".to_string(), "depth".to_string())], "only particle links have a heatmap scale");
}

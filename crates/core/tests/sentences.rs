//! The numbers behind the sentences the page shows about runs (key meanings, preset
//! descriptions, captions): each sentence that states what a run does is checked here against
//! the core's own numbers (the browser's `tests/e2e/claims.test.mjs` checks the drawn ones).

use crate::common::{run, sim};
use attn_core::depth::{self, DepthRun, Variant};
use attn_core::particles::analysis::metrics::{Metrics, MetricsScratch};
use attn_core::Simulation;

/// The metrics of `config` after `steps` steps.
fn metrics_at(config: &str, steps: u64) -> Metrics {
    let mut s: Simulation = sim(config);
    run(&mut s, steps);
    Metrics::compute(&mut s, &mut MetricsScratch::default()).unwrap()
}

/// `beta`'s effect: "on the sphere more clusters, lasting longer (sphere-sa-clusters at t = 15:
/// 1 at β = 1, 3 at β = 4); in R^d the same limit (polytope: the same vertices at β = 1 and 5)".
#[test]
fn larger_beta_gives_more_clusters_on_the_sphere_and_the_same_polytope() {
    let sphere = |beta: &str| metrics_at(&format!("version=4&preset=sphere-sa-clusters&beta={beta}"), 150).clusters;
    assert_eq!((sphere("1"), sphere("4")), (1, 3));
    // ... and the three at β = 4 last to the end of the run (t = 30).
    assert_eq!(metrics_at("version=4&preset=sphere-sa-clusters", 300).clusters, 3);
    let polytope = |beta: &str| metrics_at(&format!("version=4&preset=polytope&beta={beta}"), 200).clusters;
    assert_eq!(polytope("1"), polytope("5"));
}

/// `random-psd`: "the rescaled tokens end on parallel lines normal to ψ₁": two hyperplanes at
/// t = 20 (and, by version 4's clusters, most tokens still apart on them).
#[test]
fn random_psd_ends_on_parallel_lines() {
    let m = metrics_at("version=4&preset=random-psd", 200);
    assert_eq!(m.hyperplanes, Some(2));
    assert!(m.clusters > 10, "{} clusters of 20 tokens", m.clusters);
}

/// The depth lab's rank-collapse caption: "SAN+MLP ... collapses too (the MLP does not stop
/// it)": on `collapse-small` its relative residual at the last layer is at round-off, like SAN's.
#[test]
fn san_mlp_collapses_too() {
    let c = depth::parse("version=4&lab=depth&preset=collapse-small").unwrap();
    let mut run = DepthRun::new(&c);
    for v in [Variant::San, Variant::SanMlp] {
        let last = *run.run_variant(v).residual.last().unwrap();
        assert!(last < 1e-12, "{}: last residual {last:e}", v.name());
    }
    let skip = *run.run_variant(Variant::SanSkip).residual.last().unwrap();
    assert!(skip > 0.5, "SAN+skip stays near its start: {skip}");
}

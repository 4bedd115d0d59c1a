//! The page's timeline (docs/particle-lab.md, "Timeline"): a run put back at a kept step with
//! `Simulation::restore` and stepped on gives the bits stepping from step 0 gives, in the
//! integrated coordinates and in the ones shown (`integrate_in=z&coords=x`, a sphere run, RK4 in
//! x); the metrics history keeps earlier steps in order when the timeline goes back.

use attn_core::particles::analysis::history::History;
use attn_core::particles::analysis::metrics::separation_of_state;
use attn_core::particles::analysis::{Metrics, MetricsScratch};
use attn_core::particles::config::Space;
use attn_core::run::Status;
use attn_core::{parse, Simulation};

const CONFIGS: [&str; 4] = [
    "preset=polytope&integrate_in=z&coords=x",
    "preset=sphere-sa-clusters&n=20",
    "preset=collapse&n=15",
    "preset=hyperplanes&n=25&integrator=rk4",
];

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn shown(sim: &mut Simulation, coords: Space) -> Vec<f64> {
    let mut out = vec![0.0; sim.n() * sim.d()];
    sim.tokens_in(coords, &mut out);
    out
}

#[test]
fn a_restored_run_continues_with_the_bits_of_stepping_from_zero() {
    let (k, m) = (37u64, 23u64);
    for text in CONFIGS {
        let c = parse(text).unwrap();
        let mut straight = Simulation::new(&c);
        for _ in 0..k + m {
            straight.step().unwrap();
        }
        // The timeline's copy: the state kept at step k, restored into a run that went further.
        let mut keeper = Simulation::new(&c);
        for _ in 0..k {
            keeper.step().unwrap();
        }
        let kept = keeper.state().to_vec();
        for _ in 0..60 {
            keeper.step().unwrap();
        }
        keeper.restore(k, &kept).unwrap();
        assert_eq!(keeper.step_count(), k);
        for _ in 0..m {
            keeper.step().unwrap();
        }
        assert_eq!(keeper.step_count(), k + m, "{}", text);
        assert_eq!(bits(keeper.state()), bits(straight.state()), "{}: integrated state", text);
        assert_eq!(bits(&shown(&mut keeper, c.coords)), bits(&shown(&mut straight, c.coords)), "{}: shown", text);
        // A fresh run restored from the kept state too (the page's run is replaced at times).
        let mut fresh = Simulation::new(&c);
        fresh.restore(k, &kept).unwrap();
        for _ in 0..m {
            fresh.step().unwrap();
        }
        assert_eq!(bits(fresh.state()), bits(straight.state()), "{}: fresh run", text);
    }
}

#[test]
fn restore_sets_the_status_from_the_step_and_refuses_bad_states() {
    let c = parse("preset=polytope&until=1").unwrap(); // 10 steps
    let mut sim = Simulation::new(&c);
    let start = sim.state().to_vec();
    for _ in 0..10 {
        sim.step().unwrap();
    }
    assert_eq!(sim.status(), &Status::Finished);
    sim.restore(0, &start).unwrap();
    assert_eq!(sim.status(), &Status::Running);
    assert_eq!(sim.t(), 0.0);
    assert!(sim.restore(3, &start[1..]).is_err());
    let mut bad = start.clone();
    bad[0] = f64::NAN;
    assert!(sim.restore(3, &bad).is_err());
    assert_eq!(sim.step_count(), 0, "a refused state leaves the run as it was");
}

#[test]
fn the_history_keeps_earlier_steps_in_order() {
    let c = parse("preset=polytope").unwrap();
    let mut sim = Simulation::new(&c);
    let mut scratch = MetricsScratch::default();
    let mut h = History::default();
    let mut at = |sim: &mut Simulation, h: &mut History| {
        let m = Metrics::compute(sim, &mut scratch).unwrap();
        let separation = separation_of_state(sim, &mut scratch, &m);
        h.push(sim.step_count(), sim.t(), &m, separation);
    };
    for _ in 0..3 {
        sim.step().unwrap();
    }
    at(&mut sim, &mut h); // step 3
    for _ in 0..3 {
        sim.step().unwrap();
    }
    at(&mut sim, &mut h); // step 6
    let mut early = Simulation::new(&c);
    at(&mut early, &mut h); // step 0, after 6: inserted first, nothing lost
    sim.step().unwrap();
    at(&mut sim, &mut h); // step 7
    at(&mut sim, &mut h); // step 7 again: replaced
    assert_eq!(h.step, vec![0, 3, 6, 7]);
    assert_eq!(h.t.len(), 4);
    assert_eq!(h.clusters.len(), 4);
    assert_eq!(h.energy.len(), 4);
    let near = h.nearest(0.31).unwrap();
    assert_eq!(near.step, 3);
    h.remove(6);
    h.remove(5); // not recorded: nothing changes
    assert_eq!(h.step, vec![0, 3, 7]);
    assert_eq!((h.t.len(), h.clusters.len(), h.boolean_distance.len(), h.effective_rank.len()), (3, 3, 3, 3));
    assert_eq!((h.energy.len(), h.hyperplanes.len()), (3, 3));
    assert_eq!(h.t[2].to_bits(), (7.0 * c.dt).to_bits());
}

//! Stable cluster identities (analysis::identity, the view key `colour=clusters`): a token's colour slot at
//! step k depends only on the configuration and k, however the run got there, and a cluster keeps
//! its slot as it grows.

use attn_core::particles::analysis::identity::{sample_every, Tracker, NONE};
use attn_core::particles::analysis::metrics::labels_of_state;
use attn_core::{parse, Simulation};

/// Slots of the state shown at step `k`, reached by `chunks` steps per call (the last chunk cut).
fn slots_at(config: &str, k: u64, chunk: u64) -> Vec<u32> {
    let c = parse(config).unwrap();
    let mut sim = Simulation::new(&c);
    let mut tracker = Tracker::new(&mut sim);
    while sim.step_count() < k {
        let want = chunk.min(k - sim.step_count());
        assert_eq!(tracker.advance(&mut sim, want, true), want);
    }
    let (mut tokens, mut labels, mut parent) = (Vec::new(), Vec::new(), Vec::new());
    labels_of_state(&mut sim, &mut tokens, &mut labels, &mut parent);
    tracker.slots_for(k, &labels)
}

#[test]
fn played_and_jumped_to_steps_give_the_same_slots() {
    // until 400 / 0.1 = 4000 steps: samples every 13, so 37 and 100 fall between samples.
    let config = "version=4&preset=polytope&n=30&until=400";
    assert_eq!(sample_every(4000), 13);
    for k in [13, 37, 100, 260] {
        let jumped = slots_at(config, k, k);
        assert_eq!(slots_at(config, k, 1), jumped, "step {k}, one step at a time");
        assert_eq!(slots_at(config, k, 7), jumped, "step {k}, seven steps at a time");
        if k >= 100 {
            assert!(jumped.iter().any(|&s| s != NONE), "step {k}: some cluster formed");
        }
    }
}

#[test]
fn clusters_keep_their_slot_as_they_grow_and_live_clusters_differ() {
    let c = parse("version=4&preset=polytope-3d").unwrap();
    let mut sim = Simulation::new(&c);
    let mut tracker = Tracker::new(&mut sim);
    let mut prev = tracker.identities().slots().to_vec();
    let mut grown = 0;
    while tracker.advance(&mut sim, 1, false) == 1 {
        let now = tracker.identities().slots().to_vec();
        // Every cluster of now: its tokens that had a slot before mostly had its slot (it
        // inherited the largest previous cluster inside it).
        let mut slots: Vec<u32> = now.iter().copied().filter(|&s| s != NONE).collect();
        slots.sort_unstable();
        slots.dedup();
        for &s in &slots {
            let members: Vec<usize> = (0..now.len()).filter(|&i| now[i] == s).collect();
            let mut counts = std::collections::BTreeMap::new();
            for &i in &members {
                if prev[i] != NONE {
                    *counts.entry(prev[i]).or_insert(0usize) += 1;
                }
            }
            if let Some((&top, _)) = counts.iter().max_by_key(|(&slot, &c)| (c, std::cmp::Reverse(slot))) {
                if counts.len() == 1 {
                    assert_eq!(top, s, "a cluster grown from one cluster keeps its slot");
                    grown += usize::from(members.len() > counts[&top]);
                }
            }
        }
        prev = now;
    }
    assert!(grown > 0, "some cluster grew during the run");
    // At the end every token is in a cluster, and as many slots as clusters are live.
    let (mut tokens, mut labels, mut parent) = (Vec::new(), Vec::new(), Vec::new());
    let count = labels_of_state(&mut sim, &mut tokens, &mut labels, &mut parent);
    let end = tracker.slots_for(sim.step_count(), &labels);
    let mut live: Vec<u32> = end.iter().copied().filter(|&s| s != NONE).collect();
    live.sort_unstable();
    live.dedup();
    let clustered = (0..labels.len()).filter(|&i| labels.iter().filter(|&&l| l == labels[i]).count() >= 2).count();
    assert_eq!(end.iter().filter(|&&s| s != NONE).count(), clustered);
    assert!(live.len() <= count && !live.is_empty());
    // Two tokens share a slot exactly when they share a cluster.
    for i in 0..end.len() {
        for j in 0..end.len() {
            if end[i] != NONE && end[j] != NONE {
                assert_eq!(end[i] == end[j], labels[i] == labels[j], "tokens {i}, {j}");
            }
        }
    }
}

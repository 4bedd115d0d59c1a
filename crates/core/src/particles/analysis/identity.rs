//! Stable cluster identities for colouring tokens (the view key `colour=clusters`): a token's colour at step `k`
//! depends only on the configuration and `k`, so a played run, a `step=` link, a PNG and an embed
//! agree.
//!
//! Identities are tracked at fixed sample steps `0, E, 2E, ...` ([`sample_every`], the chart's
//! cadence: about 300 samples over `[0, until]`). At each sample step the single-linkage clusters
//! of two or more tokens ([`super::clusters`]) are matched to the previous sample's identities:
//! a cluster inherits the identity of the previous cluster that gave it the most tokens (the
//! largest cluster that merged into it; ties: the smaller slot), each identity going to one
//! cluster only; a cluster that inherits nothing takes the smallest slot no live cluster holds.
//! Tokens alone have no identity ([`NONE`], drawn grey). A slot is what the page draws: colour
//! `slot % palette` and, past the palette, a marker shape `slot / palette`. Live clusters always
//! hold different slots, and a growing cluster keeps its slot.
//!
//! Between sample steps the colours of the state shown are the same matching applied to the last
//! sample's identities, without committing it ([`Identities::provisional`]).

use super::metrics::labels_of_state;
use crate::particles::sim::Simulation;
use crate::run::Stepping;

/// The slot of a token in no cluster of two or more tokens.
pub const NONE: u32 = u32::MAX;

/// Samples over `[0, until]` the tracking (and the page's chart) aims at.
pub const SAMPLES: u64 = 300;

/// Steps between identity samples for a run that stops after `until_steps` steps:
/// `max(1, until_steps / 300)`, or 10 for a run without an end (`until = 0`).
pub fn sample_every(until_steps: u64) -> u64 {
    if until_steps == 0 {
        10
    } else {
        (until_steps / SAMPLES).max(1)
    }
}

/// The cluster identities of one run, committed at its sample steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identities {
    every: u64,
    /// The step of the last committed sample (`None` before the first).
    last: Option<u64>,
    /// Slot of each token at the last committed sample ([`NONE`]: alone).
    slots: Vec<u32>,
}

impl Identities {
    /// No sample yet, for `n` tokens sampled every `every` steps ([`sample_every`]).
    pub fn new(n: usize, every: u64) -> Identities {
        Identities { every: every.max(1), last: None, slots: vec![NONE; n] }
    }

    /// Steps between samples.
    pub fn every(&self) -> u64 {
        self.every
    }

    /// Whether `step` is a sample step not yet committed (the next one due).
    pub fn due(&self, step: u64) -> bool {
        step.is_multiple_of(self.every) && self.last.is_none_or(|l| step > l)
    }

    /// The step of the last committed sample.
    pub fn last_step(&self) -> Option<u64> {
        self.last
    }

    /// Slots at the last committed sample.
    pub fn slots(&self) -> &[u32] {
        &self.slots
    }

    /// Commits the sample at `step` from its cluster `labels` (one per token, `0..count`).
    pub fn commit(&mut self, step: u64, labels: &[u32]) {
        self.slots = assign(&self.slots, labels);
        self.last = Some(step);
    }

    /// Puts back identities saved from this run ([`Identities::last_step`], [`Identities::slots`])
    /// when the run is put back at an earlier state (the page's timeline): committing then goes
    /// on from that sample as it did the first time. Errors (nothing changed) when `slots` is not
    /// one per token or `last` is not a sample step.
    pub fn restore(&mut self, last: Option<u64>, slots: &[u32]) -> Result<(), String> {
        if slots.len() != self.slots.len() {
            return Err(format!("{} slots for {} tokens", slots.len(), self.slots.len()));
        }
        if last.is_some_and(|l| !l.is_multiple_of(self.every)) {
            return Err(format!("step {} is not a sample step (every {})", last.unwrap_or(0), self.every));
        }
        self.last = last;
        self.slots = slots.to_vec();
        Ok(())
    }

    /// The slots of a state whose cluster labels are `labels`, matched to the last committed
    /// sample without changing it (the state shown between two sample steps).
    pub fn provisional(&self, labels: &[u32]) -> Vec<u32> {
        assign(&self.slots, labels)
    }
}

/// A run's [`Identities`] fed at its sample steps: step the simulation through
/// [`Tracker::advance`] (or call [`Tracker::observe`] after every step taken elsewhere) and each
/// sample step's clusters are committed on the way, whatever the steps per call.
#[derive(Clone, Debug)]
pub struct Tracker {
    ids: Identities,
    tokens: Vec<f64>,
    labels: Vec<u32>,
    parent: Vec<usize>,
}

impl Tracker {
    /// The tracker of `sim`'s run, committing its state now if that is a sample step (step 0).
    pub fn new(sim: &mut Simulation) -> Tracker {
        let every = sample_every(sim.until_steps());
        let mut t = Tracker {
            ids: Identities::new(sim.n(), every),
            tokens: Vec::new(),
            labels: Vec::new(),
            parent: Vec::new(),
        };
        t.observe(sim);
        t
    }

    /// The identities committed so far.
    pub fn identities(&self) -> &Identities {
        &self.ids
    }

    /// Puts back the identities of an earlier state of the same run (see [`Identities::restore`]).
    pub fn restore(&mut self, last: Option<u64>, slots: &[u32]) -> Result<(), String> {
        self.ids.restore(last, slots)
    }

    /// Commits the current state's clusters if its step is a sample step not yet committed.
    pub fn observe(&mut self, sim: &mut Simulation) {
        let step = sim.step_count();
        if self.ids.due(step) {
            labels_of_state(sim, &mut self.tokens, &mut self.labels, &mut self.parent);
            self.ids.commit(step, &self.labels);
        }
    }

    /// Up to `k` steps of `sim` (past `until` when `past_end`), stopping at every sample step
    /// to commit it; returns the steps taken (as [`Stepping::advance`]).
    pub fn advance(&mut self, sim: &mut Simulation, k: u64, past_end: bool) -> u64 {
        let mut taken = 0;
        while taken < k {
            let step = sim.step_count();
            let to_next = self.ids.every() - step % self.ids.every();
            let chunk = (k - taken).min(to_next);
            let got = if past_end { sim.advance_past_end(chunk) } else { sim.advance(chunk) };
            taken += got;
            self.observe(sim);
            if got < chunk {
                break;
            }
        }
        taken
    }

    /// Each token's slot for the cluster `labels` of the state at `step`: the committed slots
    /// when `step` is the last sample, else [`Identities::provisional`].
    pub fn slots_for(&self, step: u64, labels: &[u32]) -> Vec<u32> {
        if self.ids.last_step() == Some(step) && labels.len() == self.ids.slots().len() {
            self.ids.slots().to_vec()
        } else {
            self.ids.provisional(labels)
        }
    }
}

/// Matches the clusters of `labels` to the slots `prev` of the previous sample (see the module
/// comment) and returns each token's slot.
pub fn assign(prev: &[u32], labels: &[u32]) -> Vec<u32> {
    let n = labels.len();
    let count = labels.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
    let mut size = vec![0usize; count];
    let mut first = vec![usize::MAX; count];
    for (i, &l) in labels.iter().enumerate() {
        size[l as usize] += 1;
        first[l as usize] = first[l as usize].min(i);
    }
    // Overlaps (current cluster, previous slot) -> tokens in both, for clusters of 2 or more.
    let mut pairs: Vec<(usize, u32, usize)> = Vec::new(); // (cluster, slot, overlap)
    {
        let mut keyed: Vec<(usize, u32)> = (0..n)
            .filter(|&i| size[labels[i] as usize] >= 2 && prev.get(i).is_some_and(|&s| s != NONE))
            .map(|i| (labels[i] as usize, prev[i]))
            .collect();
        keyed.sort_unstable();
        for (c, s) in keyed {
            match pairs.last_mut() {
                Some(last) if last.0 == c && last.1 == s => last.2 += 1,
                _ => pairs.push((c, s, 1)),
            }
        }
    }
    // Largest overlap first; ties: the smaller slot, then the cluster whose first token comes first.
    pairs.sort_by_key(|&(c, s, o)| (std::cmp::Reverse(o), s, first[c]));
    let mut slot_of = vec![NONE; count];
    let mut taken: Vec<u32> = Vec::new();
    for (c, s, _) in pairs {
        if slot_of[c] == NONE && !taken.contains(&s) {
            slot_of[c] = s;
            taken.push(s);
        }
    }
    // Clusters without an inherited slot, in order of their first token: the smallest free slot.
    let mut fresh: Vec<usize> = (0..count).filter(|&c| size[c] >= 2 && slot_of[c] == NONE).collect();
    fresh.sort_by_key(|&c| first[c]);
    let mut next = 0u32;
    for c in fresh {
        while taken.contains(&next) {
            next += 1;
        }
        slot_of[c] = next;
        taken.push(next);
    }
    labels.iter().map(|&l| if size[l as usize] >= 2 { slot_of[l as usize] } else { NONE }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growing_cluster_keeps_its_slot_and_new_ones_take_free_slots() {
        // Tokens 0,1 cluster; then 2 joins them and 3,4 form a new cluster.
        let a = assign(&[NONE; 5], &[0, 0, 1, 2, 3]);
        assert_eq!(a, vec![0, 0, NONE, NONE, NONE]);
        let b = assign(&a, &[0, 0, 0, 1, 1]);
        assert_eq!(b, vec![0, 0, 0, 1, 1]);
        // Labels are renumbered by first token: the grown cluster keeps slot 0 whatever its label.
        let c = assign(&a, &[1, 1, 1, 0, 0]);
        assert_eq!(c, vec![0, 0, 0, 1, 1]);
    }

    #[test]
    fn a_merge_inherits_the_largest_cluster_and_frees_the_other_slot() {
        let prev = [0, 0, 0, 1, 1, 2, 2];
        let now = assign(&prev, &[0, 0, 0, 0, 0, 1, 1]);
        assert_eq!(now, vec![0, 0, 0, 0, 0, 2, 2]);
        // Slot 1 is free again: a new cluster takes it.
        let later = assign(&now, &[0, 0, 0, 0, 0, 1, 2]);
        assert_eq!(later, vec![0, 0, 0, 0, 0, NONE, NONE]);
        let again = assign(&[0, 0, 0, 0, NONE, NONE, 2], &[0, 0, 0, 0, 1, 1, 2]);
        assert_eq!(again, vec![0, 0, 0, 0, 1, 1, NONE]);
    }

    #[test]
    fn a_split_gives_the_slot_to_the_larger_part_only() {
        let now = assign(&[3, 3, 3, 3, 3], &[0, 0, 1, 1, 1]);
        assert_eq!(now, vec![0, 0, 3, 3, 3]);
    }

    #[test]
    fn sample_steps_are_the_charts() {
        assert_eq!(sample_every(200), 1);
        assert_eq!(sample_every(4000), 13);
        assert_eq!(sample_every(0), 10);
        let mut ids = Identities::new(3, 2);
        assert!(ids.due(0));
        ids.commit(0, &[0, 0, 1]);
        assert!(!ids.due(0) && !ids.due(1) && ids.due(2));
        assert_eq!(ids.provisional(&[0, 0, 0]), vec![0, 0, 0]);
        assert_eq!(ids.slots(), &[0, 0, NONE]);
    }
}

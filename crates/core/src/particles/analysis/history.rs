//! The metrics of a particle run sampled over time, as the page's chart keeps them: one sample
//! per step at which the metrics were computed, at most [`MAX_SAMPLES`] (every other sample
//! dropped beyond), and the sample nearest to a time.

use super::Metrics;
use serde::Serialize;

/// Most samples kept; beyond this every other sample is dropped (the chart stays cheap).
pub const MAX_SAMPLES: usize = 4000;

/// Metrics sampled over time (one entry per computation at a new step): what the page's chart
/// draws and its hover reads.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Time of each sample (time units).
    pub t: Vec<f64>,
    /// Step of each sample.
    pub step: Vec<u64>,
    /// Number of clusters.
    pub clusters: Vec<f64>,
    /// Boolean distance `max |P - round P|`.
    pub boolean_distance: Vec<f64>,
    /// Effective rank of `P`.
    pub effective_rank: Vec<f64>,
    /// Interaction energy, NaN when it is not defined.
    pub energy: Vec<f64>,
    /// The `hyperplanes` metric, NaN when it is not defined.
    pub hyperplanes: Vec<f64>,
    /// The separation ratio of the groups the count counts
    /// ([`super::metrics::separation_of_state`]): the plateaus' settled test.
    pub separation: Vec<f64>,
}

/// One sample of the history (what the hover readout shows).
#[derive(Clone, Debug, Serialize)]
pub struct Sample {
    /// Time (time units).
    pub t: f64,
    /// Step.
    pub step: u64,
    /// Number of clusters.
    pub clusters: f64,
    /// Boolean distance.
    pub boolean_distance: f64,
    /// Effective rank.
    pub effective_rank: f64,
    /// Interaction energy (`None` when not defined).
    pub energy: Option<f64>,
    /// The `hyperplanes` metric (`None` when not defined).
    pub hyperplanes: Option<f64>,
}

impl History {
    /// Records the metrics of step `step` at time `t` (with the separation ratio of its groups,
    /// [`super::metrics::separation_of_state`]), in step order: a sample at an already
    /// recorded step replaces it, an earlier step (the page's timeline went back and the run
    /// continues from there, through the same states) is inserted in its place. Keeps at most
    /// [`MAX_SAMPLES`] samples by dropping every other one.
    pub fn push(&mut self, step: u64, t: f64, m: &Metrics, separation: f64) {
        let i = self.step.partition_point(|&s| s < step);
        let energy = m.energy.unwrap_or(f64::NAN);
        let hyperplanes = m.hyperplanes.map_or(f64::NAN, |h| h as f64);
        let row = [t, m.clusters as f64, m.boolean_distance, m.effective_rank, energy, hyperplanes, separation];
        if self.step.get(i) == Some(&step) {
            for (v, x) in self.columns().into_iter().zip(row) {
                v[i] = x;
            }
            return;
        }
        self.step.insert(i, step);
        for (v, x) in self.columns().into_iter().zip(row) {
            v.insert(i, x);
        }
        if self.t.len() > MAX_SAMPLES {
            self.decimate();
        }
    }

    /// Forgets the sample of step `step`, if there is one (the page's chart keeps a sample of a
    /// step that is not one of the fixed sample steps only while that step is shown: the chart
    /// is then a function of the steps reached, not of where the frames happened to stop).
    pub fn remove(&mut self, step: u64) {
        let i = self.step.partition_point(|&s| s < step);
        if self.step.get(i) != Some(&step) {
            return;
        }
        self.step.remove(i);
        for v in self.columns() {
            v.remove(i);
        }
    }

    /// The numeric columns, in the order `push` writes them.
    fn columns(&mut self) -> [&mut Vec<f64>; 7] {
        [
            &mut self.t,
            &mut self.clusters,
            &mut self.boolean_distance,
            &mut self.effective_rank,
            &mut self.energy,
            &mut self.hyperplanes,
            &mut self.separation,
        ]
    }

    fn decimate(&mut self) {
        let last = self.t.len() - 1;
        let keep = |v: &mut Vec<f64>| {
            let mut i = 0;
            v.retain(|_| {
                let k = i % 2 == 0 || i == last;
                i += 1;
                k
            });
        };
        for v in self.columns() {
            keep(v);
        }
        let mut i = 0;
        self.step.retain(|_| {
            let k = i % 2 == 0 || i == last;
            i += 1;
            k
        });
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether no sample was recorded.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// The counts the chart's first panel draws: `hyperplanes` where every sample has it (the
    /// run's `psi1` is defined), else `clusters`; with the metric's name.
    pub fn counts(&self) -> (&'static str, &[f64]) {
        if !self.hyperplanes.is_empty() && self.hyperplanes.iter().all(|h| !h.is_nan()) {
            ("hyperplanes", &self.hyperplanes)
        } else {
            ("clusters", &self.clusters)
        }
    }

    /// The plateaus ([`super::plateaus::plateaus`], at least [`super::plateaus::MIN_PLATEAU`]
    /// time units, over settled samples) of the count the chart draws ([`History::counts`]).
    pub fn plateaus(&self) -> Vec<super::plateaus::Plateau> {
        super::plateaus::plateaus(&self.t, self.counts().1, &self.separation, super::plateaus::MIN_PLATEAU)
    }

    /// The sample closest in time to `t`, if any.
    pub fn nearest(&self, t: f64) -> Option<Sample> {
        if self.t.is_empty() || t.is_nan() {
            return None;
        }
        let i = self.t.partition_point(|&x| x < t);
        let i = if i == 0 {
            0
        } else if i >= self.t.len() {
            self.t.len() - 1
        } else if (self.t[i] - t).abs() < (t - self.t[i - 1]).abs() {
            i
        } else {
            i - 1
        };
        Some(Sample {
            t: self.t[i],
            step: self.step[i],
            clusters: self.clusters[i],
            boolean_distance: self.boolean_distance[i],
            effective_rank: self.effective_rank[i],
            energy: Some(self.energy[i]).filter(|e| !e.is_nan()),
            hyperplanes: Some(self.hyperplanes[i]).filter(|e| !e.is_nan()),
        })
    }
}

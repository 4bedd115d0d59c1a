//! The run protocol every lab shares: where a run stands ([`Status`]), how it takes steps
//! ([`Stepping`]), what stops it ([`Divergence`]), and the clock's conversions (`t = step * dt`).
//! The particle lab's `Simulation` and the training lab's `Trainer` implement [`Stepping`]; the
//! page's run loop and the CLI drive either through it.

/// What went wrong when a state cannot be stepped (the run pauses with this message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// A sentence for the user: what overflowed and what to change.
    pub message: String,
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// More steps can be taken.
    Running,
    /// `t` reached the configuration's `until`.
    Finished,
    /// A step overflowed; the state is the last good one. The message says what and what to change.
    Diverged(String),
}

/// A run that moves one step at a time: the particle [`Simulation`] and the training lab's
/// `Trainer`. The ways of taking several steps are written once, here.
pub trait Stepping {
    /// Takes one step; on a divergence the run keeps its last good state and reports why.
    fn step(&mut self) -> Result<(), Divergence>;

    /// Where the run stands.
    fn status(&self) -> &Status;

    /// Takes up to `k` steps, stopping at the run's end (`until`, `iterations`) or at a
    /// divergence; returns the steps taken.
    fn advance(&mut self, k: u64) -> u64 {
        let mut taken = 0;
        while taken < k && *self.status() == Status::Running {
            if self.step().is_err() {
                break;
            }
            taken += 1;
        }
        taken
    }

    /// Takes up to `k` steps even past the run's end (the user asked for more), stopping only at
    /// a divergence; returns the steps taken.
    fn advance_past_end(&mut self, k: u64) -> u64 {
        let mut taken = 0;
        while taken < k && self.step().is_ok() {
            taken += 1;
        }
        taken
    }
}

/// `round(until / dt)`: `--until` and preset times converted to whole steps.
pub fn steps_for(until: f64, dt: f64) -> u64 {
    let s = (until / dt).round();
    if s <= 0.0 {
        0
    } else {
        s as u64
    }
}

/// `t` for messages: at most 10 significant digits, so `43.550000000000004` reads `43.55`.
pub fn format_time(t: f64) -> String {
    let rounded: f64 = format!("{:.9e}", t).parse().unwrap_or(t);
    crate::link::format_f64(rounded)
}

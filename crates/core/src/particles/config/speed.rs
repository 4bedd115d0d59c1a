//! The page's play speed of a particle run (the view key `speed`, steps per frame): the speeds
//! its slider offers and the one a configuration suggests when a link does not write `speed`,
//! so that a preset plays to its `until` in about [`PLAY_SECONDS`], slowly enough to be
//! watched. A speed never changes a number: only how many steps a frame shows.

use super::Config;
use crate::run::steps_for;

/// Steps per frame the speed slider offers; below 1, a step every few frames (0.2: every 5th).
pub const SPEEDS: [f64; 15] = [0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0];

/// The page's frame rate the suggestion assumes (animation frames per second).
pub const FRAMES_PER_SECOND: f64 = 60.0;

/// Seconds in which the suggested speed plays a run to its `until`.
pub const PLAY_SECONDS: f64 = 15.0;

/// The offered speed nearest (on a log scale) to `steps / (PLAY_SECONDS * FRAMES_PER_SECOND)`:
/// a run of `steps` steps then plays to its end in 10 to 22 s, within the slider's range.
pub fn suggested_speed_for(steps: u64) -> f64 {
    let want = (steps as f64 / (PLAY_SECONDS * FRAMES_PER_SECOND)).max(f64::MIN_POSITIVE);
    let dist = |s: f64| (s.ln() - want.ln()).abs();
    SPEEDS.iter().copied().fold(SPEEDS[0], |best, s| if dist(s) < dist(best) { s } else { best })
}

/// The speed configuration `c` suggests: from its number of steps to `until`
/// (`round(until / dt)`), so a preset's suggestion follows its `until` and `dt` and an edited
/// `until` plays in about the same time.
pub fn suggested_speed(c: &Config) -> f64 {
    suggested_speed_for(steps_for(c.until, c.dt))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::LabPreset;
    use crate::particles::config::PRESETS;

    #[test]
    fn every_preset_plays_to_until_in_10_to_20_seconds() {
        for p in PRESETS {
            let c = p.config();
            let s = suggested_speed(&c);
            let secs = steps_for(c.until, c.dt) as f64 / s / FRAMES_PER_SECOND;
            assert!((10.0..=20.0).contains(&secs), "{}: speed {} plays {} s", p.name(), s, secs);
        }
    }

    #[test]
    fn the_suggestion_is_an_offered_speed_and_follows_the_steps() {
        assert_eq!(suggested_speed_for(200), 0.2);
        assert_eq!(suggested_speed_for(100), 0.1);
        assert_eq!(suggested_speed_for(1000), 1.0);
        assert_eq!(suggested_speed_for(0), 0.1);
        assert_eq!(suggested_speed_for(100_000_000), 1000.0);
        for k in [1, 7, 150, 300, 4000, 123_456] {
            assert!(SPEEDS.contains(&suggested_speed_for(k)));
        }
    }
}

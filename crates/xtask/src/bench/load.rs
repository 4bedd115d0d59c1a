//! The machine's 1-minute load average, read before each timing (the benchmark runs on a shared
//! 2-core machine): a line measured at [`BUSY_LOAD`] or more is printed as "busy: not measured"
//! and counts as not met.

/// A 1-minute load average at or above which a timing is not a measurement: the machine has 2
/// cores, so the work shared them with others.
pub const BUSY_LOAD: f64 = 2.5;

/// The 1-minute load average now (None where /proc/loadavg cannot be read).
pub fn one_minute() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// Whether a timing taken at `load` is no measurement ([`BUSY_LOAD`] or more).
pub fn busy(load: Option<f64>) -> bool {
    load.is_some_and(|l| l >= BUSY_LOAD)
}

/// A target's verdict: "busy: not measured" when `load` is [`BUSY_LOAD`] or more, else "met" or
/// "NOT met".
pub fn verdict(met: bool, load: Option<f64>) -> &'static str {
    match (busy(load), met) {
        (true, _) => "busy: not measured",
        (false, true) => "met",
        (false, false) => "NOT met",
    }
}

/// The load, for printing beside a line ("load 1.23", or "load ?").
pub fn shown(load: Option<f64>) -> String {
    load.map_or("load ?".to_string(), |l| format!("load {l:.2}"))
}

/// The larger of two loads (a line comparing two timings is as busy as the busier one).
pub fn worse(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_line_is_never_met() {
        assert_eq!(verdict(true, Some(1.0)), "met");
        assert_eq!(verdict(false, Some(1.0)), "NOT met");
        assert_eq!(verdict(true, Some(2.5)), "busy: not measured");
        assert_eq!(verdict(true, None), "met");
        assert_eq!(worse(Some(1.0), Some(3.0)), Some(3.0));
        assert_eq!(worse(None, Some(0.5)), Some(0.5));
        assert_eq!(shown(Some(1.234)), "load 1.23");
    }
}

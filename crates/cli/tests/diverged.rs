//! `attn run` on a run that diverges: the last good state (the step the divergence message
//! names, the state the page shows and exports) is printed whatever `--every`, with
//! `"metrics": null` when its attention scores overflow (docs/cli.md, exit status 3).

use crate::attn;

/// The step the divergence message names: "Paused at t = ... (step N): ...".
fn paused_step(stderr: &str) -> u64 {
    let at = stderr.find("(step ").unwrap_or_else(|| panic!("no step in {:?}", stderr));
    let rest = &stderr[at + 6..];
    rest[..rest.find(')').expect("closing parenthesis")].parse().expect("a step")
}

/// The steps of the CSV rows (`step,t,i,...`), in order, without repeats.
fn csv_steps(out: &str) -> Vec<u64> {
    let mut steps: Vec<u64> = Vec::new();
    for line in out.lines().skip(1) {
        let step = line.split(',').next().and_then(|s| s.parse().ok()).expect("a step");
        if steps.last() != Some(&step) {
            steps.push(step);
        }
    }
    steps
}

#[test]
fn every_step_prints_the_last_good_state_even_when_its_metrics_overflow() {
    // dt = 1: the attention scores overflow at the state of step 5875 (its metrics cannot be
    // computed), and the step after it diverges.
    let config = "version=2&preset=hyperplanes&dt=1";
    let (code, out, err) = attn(&["run", "--config", config, "--until", "1e6", "--every", "1", "--format", "csv"]);
    assert_eq!(code, 3, "{}", err);
    let last = paused_step(&err);
    assert_eq!(last, 5875, "{}", err);
    let steps = csv_steps(&out);
    assert_eq!(steps.len() as u64, last + 1, "every step from 0 to the last good one");
    assert_eq!(steps.last(), Some(&last));
    assert_eq!(out.lines().filter(|l| l.starts_with(&format!("{},", last))).count(), 40, "one row per token");

    // The same state with --every 2 (printed as the last good state, not a due frame).
    let (_, every2, _) = attn(&["run", "--config", config, "--until", "1e6", "--every", "2", "--format", "csv"]);
    let tail =
        |s: &str| s.lines().filter(|l| l.starts_with(&format!("{},", last))).map(String::from).collect::<Vec<_>>();
    assert_eq!(tail(&out), tail(&every2));

    // JSON: the last frame is that state, with null metrics; the one before has metrics.
    let (code, json, _) = attn(&["run", "--config", config, "--until", "1e6", "--format", "json"]);
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON output");
    let frames = v["frames"].as_array().expect("frames");
    let end = &frames[frames.len() - 1];
    assert_eq!(end["step"], last);
    assert!(end["metrics"].is_null(), "{}", end["metrics"]);
    assert!(frames[frames.len() - 2]["metrics"].is_object());
}

#[test]
fn a_run_whose_metrics_overflow_at_its_last_step_prints_it_and_says_so() {
    // Stopping at step 5875: the run ends on that state, which is printed; the overflow is
    // reported (exit status 3) rather than a clean end.
    let (code, out, err) = attn(&[
        "run",
        "--config",
        "version=2&preset=hyperplanes&dt=1",
        "--until",
        "5875",
        "--every",
        "5875",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 3, "{}", err);
    assert!(err.contains("overflowed"), "{}", err);
    assert_eq!(csv_steps(&out), vec![0, 5875]);
}

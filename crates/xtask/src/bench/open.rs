//! `cargo xtask bench --open-only` (and the end of `cargo xtask bench`): how fast each lab
//! opens. Serves `www/` (with the model cache's all-MiniLM-L6-v2 when it is there) and runs
//! `bench/open_times.mjs` in Debian's Chromium, which reads the page's marks (`www/lab/marks.js`)
//! for `/`'s first token frame, each lab's first picture, the depth lab's last variant drawn and
//! the model lab's skeleton, per round; printed as the median over the rounds beside each
//! budget, with the load average during the run (the page is timed on a shared machine), the
//! 1-minute load before each row's openings (a row whose median load is [`super::load::BUSY_LOAD`] or more is
//! "busy: not measured", which counts as not met) and the kilobytes each lab downloaded before
//! its first picture.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::load::{busy, verdict};
use crate::server::{self, PortChoice};
use crate::util::phase;

/// The rows: the script's name of a time, and its budget in ms (None: printed, no budget).
pub const BUDGETS: [(&str, Option<f64>); 9] = [
    ("/ first token frame", Some(600.0)),
    ("training first picture", Some(1000.0)),
    ("depth first picture", Some(1000.0)),
    ("depth fully drawn", Some(1000.0)),
    // The depth lab's heaviest preset (12 layers, 12 heads, 128 tokens, d_model 768, 4 variants):
    // its first curve (SAN), every variant, and its worker's start-up (a duration, no budget).
    ("bert-init SAN curve", Some(1000.0)),
    ("bert-init fully drawn", Some(3000.0)),
    ("bert-init worker start", None),
    ("model skeleton", Some(1000.0)),
    // The model's 90 MB download and load come first; no budget.
    ("model first picture", None),
];

/// The openings' times, per row name, one entry per round (None: the mark never came).
#[derive(Clone, Debug, PartialEq)]
pub struct OpenTimes {
    pub rounds: usize,
    pub load: [f64; 3],
    pub times: Vec<(String, Vec<Option<f64>>)>,
    /// Bytes downloaded before the first mark, per opening's first row.
    pub bytes: Vec<(String, Vec<Option<f64>>)>,
    /// The 1-minute load average before each round's opening, per row.
    pub loads: Vec<(String, Vec<Option<f64>>)>,
}

/// Serves `www/` and runs `bench/open_times.mjs` for `rounds` rounds.
pub fn measure(root: &Path, rounds: usize) -> Result<OpenTimes, String> {
    phase(&format!("opening: each lab's first picture in Chromium, {rounds} rounds (bench/open_times.mjs)"));
    let server = server::spawn(&root.join("www"), PortChoice::Any).map_err(|e| format!("{e:#}"))?;
    let out = Command::new("node")
        .arg(root.join("crates/xtask/bench/open_times.mjs"))
        .arg(rounds.to_string())
        .env("ATTN_URL", &server.url)
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot start node: {e}"))?;
    drop(server);
    parse(&super::page::result_line("open_times.mjs", &out)?)
}

/// The JSON line of `open_times.mjs`.
pub fn parse(line: &str) -> Result<OpenTimes, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("{e}: {line}"))?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Err(e.to_string());
    }
    let rounds = v.get("rounds").and_then(Value::as_u64).ok_or_else(|| format!("no rounds in {line}"))? as usize;
    let load_of = |i: usize| v["load"].get(i).and_then(Value::as_f64).unwrap_or(f64::NAN);
    let rows = |key: &str| -> Vec<(String, Vec<Option<f64>>)> {
        v.get(key)
            .and_then(Value::as_object)
            .map(|o| {
                o.iter()
                    .map(|(k, list)| {
                        let values = list.as_array().map(|a| a.iter().map(Value::as_f64).collect()).unwrap_or_default();
                        (k.clone(), values)
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    if v.get("times").and_then(Value::as_object).is_none() {
        return Err(format!("no times in {line}"));
    }
    Ok(OpenTimes {
        rounds,
        load: [load_of(0), load_of(1), load_of(2)],
        times: rows("times"),
        bytes: rows("bytes"),
        loads: rows("loads"),
    })
}

/// The median of the rounds that reached the mark; None when none did.
pub fn median(values: &[Option<f64>]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().flatten().copied().collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 { v[m] } else { (v[m - 1] + v[m]) / 2.0 })
}

/// The printed table: per row the median, every round, the budget and whether it is met, under
/// the load average.
pub fn lines(result: &Result<OpenTimes, String>) -> Vec<String> {
    let t = match result {
        Ok(t) => t,
        Err(e) => return vec![format!("opening: not measured ({e})")],
    };
    let mut out = vec![
        format!(
            "Opening, median of {} rounds (cold page each), load average {:.2} {:.2} {:.2} (1, 5, 15 min, during the run)",
            t.rounds, t.load[0], t.load[1], t.load[2]
        ),
        format!(
            "  {:<24} {:>9}  {:<28} {:>6} {:>10} {:>8}  {}",
            "what", "median", "rounds (ms)", "load", "kB before", "budget", "met"
        ),
    ];
    let ms = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.0}"));
    let row = |list: &[(String, Vec<Option<f64>>)], name: &str| -> Vec<Option<f64>> {
        list.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default()
    };
    for (name, budget) in BUDGETS {
        let values = row(&t.times, name);
        let med = median(&values);
        let each = values.iter().map(|v| ms(*v)).collect::<Vec<_>>().join(", ");
        let load = median(&row(&t.loads, name));
        let kb = median(&row(&t.bytes, name)).map_or("".to_string(), |b| format!("{:.0}", b / 1024.0));
        let (b, met) = match (budget, med) {
            (Some(b), Some(m)) => (format!("{b:.0} ms"), verdict(m <= b, load)),
            (Some(b), None) if busy(load) => (format!("{b:.0} ms"), "busy: not measured"),
            (Some(b), None) => (format!("{b:.0} ms"), "not reached"),
            (None, _) => ("-".to_string(), ""),
        };
        let load = load.map_or("-".to_string(), |l| format!("{l:.2}"));
        out.push(format!("  {:<24} {:>6} ms  {:<28} {:>6} {:>10} {:>8}  {}", name, ms(med), each, load, kb, b, met));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_medians_against_the_budgets() {
        let line = r#"{"rounds":3,"load":[1.5,2,2.5],"times":{"/ first token frame":[300,500,400],"depth fully drawn":[900,1200,null]}}"#;
        let t = parse(line).unwrap();
        assert_eq!(t.rounds, 3);
        assert_eq!(median(&t.times[1].1), Some(1050.0));
        let out = lines(&Ok(t));
        assert!(out[0].contains("load average 1.50 2.00 2.50"), "{}", out[0]);
        let row = |name: &str| out.iter().find(|l| l.trim_start().starts_with(name)).unwrap().clone();
        assert!(row("/ first token frame").contains("400 ms") && row("/ first token frame").ends_with("met"));
        assert!(row("depth fully drawn").ends_with("NOT met"), "{}", row("depth fully drawn"));
        assert!(row("training first picture").ends_with("not reached"));
        assert_eq!(parse(r#"{"error":"no browser"}"#).unwrap_err(), "no browser");
    }

    #[test]
    fn a_busy_row_is_not_measured_and_each_lab_says_its_kilobytes() {
        let line = r#"{"rounds":3,"load":[1,1,1],"times":{"/ first token frame":[300,500,400],"training first picture":[700,800,900]},
            "bytes":{"/ first token frame":[1024000,1126400,1048576]},
            "loads":{"/ first token frame":[0.5,1.2,0.8],"training first picture":[2.4,3.1,2.6]}}"#;
        let out = lines(&parse(line));
        let row = |name: &str| out.iter().find(|l| l.trim_start().starts_with(name)).unwrap().clone();
        let front = row("/ first token frame");
        assert!(front.contains(" 0.80 ") && front.contains(" 1024 ") && front.ends_with("  met"), "{front}");
        let training = row("training first picture");
        assert!(training.contains(" 2.60 ") && training.ends_with("busy: not measured"), "{training}");
    }
}

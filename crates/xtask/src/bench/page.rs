//! The page's target, "the page at the pool's rate": the particle page opened in Debian's
//! Chromium (through playwright-core, `bench/page_rate.mjs`) at n = 4096, d = 3, Euler with the
//! default panels shown, its steps in 20 s after a 5 s warm-up, beside the Node worker pool's
//! steps per second for the page's own configuration, measured in the same run by the same
//! script; printed side by side with their ratio, met when the page reaches 85 % of the pool.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::server::{self, PortChoice};
use crate::util::phase;

/// The page's link: n = 4096, d = 3, Euler, the default panels.
pub const HASH: &str =
    "version=2&preset=polytope-3d&n=4096&init=gaussian&scale=1&integrate_in=x&coords=x&dt=0.0001&until=1000&speed=1000";

/// Seconds of warm-up, then of measurement (page and Node pool alike).
const WARM_SECONDS: u32 = 5;
const MEASURE_SECONDS: u32 = 20;

/// The page's share of the Node pool's steps per second the target asks for.
pub const TARGET: f64 = 0.85;

/// Steps and seconds measured in the page and under Node.
#[derive(Clone, Debug, PartialEq)]
pub struct PageRate {
    pub page_steps: f64,
    pub page_seconds: f64,
    pub node_steps: f64,
    pub node_seconds: f64,
    pub workers: usize,
}

/// Serves `www/` and runs `bench/page_rate.mjs` with `workers` Node worker threads.
pub fn measure(root: &Path, workers: usize) -> Result<PageRate, String> {
    phase(&format!(
        "particles, the page in Chromium vs the Node pool ({workers} workers): bench/page_rate.mjs, {MEASURE_SECONDS} s after {WARM_SECONDS} s each"
    ));
    let server = server::spawn(&root.join("www"), PortChoice::Any).map_err(|e| format!("{e:#}"))?;
    let out = Command::new("node")
        .arg(root.join("crates/xtask/bench/page_rate.mjs"))
        .arg(&server.url)
        .arg(root.join("www/pkg"))
        .arg(HASH)
        .arg(workers.to_string())
        .arg(WARM_SECONDS.to_string())
        .arg(MEASURE_SECONDS.to_string())
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot start node: {e}"))?;
    drop(server);
    parse(&result_line("page_rate.mjs", &out)?)
}

/// The last line of `script`'s standard output that starts with `{` (the bench scripts print their
/// result as one JSON line), or a message with its exit status and standard error.
pub fn result_line(script: &str, out: &std::process::Output) -> Result<String, String> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().rev().find(|l| l.starts_with('{')).ok_or_else(|| {
        format!("{script} printed no result ({}): {}", out.status, String::from_utf8_lossy(&out.stderr).trim())
    })?;
    Ok(line.to_string())
}

/// The JSON line of `page_rate.mjs`.
pub fn parse(line: &str) -> Result<PageRate, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("{e}: {line}"))?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Err(e.to_string());
    }
    let num = |k: &str| v.get(k).and_then(Value::as_f64).ok_or_else(|| format!("no {k} in {line}"));
    Ok(PageRate {
        page_steps: num("page_steps")?,
        page_seconds: num("page_seconds")?,
        node_steps: num("node_steps")?,
        node_seconds: num("node_seconds")?,
        workers: num("workers")? as usize,
    })
}

/// The printed lines: both rates side by side, their ratio and whether the target is met.
pub fn lines(rate: &Result<PageRate, String>) -> Vec<String> {
    let head = "Target: the page at n = 4096, d = 3, Euler reaches >= 85 % of the Node pool's steps/s";
    match rate {
        Err(why) => vec![head.to_string(), format!("  not measured: {why}")],
        Ok(r) => {
            let page = r.page_steps / r.page_seconds;
            let node = r.node_steps / r.node_seconds;
            let ratio = page / node;
            let met = if ratio >= TARGET { "met" } else { "NOT met" };
            vec![
                head.to_string(),
                format!("  {:<34} {:>8} {:>10}", "", "steps/s", "steps"),
                format!(
                    "  {:<34} {:>8.2} {:>4} in {:.1} s",
                    "page in Chromium (default panels)", page, r.page_steps, r.page_seconds
                ),
                format!(
                    "  {:<34} {:>8.2} {:>4} in {:.1} s",
                    format!("Node pool ({} workers)", r.workers),
                    node,
                    r.node_steps,
                    r.node_seconds
                ),
                format!("  page / Node pool = {:.2} ({:.0} %): {met}", ratio, 100.0 * ratio),
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ratio_and_the_verdict() {
        let r = parse(r#"{"workers":2,"page_steps":260,"page_seconds":20,"node_steps":300,"node_seconds":20}"#);
        let text = lines(&r).join("\n");
        assert!(text.contains("13.00"), "{text}");
        assert!(text.contains("15.00"), "{text}");
        assert!(text.contains("= 0.87 (87 %): met"), "{text}");
        let slow = parse(r#"{"workers":2,"page_steps":160,"page_seconds":20,"node_steps":300,"node_seconds":20}"#);
        assert!(lines(&slow).join("\n").contains("(53 %): NOT met"));
        let failed = parse(r#"{"hash":"x","error":"the page was not playing"}"#);
        assert_eq!(failed, Err("the page was not playing".to_string()));
        assert!(lines(&failed)[1].contains("not measured: the page was not playing"));
        assert!(parse("{}").is_err());
    }
}

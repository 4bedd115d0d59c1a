//! `cargo xtask bench`: the stepper's speed natively (`attn bench`) and in wasm under Node
//! (`bench/wasm_bench.mjs`), same grid and same configurations, printed as two tables; then the
//! training lab's two numbers (100 iterations of the paper's setting, the paper's 4 x 4 x 10-seed
//! sweep) natively (`attn bench --training`) and in wasm (`bench/training_bench.mjs`, the sweep
//! in a worker thread); then the depth lab's time per variant of bert-init natively
//! (`attn bench --depth`) and in wasm (`bench/depth_bench.mjs`). A benchmark that prints numbers,
//! never a timed test.

use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::util::{self, cargo, phase, target_dir};
use crate::wasm;

/// Build both targets and print both tables; `min_seconds` is the time measured per case.
pub fn run(root: &Path, min_seconds: f64) -> Result<()> {
    wasm::build(root)?;
    phase("build attn CLI (cargo build --release -p attn-cli)");
    util::run(cargo().args(["build", "--release", "-p", "attn-cli"]).current_dir(root), "CLI build")?;
    let secs = format!("{min_seconds}");
    phase("native: attn bench");
    util::run(
        Command::new(target_dir().join("release").join("attn")).args(["bench", "--min-seconds", &secs]),
        "native bench",
    )?;
    phase("wasm under Node: crates/xtask/bench/wasm_bench.mjs");
    util::run(
        Command::new("node")
            .arg(root.join("crates/xtask/bench/wasm_bench.mjs"))
            .arg(root.join("www/pkg"))
            .arg(&secs)
            .current_dir(root),
        "wasm bench",
    )?;
    phase("training lab, native: attn bench --training");
    util::run(
        Command::new(target_dir().join("release").join("attn")).args(["bench", "--training"]),
        "native training bench",
    )?;
    phase("training lab, wasm under Node: crates/xtask/bench/training_bench.mjs");
    util::run(
        Command::new("node")
            .arg(root.join("crates/xtask/bench/training_bench.mjs"))
            .arg(root.join("www/pkg"))
            .current_dir(root),
        "wasm training bench",
    )?;
    phase("depth lab, native: attn bench --depth");
    util::run(
        Command::new(target_dir().join("release").join("attn")).args(["bench", "--depth"]),
        "native depth bench",
    )?;
    phase("depth lab, wasm under Node: crates/xtask/bench/depth_bench.mjs");
    util::run(
        Command::new("node")
            .arg(root.join("crates/xtask/bench/depth_bench.mjs"))
            .arg(root.join("www/pkg"))
            .current_dir(root),
        "wasm depth bench",
    )
}

//! The CLI's integration tests, in one binary: each file is a module, named after the `attn`
//! command or behaviour it checks; [`attn`] runs the binary under test.

use std::process::Command;

#[path = "../../core/tests/tiny_bert/mod.rs"]
mod tiny_bert;

mod bench;
mod depth;
mod diverged;
mod encode;
mod encode_trained;
mod head_dynamics;
mod layers_view;
mod link;
mod model_files;
mod non_finite;
mod threads;
mod train;

/// Runs `attn ARGS` (the binary built with these tests): exit code, stdout, stderr.
pub fn attn(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_attn")).args(args).output().expect("run attn");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

//! `cargo xtask docs`: rewrites the README's key tables from the core's key tables, between
//! `<!-- keys:NAME -->` and `<!-- /keys -->` (one pair per table). The core's
//! `tests/readme_keys.rs` fails when the README differs from what this writes.

use std::path::Path;

use anyhow::{bail, Context, Result};

/// Rewrites every key table of `root/README.md`; prints which changed.
pub fn run(root: &Path) -> Result<()> {
    let path = root.join("README.md");
    let mut text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    for (name, table) in attn_core::lab::readme_key_tables() {
        let start_marker = format!("<!-- keys:{} -->\n", name);
        let Some(start) = text.find(&start_marker).map(|i| i + start_marker.len()) else {
            bail!("README.md has no `<!-- keys:{} -->` line: add it (and `<!-- /keys -->`) where the table goes", name);
        };
        let Some(end) = text[start..].find("<!-- /keys -->").map(|i| start + i) else {
            bail!("README.md: `<!-- keys:{} -->` has no closing `<!-- /keys -->`", name);
        };
        if text[start..end] != table {
            text.replace_range(start..end, &table);
            println!("README.md: key table `{}` rewritten", name);
        }
    }
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

//! `cargo xtask docs`: rewrites the key tables of `docs/links.md` from the core's key tables,
//! between `<!-- keys:NAME -->` and `<!-- /keys -->` (one pair per table). The core's
//! `tests/readme_keys.rs` fails when the page differs from what this writes.

use std::path::Path;

use anyhow::{bail, Context, Result};

/// The page holding the key tables, relative to the repository root.
pub const KEYS_PAGE: &str = "docs/links.md";

/// Rewrites every key table of `root/docs/links.md`; prints which changed.
pub fn run(root: &Path) -> Result<()> {
    let path = root.join(KEYS_PAGE);
    let mut text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    for (name, table) in attn_core::lab::readme_key_tables() {
        let start_marker = format!("<!-- keys:{} -->\n", name);
        let Some(start) = text.find(&start_marker).map(|i| i + start_marker.len()) else {
            bail!("{KEYS_PAGE} has no `<!-- keys:{name} -->` line: add it (and `<!-- /keys -->`) where the table goes");
        };
        let Some(end) = text[start..].find("<!-- /keys -->").map(|i| start + i) else {
            bail!("{KEYS_PAGE}: `<!-- keys:{name} -->` has no closing `<!-- /keys -->`");
        };
        if text[start..end] != table {
            text.replace_range(start..end, &table);
            println!("{KEYS_PAGE}: key table `{name}` rewritten");
        }
    }
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

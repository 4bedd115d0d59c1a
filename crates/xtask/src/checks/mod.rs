//! Checks of the repository's shape that `cargo xtask test` runs before building: a lab's folder
//! in the core never imports another lab's, no source file is longer than [`MAX_LINES`], every
//! integration-test file is a module of its crate's one test binary ([`test_files`]), and no
//! tracked file names the work item that asked for something ("issue" and a number) instead of
//! saying what it is ([`issue_refs`]); no module of `www/` builds or takes apart a link outside the
//! page's one link grammar ([`link_text`]) and none imports another in a circle ([`circles`]), nor
//! does any file of a crate's `src/` ([`rust_circles`]). Each check returns every violation it
//! finds, so one run lists them all.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

mod circles;
mod issue_refs;
mod link_text;
mod rust_circles;
mod test_files;

/// The labs of `crates/core/src`, one folder each.
pub const LABS: [&str; 4] = attn_core::labs::NAMES;

/// Lab-to-lab imports allowed by design, with the reason (shown by `cargo xtask test`).
pub const ALLOWED_LAB_EDGES: [(&str, &str, &str); 2] = [
    (
        "depth",
        "particles",
        "the depth lab's `particle` key reads a particle configuration (weights=particle, input=particle: \
         SAN+skip is Euler of the particle ODE)",
    ),
    (
        "model",
        "particles",
        "a trained head's spectra (model/head_spectrum.rs) use the particle lab's eigenvalue solver, the one \
         psi1 uses, so that the page and the CLI print the same bits; the layers view (model/layers_view.rs) \
         uses its effective rank (science.md §1.7)",
    ),
];

/// Runs every check on the repository at `root`; fails listing each violation.
pub fn run(root: &Path) -> Result<()> {
    let mut problems = Vec::new();
    problems.extend(lab_imports(&root.join("crates/core/src"))?);
    problems.extend(long_files(root)?);
    problems.extend(test_files::unlisted_test_files(root)?);
    problems.extend(issue_refs::issue_references(root)?);
    problems.extend(link_text::hand_built_links(root)?);
    problems.extend(circles::es_import_circles(root)?);
    problems.extend(rust_circles::circle_problems(root)?);
    if !problems.is_empty() {
        bail!("repository checks failed:\n  {}", problems.join("\n  "));
    }
    Ok(())
}

/// Every `crate::<lab>` path written inside another lab's folder (outside the allowed edges).
pub fn lab_imports(core_src: &Path) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for lab in LABS {
        let folder = core_src.join(lab);
        if !folder.is_dir() {
            continue;
        }
        for file in rust_files(&folder)? {
            let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
            for (line_no, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for other in LABS.iter().filter(|o| **o != lab) {
                    let allowed = ALLOWED_LAB_EDGES.iter().any(|(from, to, _)| *from == lab && to == other);
                    if !allowed && imports_lab(code, other) {
                        problems.push(format!(
                            "{}:{}: the {} lab imports the {} lab (`crate::{}`); move what both need to a shared module",
                            file.display(),
                            line_no + 1,
                            lab,
                            other,
                            other
                        ));
                    }
                }
            }
        }
    }
    Ok(problems)
}

/// Whether a line of code names `crate::<lab>` (or `crate::{..., <lab>...}` in a `use`).
fn imports_lab(code: &str, lab: &str) -> bool {
    let direct = format!("crate::{}", lab);
    let mut rest = code;
    while let Some(i) = rest.find(&direct) {
        let after = &rest[i + direct.len()..];
        if !after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            return true;
        }
        rest = after;
    }
    if let Some(i) = code.find("crate::{") {
        let group = &code[i..];
        return group.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|word| word == lab);
    }
    false
}

/// Most lines a source file may have (files small, with one purpose each).
pub const MAX_LINES: usize = 500;

/// Every file under `crates/*/src` and `www/` (not the built `www/pkg` and `www/bundle`, not tests) longer than
/// [`MAX_LINES`] lines.
pub fn long_files(root: &Path) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join("crates"))? {
        let src = entry?.path().join("src");
        if src.is_dir() {
            files.extend(files_under(&src, &[])?);
        }
    }
    files.extend(files_under(&root.join("www"), &["pkg", "bundle", "node_modules"])?);
    let mut problems = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let lines = text.lines().count();
        if lines > MAX_LINES {
            problems.push(format!(
                "{}: {} lines; at most {} (split it by purpose)",
                file.strip_prefix(root).unwrap_or(&file).display(),
                lines,
                MAX_LINES
            ));
        }
    }
    Ok(problems)
}

/// Every file under `dir`, recursively, skipping folders named in `skip`, sorted.
pub(super) fn files_under(dir: &Path, skip: &[&str]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("cannot list {}", d.display()))? {
            let path = entry?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !skip.contains(&name) {
                    stack.push(path);
                }
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The `.rs` files under `dir`, recursively, sorted.
pub fn rust_files(dir: &Path) -> Result<Vec<PathBuf>> {
    Ok(files_under(dir, &[])?.into_iter().filter(|p| p.extension().is_some_and(|e| e == "rs")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_use_of_another_lab_is_found_and_a_longer_name_is_not() {
        assert!(imports_lab("use crate::training::text;", "training"));
        assert!(imports_lab("let c = crate::particles::config::parse(s);", "particles"));
        assert!(imports_lab("use crate::{link, training};", "training"));
        assert!(!imports_lab("use crate::trainingx::a;", "training"));
        assert!(!imports_lab("use crate::link::ConfigError;", "training"));
    }

    #[test]
    fn the_repository_has_no_forbidden_lab_import() {
        let core_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src");
        let problems = lab_imports(&core_src).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_repository_has_no_file_over_the_limit() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let problems = long_files(&root).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_file_over_the_limit_is_named_and_pkg_is_skipped() {
        let dir = std::env::temp_dir().join(format!("attn-long-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("crates/a/src")).unwrap();
        std::fs::create_dir_all(dir.join("www/pkg")).unwrap();
        std::fs::write(dir.join("crates/a/src/big.rs"), "x\n".repeat(MAX_LINES + 1)).unwrap();
        std::fs::write(dir.join("crates/a/src/ok.rs"), "x\n".repeat(MAX_LINES)).unwrap();
        std::fs::write(dir.join("www/pkg/gen.js"), "x\n".repeat(MAX_LINES + 10)).unwrap();
        let problems = long_files(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(problems.len(), 1, "{:?}", problems);
        assert!(problems[0].contains("big.rs") && problems[0].contains("501 lines"), "{}", problems[0]);
    }

    #[test]
    fn a_forbidden_import_in_a_lab_folder_fails_the_check() {
        let dir = std::env::temp_dir().join(format!("attn-checks-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("depth")).unwrap();
        std::fs::create_dir_all(dir.join("training")).unwrap();
        std::fs::write(dir.join("depth/input.rs"), "use crate::training::text::tokenize;\n").unwrap();
        std::fs::write(dir.join("training/ok.rs"), "// crate::depth in a comment is fine\nuse crate::text;\n").unwrap();
        let problems = lab_imports(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(problems.len(), 1, "{:?}", problems);
        assert!(problems[0].contains("the depth lab imports the training lab"), "{}", problems[0]);
    }
}

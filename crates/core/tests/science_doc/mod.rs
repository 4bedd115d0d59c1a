//! Keeps `docs/science.md` and the code linked, in both directions:
//!
//! - every `Code:` line of `docs/science.md` names Rust items that exist in `crates/core/src`;
//! - every `science.md §N` citation in `crates/*/src/**/*.rs` and `www/**/*.js` (not `www/pkg`)
//!   names a section of `docs/science.md` (heading `## §N ...`, or `### §N.M ...` for `§N.M`), and
//!   every `science.md, "Name"` / `"Name" in science.md` citation names a heading.
//!
//! The resolver is deliberately simple and strict. A path `crate::a::b::c::name` is walked from
//! `src/lib.rs` through the modules it names (`mod a;` declared in the parent file, its file
//! `a.rs` or `a/mod.rs`), as far as the segments are modules and always leaving at least one
//! segment. What remains must then be:
//! - one segment `name`, declared at the top level of that module's file: `fn`, `struct`, `enum`,
//!   `trait`, `const`, `static`, `type`, `union` or `mod name` (a re-export by `pub use` is not a
//!   definition: the path has to name the module that defines the item);
//! - or two segments `Type::member`, where `member` is a `fn`, `const` or `type` inside an `impl`
//!   of `Type` in that file (inherent or trait impl; `Type` defined there or in another file of
//!   the crate), or `Type` is defined in that file and `member` is a `fn`, `const` or `type` of the
//!   trait `Type` or a variant of the enum `Type`.
//!
//! Comments, string literals and character literals are blanked before anything is looked up, so
//! a name that occurs only in a doc comment is not found.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

mod citations;
mod rust_items;

use citations::{citations, cited_files, Cited};
use rust_items::resolve;

// ---------------------------------------------------------------------------------------------
// Paths

pub(crate) fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The repository root (`crates/core/../..`).
pub(crate) fn repo_root() -> PathBuf {
    manifest_dir().join("..").join("..")
}

pub(crate) fn science_path() -> PathBuf {
    repo_root().join("docs").join("science.md")
}

pub(crate) fn core_src() -> PathBuf {
    manifest_dir().join("src")
}

pub(crate) fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {}", path.display(), e))
}

// ---------------------------------------------------------------------------------------------
// docs/science.md

/// Every `Code:` line of the document: `(line number, items)`. A line must read exactly
/// `Code: item, item, ...` (leading indentation allowed); a malformed line is an error.
fn code_lines(doc: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut out = Vec::new();
    for (k, line) in doc.lines().enumerate() {
        let t = line.trim_start();
        if !t.starts_with("Code:") {
            continue;
        }
        let rest =
            t.strip_prefix("Code: ").ok_or_else(|| format!("line {}: `Code:` must be followed by one space", k + 1))?;
        let items: Vec<String> = rest.split(", ").map(str::to_string).collect();
        if let Some(bad) = items.iter().find(|s| s.is_empty() || s.contains(char::is_whitespace)) {
            return Err(format!("line {}: malformed item `{}` (items are separated by `, `)", k + 1, bad));
        }
        out.push((k + 1, items));
    }
    Ok(out)
}

/// The section numbers of the document's headings: `## §N ...` gives `"N"`, `### §N.M ...` gives
/// `"N.M"`.
fn headings(doc: &str) -> (Vec<String>, BTreeSet<String>) {
    let mut majors = Vec::new();
    let mut all = BTreeSet::new();
    for line in doc.lines() {
        for (prefix, major) in [("## §", true), ("### §", false)] {
            if let Some(rest) = line.strip_prefix(prefix) {
                let number: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
                let well_formed = if major {
                    number.chars().all(|c| c.is_ascii_digit())
                } else {
                    number.split('.').count() == 2
                        && number.split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
                };
                assert!(well_formed && !number.is_empty(), "malformed section heading: {}", line);
                if major {
                    majors.push(number.clone());
                }
                all.insert(number);
            }
        }
    }
    (majors, all)
}

/// The text of every heading line (`#` to `######`).
fn heading_texts(doc: &str) -> Vec<String> {
    doc.lines().filter(|l| l.starts_with('#')).map(|l| l.trim_start_matches('#').trim().to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// The tests

/// Every item named on a `Code:` line exists in `crates/core/src`.
#[test]
fn every_code_line_names_existing_items() {
    let doc = read(&science_path());
    let lines = code_lines(&doc).unwrap_or_else(|e| panic!("docs/science.md: {}", e));
    let mut failures = Vec::new();
    let mut items = 0;
    for (line, names) in &lines {
        for name in names {
            items += 1;
            if let Err(e) = resolve(name) {
                failures.push(format!("docs/science.md:{}: {}", line, e));
            }
        }
    }
    println!("{} Code: lines, {} items resolved", lines.len(), items);
    assert!(failures.is_empty(), "{} unresolved item(s):\n{}", failures.len(), failures.join("\n"));
}

/// The document is thorough: at least 25 `Code:` lines.
#[test]
fn science_doc_has_at_least_25_code_lines() {
    let doc = read(&science_path());
    let lines = code_lines(&doc).unwrap_or_else(|e| panic!("docs/science.md: {}", e));
    assert!(lines.len() >= 25, "docs/science.md has {} Code: lines; at least 25 expected", lines.len());
}

/// Sections §1 to §7 exist, in order, as `## §N` headings, and each subsection `§N.M` sits under
/// its section.
#[test]
fn science_doc_sections_are_1_to_7() {
    let doc = read(&science_path());
    let (majors, all) = headings(&doc);
    assert_eq!(majors, ["1", "2", "3", "4", "5", "6", "7"], "the `## §N` headings of docs/science.md");
    for s in &all {
        if let Some((major, _)) = s.split_once('.') {
            assert!(majors.iter().any(|m| m == major), "§{} has no section §{}", s, major);
        }
    }
}

/// Every `science.md §N` citation in the Rust sources and the page's JavaScript names a section
/// of `docs/science.md`, and every `science.md, "Name"` citation a heading.
#[test]
fn every_citation_names_a_section() {
    let doc = read(&science_path());
    let (_, sections) = headings(&doc);
    let texts = heading_texts(&doc);
    let root = repo_root();
    let mut failures = Vec::new();
    let mut count = 0;
    let mut js = 0;
    for file in cited_files() {
        let shown = file.strip_prefix(&root).unwrap_or(&file).display().to_string();
        for (line, cited) in citations(&read(&file)) {
            count += 1;
            if shown.ends_with(".js") {
                js += 1;
            }
            let missing: Vec<String> = match &cited {
                Cited::Section(s) => (!sections.contains(s)).then(|| format!("§{}", s)).into_iter().collect(),
                Cited::Range(a, b) if a < b => (*a..=*b)
                    .map(|s| s.to_string())
                    .filter(|s| !sections.contains(s))
                    .map(|s| format!("§{}", s))
                    .collect(),
                Cited::Range(a, b) => vec![format!("the empty range §{}-{}", a, b)],
                Cited::Named(name) => (!texts.iter().any(|t| t.contains(name.as_str())))
                    .then(|| format!("a heading \"{}\"", name))
                    .into_iter()
                    .collect(),
                Cited::Malformed(text) => vec![format!("a section number (found `{}`)", text)],
            };
            for m in missing {
                failures.push(format!("{}:{}: cites {}, which docs/science.md does not have", shown, line, m));
            }
        }
    }
    println!("{} citations checked ({} in www)", count, js);
    assert!(failures.is_empty(), "{} bad citation(s):\n{}", failures.len(), failures.join("\n"));
    // Not vacuous: the code cites the document everywhere, the page included.
    assert!(count >= 50, "only {} citations found: is the scan broken?", count);
    assert!(js >= 1, "no citation found in www/: is the scan broken?");
}

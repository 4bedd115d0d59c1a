//! The citations of `science.md` in the sources: `§N`, `§N.M`, `§N-M` and quoted heading names,
//! and the files whose citations are checked.

use std::fs;
use std::path::{Path, PathBuf};

use super::repo_root;

// Citations in the code

/// One citation of the document in a source file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cited {
    /// `§N` or `§N.M`: that section (`"N"` or `"N.M"`).
    Section(String),
    /// `§N-M`: every section from `N` to `M`.
    Range(u32, u32),
    /// `science.md, "Name"` or `"Name" in science.md`: a heading containing `Name`.
    Named(String),
    /// Something after `§` that is not a section number.
    Malformed(String),
}

pub(crate) fn digits(cs: &[char], k: &mut usize) -> String {
    let s = *k;
    while *k < cs.len() && cs[*k].is_ascii_digit() {
        *k += 1;
    }
    cs[s..*k].iter().collect()
}

/// The citations of `science.md` in `text`: for each occurrence, the `§` references in the words
/// that follow it (continuing over comment lines, up to a `)`, `]`, `;`, `:`, backquote, quote,
/// the end of a sentence, a blank line, or 160 characters), or the quoted heading name around it.
pub(crate) fn citations(text: &str) -> Vec<(usize, Cited)> {
    let cs: Vec<char> = text.chars().collect();
    let n = cs.len();
    let needle: Vec<char> = "science.md".chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start + needle.len() <= n {
        if cs[start..start + needle.len()] != needle[..] {
            start += 1;
            continue;
        }
        let line = cs[..start].iter().filter(|&&c| c == '\n').count() + 1;
        let before: String = cs[start.saturating_sub(80)..start].iter().collect();
        let mut k = start + needle.len();
        start = k;
        // `"Name" in science.md`
        if let Some(head) = before.strip_suffix("\" in ") {
            if let Some(q) = head.rfind('"') {
                out.push((line, Cited::Named(head[q + 1..].to_string())));
                continue;
            }
        }
        // `science.md, "Name"`
        let after: String = cs[k..(k + 80).min(n)].iter().collect();
        if let Some(rest) = after.strip_prefix(", \"") {
            if let Some(q) = rest.find('"') {
                out.push((line, Cited::Named(rest[..q].to_string())));
                continue;
            }
        }
        let limit = (k + 160).min(n);
        while k < limit {
            let c = cs[k];
            if c == '\n' {
                // Continue on the next comment line; a blank line ends the citation.
                k += 1;
                while k < n && matches!(cs[k], ' ' | '\t' | '/' | '!' | '*') {
                    k += 1;
                }
                if k >= n || cs[k] == '\n' {
                    break;
                }
                continue;
            }
            if matches!(c, ')' | ']' | ';' | ':' | '`' | '"') {
                break;
            }
            if c == '.' && !cs.get(k + 1).is_some_and(|d| d.is_ascii_digit()) {
                break;
            }
            if c != '§' {
                k += 1;
                continue;
            }
            k += 1;
            let major = digits(&cs, &mut k);
            if major.is_empty() {
                let shown: String = cs[k.saturating_sub(1)..(k + 10).min(n)].iter().collect();
                out.push((line, Cited::Malformed(shown)));
                continue;
            }
            if cs.get(k) == Some(&'.') && cs.get(k + 1).is_some_and(|d| d.is_ascii_digit()) {
                k += 1;
                let minor = digits(&cs, &mut k);
                out.push((line, Cited::Section(format!("{}.{}", major, minor))));
            } else if matches!(cs.get(k), Some('-') | Some('–'))
                && (cs.get(k + 1).is_some_and(|d| d.is_ascii_digit())
                    || (cs.get(k + 1) == Some(&'§') && cs.get(k + 2).is_some_and(|d| d.is_ascii_digit())))
            {
                k += 1;
                if cs[k] == '§' {
                    k += 1;
                }
                let end = digits(&cs, &mut k);
                out.push((line, Cited::Range(major.parse().unwrap(), end.parse().unwrap())));
            } else {
                out.push((line, Cited::Section(major)));
            }
        }
    }
    out
}

/// Files with the given extension under `dir`, recursively, skipping `skip` directories.
pub(crate) fn files_under(dir: &Path, ext: &str, skip: &[PathBuf], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            let name = p.file_name().and_then(|s| s.to_str()).unwrap_or("");
            if !skip.contains(&p) && name != "node_modules" && !name.starts_with('.') {
                files_under(&p, ext, skip, out);
            }
        } else if p.extension().and_then(|s| s.to_str()) == Some(ext) {
            out.push(p);
        }
    }
}

/// The files whose citations are checked: `crates/*/src/**/*.rs` and `www/**/*.js` without `www/pkg`.
pub(crate) fn cited_files() -> Vec<PathBuf> {
    let root = repo_root();
    let mut files = Vec::new();
    let mut crates: Vec<PathBuf> =
        fs::read_dir(root.join("crates")).expect("crates/").filter_map(|e| e.ok().map(|e| e.path())).collect();
    crates.sort();
    for c in crates {
        files_under(&c.join("src"), "rs", &[], &mut files);
    }
    files_under(&root.join("www"), "js", &[root.join("www").join("pkg")], &mut files);
    files
}

// ---------------------------------------------------------------------------------------------

/// The citation scanner reads the forms the code uses.
#[test]
fn citation_forms() {
    let text = "//! Fields (science.md §1 Euclidean,\n//! §2 on the sphere; other §9)\n\
                /// see science.md §3-4: x; science.md §1 and §2; science.md §5.2.\n\
                // science.md, \"Overflow\"; (\"Notation\" in science.md); science.md §1, checks 4-6)\n\
                // science.md § x";
    let got: Vec<Cited> = citations(text).into_iter().map(|(_, c)| c).collect();
    assert_eq!(
        got,
        [
            Cited::Section("1".into()),
            Cited::Section("2".into()),
            Cited::Range(3, 4),
            Cited::Section("1".into()),
            Cited::Section("2".into()),
            Cited::Section("5.2".into()),
            Cited::Named("Overflow".into()),
            Cited::Named("Notation".into()),
            Cited::Section("1".into()),
            Cited::Malformed("§ x".into()),
        ]
    );
}

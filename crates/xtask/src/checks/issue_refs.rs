//! No tracked file names the work item that asked for something ("issue" and a number): code,
//! docs and tests say what a thing is, or link to the docs.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::files_under;

/// Folders (relative to the repository root) whose files may name an issue by number: the
/// hosting service's own configuration.
pub const ISSUE_REFERENCES_ALLOWED_IN: [&str; 1] = [".github/"];

/// Every line of a tracked file (outside [`ISSUE_REFERENCES_ALLOWED_IN`]) that names an issue by
/// its number: code, docs, tests and their names say what a thing is, or link to the docs.
pub fn issue_references(root: &Path) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for path in tracked_files(root)? {
        let name = path.to_string_lossy().replace('\\', "/");
        if ISSUE_REFERENCES_ALLOWED_IN.iter().any(|dir| name.starts_with(dir)) {
            continue;
        }
        // Binary files (the pictures) are not text; they hold no reference to check.
        let Ok(text) = std::fs::read_to_string(root.join(&path)) else { continue };
        for (line_no, line) in text.lines().enumerate() {
            if names_an_issue(line) {
                let excerpt: String = line.trim().chars().take(100).collect();
                problems.push(format!(
                    "{}:{}: names an issue by number (`{}`): say what it is, or link to docs/",
                    name,
                    line_no + 1,
                    excerpt
                ));
            }
        }
    }
    Ok(problems)
}

/// Whether `line` has the word "issue" (or "issues"), any case, followed by a number (`issue N`,
/// `Issue-N`, `issue #N`, `issues N`, N digits); not "tissue" and a number, not "the issue's".
pub fn names_an_issue(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.match_indices("issue").any(|(i, word)| {
        let starts_a_word = !lower[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let rest = &lower[i + word.len()..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        let rest = rest.strip_prefix(|c: char| c == ' ' || c == '-').unwrap_or(rest);
        let rest = rest.strip_prefix('#').unwrap_or(rest);
        starts_a_word && rest.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// The files git tracks under `root` (`git ls-files`), relative to `root`; outside a git
/// checkout, every file under `root` but build output (`target`, `node_modules`, `www/pkg`,
/// `dist`, `.git`).
fn tracked_files(root: &Path) -> Result<Vec<PathBuf>> {
    let listed = std::process::Command::new("git").args(["ls-files", "-z"]).current_dir(root).output();
    if let Some(out) = listed.ok().filter(|o| o.status.success()) {
        return Ok(out
            .stdout
            .split(|b| *b == 0)
            .filter(|name| !name.is_empty())
            .map(|name| PathBuf::from(String::from_utf8_lossy(name).into_owned()))
            .collect());
    }
    let all = files_under(root, &["target", "node_modules", "pkg", "dist", ".git"])?;
    Ok(all.into_iter().filter_map(|p| p.strip_prefix(root).ok().map(Path::to_path_buf)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_after_issue_is_found_and_other_words_are_not() {
        let issue = "issue"; // written apart, so this file passes its own check
        for line in [
            format!("// the budget ({issue} 13 part 3)"),
            format!("{} 5's targets", issue.to_uppercase()),
            format!("see {issue}-5"),
            format!("fixed in {issue} #27"),
            format!("{issue}s 13 and 14"),
            format!("({issue}14)"),
        ] {
            assert!(names_an_issue(&line), "{line}");
        }
        for line in [format!("t{issue} 3 of the sample"), "the issue's anchors".into(), "an issue with 3 tokens".into()]
        {
            assert!(!names_an_issue(&line), "{line}");
        }
    }

    #[test]
    fn an_issue_number_in_a_file_fails_the_check_but_not_in_github() {
        let dir = std::env::temp_dir().join(format!("attn-issues-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("crates/a/src")).unwrap();
        std::fs::create_dir_all(dir.join(".github/workflows")).unwrap();
        std::fs::write(dir.join("crates/a/src/lib.rs"), format!("// fine\n// asked by {} 13\n", "issue")).unwrap();
        std::fs::write(dir.join(".github/workflows/ci.yml"), format!("# {} 13\n", "issue")).unwrap();
        std::fs::write(dir.join("picture.png"), [0x89, b'P', b'N', b'G', 0xff, 0xfe]).unwrap();
        let problems = issue_references(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(problems.len(), 1, "{:?}", problems);
        assert!(problems[0].starts_with("crates/a/src/lib.rs:2: names an issue"), "{}", problems[0]);
    }

    #[test]
    fn the_repository_names_no_issue_by_number() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let problems = issue_references(&root).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

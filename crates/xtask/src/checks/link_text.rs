//! The page has one link grammar, `www/lab/pairs.js`: no other module of `www/` splits, joins or
//! percent-codes link text itself (a hand-built link escapes differently from the core, or
//! breaks on a value holding `&`).

use std::path::Path;

use anyhow::Result;

/// The one module of `www/` that may split, join and percent-code links.
pub const LINK_MODULE: &str = "www/lab/pairs.js";

/// What building or taking a link apart by hand looks like, and what to use instead.
const PATTERNS: [(&str, &str); 9] = [
    ("split('&')", "splitConfig / keysOf / valueOf"),
    ("split(\"&\")", "splitConfig / keysOf / valueOf"),
    ("join('&')", "joinPairs / concatLinks"),
    ("join(\"&\")", "joinPairs / concatLinks"),
    ("'&' +", "joinPairs / concatLinks"),
    ("&${", "joinPairs / withPairs"),
    ("encodeURIComponent", "encodeValue / joinPairs"),
    ("decodeURIComponent", "decodeValue / valueOf"),
    ("URLSearchParams", "splitConfig / valueOf"),
];

/// Every line of a `.js` file under `www/` (not `www/pkg`, not the link module) that splits,
/// joins or percent-codes text itself, outside `//` comments.
pub fn hand_built_links(root: &Path) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for file in super::files_under(&root.join("www"), &["pkg", "bundle", "node_modules"])? {
        let rel = file.strip_prefix(root).unwrap_or(&file).to_string_lossy().replace('\\', "/");
        if !rel.ends_with(".js") || rel == LINK_MODULE {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        problems.extend(in_text(&rel, &text));
    }
    Ok(problems)
}

/// The violations in the text of one file named `rel`.
fn in_text(rel: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        let code = code_of(line);
        for (pattern, instead) in PATTERNS {
            if code.contains(pattern) {
                problems.push(format!(
                    "{}:{}: `{}` on link text outside {}; use its {}",
                    rel,
                    line_no + 1,
                    pattern,
                    LINK_MODULE,
                    instead
                ));
            }
        }
    }
    problems
}

/// A line without its `//` comment (a `//` inside a string, as in `https://`, is kept) and
/// without a leading ` * ` doc-comment line.
pub(super) fn code_of(line: &str) -> &str {
    let trimmed = line.trim_start();
    if trimmed.starts_with('*') || trimmed.starts_with("/*") {
        return "";
    }
    let mut quote: Option<char> = None;
    let bytes: Vec<char> = line.chars().collect();
    let mut offset = 0;
    for (i, c) in bytes.iter().enumerate() {
        match quote {
            Some(q) if *c == q && (i == 0 || bytes[i - 1] != '\\') => quote = None,
            Some(_) => {}
            None if matches!(c, '\'' | '"' | '`') => quote = Some(*c),
            None if *c == '/' && bytes.get(i + 1) == Some(&'/') => return &line[..offset],
            None => {}
        }
        offset += c.len_utf8();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_builds_no_link_by_hand() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let problems = hand_built_links(&root).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_hand_built_link_is_named_and_comments_are_not() {
        let text = "const a = link.split('&');\n\
                    // link.split('&') in a comment is fine\n\
                    const u = 'https://example.org'; // encodeURIComponent in a comment\n\
                    const b = `${link}&${more}`;\n\
                    \x20* decodeURIComponent in a doc comment\n\
                    const c = new URLSearchParams(x);\n";
        let problems = in_text("www/x.js", text);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].starts_with("www/x.js:1: `split('&')`"), "{}", problems[0]);
        assert!(problems[1].starts_with("www/x.js:4: `&${`"), "{}", problems[1]);
        assert!(problems[2].starts_with("www/x.js:6: `URLSearchParams`"), "{}", problems[2]);
    }
}

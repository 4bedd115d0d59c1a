//! The project's Markdown pages (`README.md`, `ARCHITECTURE.md`, `docs/science.md`): every
//! in-page link `[text](#anchor)` names a heading of its page, as GitHub writes a heading's anchor
//! (lower case; letters, digits, `-`, `_` and spaces kept, the spaces written as `-`; a repeated
//! heading gets `-1`, `-2`, ...).

use std::collections::BTreeSet;

const PAGES: [&str; 3] = ["README.md", "ARCHITECTURE.md", "docs/science.md"];

fn read(page: &str) -> String {
    let path = format!("{}/../../{}", env!("CARGO_MANIFEST_DIR"), page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {}", path, e))
}

/// GitHub's anchor of a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (outside fenced code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#').replace('`', "").as_str());
        let mut name = base.clone();
        let mut k = 0;
        while out.contains(&name) {
            k += 1;
            name = format!("{}-{}", base, k);
        }
        out.insert(name);
    }
    out
}

/// The targets of a page's in-page links `](#anchor)`.
fn links(text: &str) -> Vec<String> {
    text.match_indices("](#")
        .filter_map(|(i, m)| {
            let rest = &text[i + m.len()..];
            rest.find(')').map(|end| rest[..end].to_string())
        })
        .collect()
}

#[test]
fn every_in_page_link_names_a_heading() {
    let mut checked = 0;
    for page in PAGES {
        let text = read(page);
        let known = anchors(&text);
        for target in links(&text) {
            assert!(known.contains(&target), "{}: the link #{} names no heading (headings: {:?})", page, target, known);
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {} in-page links found: is the scan broken?", checked);
}

#[test]
fn anchors_are_written_as_github_writes_them() {
    let text =
        "# Title\n## Model lab\n### `attn encode`: a BERT (model lab)\n```sh\n# not a heading\n```\n## Model lab\n";
    let found: Vec<String> = anchors(text).into_iter().collect();
    assert_eq!(found, ["attn-encode-a-bert-model-lab", "model-lab", "model-lab-1", "title"]);
    assert_eq!(links("see [a](#model-lab) and [b](#nowhere)."), ["model-lab", "nowhere"]);
    assert!(!anchors(text).contains("model-lab-in-progress"));
}

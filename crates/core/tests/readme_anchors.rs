//! The project's Markdown pages (`README.md`, `ARCHITECTURE.md`, every `docs/*.md`): every link
//! resolves. A relative link `[text](path)` or `![alt](path)` names a file or folder that exists
//! (relative to the page), `[text](page.md#anchor)` a heading of that page, and an in-page link
//! `[text](#anchor)` a heading of its own page, as GitHub writes a heading's anchor (lower case;
//! letters, digits, `-`, `_` and spaces kept, the spaces written as `-`; a repeated heading gets
//! `-1`, `-2`, ...). Links to other sites (`https:`, `http:`, `mailto:`) are not followed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pages checked, relative to the root: README.md, ARCHITECTURE.md and `docs/*.md`.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is listed")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(root).unwrap().to_path_buf())
        .collect();
    docs.sort();
    let mut out = vec![PathBuf::from("README.md"), PathBuf::from("ARCHITECTURE.md")];
    out.extend(docs);
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {}", path.display(), e))
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

/// A line without its code spans (text between backticks), so `a[i](x)` in code is no link.
fn without_code(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The targets of a page's links `](target)`, outside fenced code blocks and code spans, each with
/// its line number.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (no, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let line = without_code(line);
        for (i, m) in line.match_indices("](") {
            let rest = &line[i + m.len()..];
            if let Some(end) = rest.find(')') {
                out.push((no + 1, rest[..end].trim().to_string()));
            }
        }
    }
    out
}

/// What is wrong with the link `target` of page `page` (relative to `root`), if anything.
fn broken(root: &Path, page: &Path, target: &str) -> Option<String> {
    if ["https:", "http:", "mailto:"].iter().any(|s| target.starts_with(s)) {
        return None;
    }
    let (file, anchor) = match target.split_once('#') {
        Some((f, a)) => (f, Some(a)),
        None => (target, None),
    };
    let path = if file.is_empty() { root.join(page) } else { root.join(page.parent().unwrap()).join(file) };
    if file.is_empty() && anchor.is_none() {
        return Some("an empty link".into());
    }
    if !path.exists() {
        return Some(format!("{} does not exist", path.strip_prefix(root).unwrap_or(&path).display()));
    }
    let anchor = anchor?;
    if path.extension().is_none_or(|e| e != "md") {
        return Some(format!("#{} in a file that is not a Markdown page", anchor));
    }
    let known = anchors(&read(&path));
    (!known.contains(anchor))
        .then(|| format!("#{} names no heading of {} (headings: {:?})", anchor, file_name(page, file), known))
}

fn file_name<'a>(page: &'a Path, file: &'a str) -> String {
    if file.is_empty() {
        page.display().to_string()
    } else {
        file.to_string()
    }
}

/// Every broken link of the pages under `root`, one line each (`page:line: target: why`), and the
/// number of links checked.
fn broken_links(root: &Path, pages: &[PathBuf]) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages {
        for (line, target) in links(&read(&root.join(page))) {
            checked += 1;
            if let Some(why) = broken(root, page, &target) {
                problems.push(format!("{}:{}: ({}): {}", page.display(), line, target, why));
            }
        }
    }
    (problems, checked)
}

#[test]
fn every_link_of_the_pages_resolves() {
    let root = root();
    let pages = pages(&root);
    assert!(pages.len() >= 10, "only {} pages: is docs/ listed?", pages.len());
    let (problems, checked) = broken_links(&root, &pages);
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
    assert!(checked >= 100, "only {} links found: is the scan broken?", checked);
}

#[test]
fn a_broken_file_anchor_or_in_page_link_is_named() {
    let dir = std::env::temp_dir().join(format!("attn-links-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("docs/img")).unwrap();
    std::fs::write(dir.join("docs/img/a.png"), b"png").unwrap();
    std::fs::write(
        dir.join("README.md"),
        "# Top\n![a](docs/img/a.png) [b](docs/b.md#part-two) [c](#top) [web](https://example.org/x)\n\
         [gone](docs/none.md) [bad](docs/b.md#nowhere) [here](#nothere) `[code](nothing.md)`\n\
         ```md\n[fenced](nothing.md)\n```\n",
    )
    .unwrap();
    std::fs::write(dir.join("docs/b.md"), "# B\n## Part two\n[up](../README.md#top) [img](img/a.png)\n").unwrap();
    let pages = [PathBuf::from("README.md"), PathBuf::from("docs/b.md")];
    let (problems, checked) = broken_links(&dir, &pages);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(checked, 9, "{:?}", problems);
    assert_eq!(problems.len(), 3, "{:?}", problems);
    assert!(problems[0].starts_with("README.md:3: (docs/none.md): docs/none.md does not exist"), "{}", problems[0]);
    assert!(problems[1].contains("(docs/b.md#nowhere): #nowhere names no heading of docs/b.md"), "{}", problems[1]);
    assert!(problems[2].contains("(#nothere): #nothere names no heading of README.md"), "{}", problems[2]);
}

#[test]
fn anchors_are_written_as_github_writes_them() {
    let text =
        "# Title\n## Model lab\n### `attn encode`: a BERT (model lab)\n```sh\n# not a heading\n```\n## Model lab\n";
    let found: Vec<String> = anchors(text).into_iter().collect();
    assert_eq!(found, ["attn-encode-a-bert-model-lab", "model-lab", "model-lab-1", "title"]);
    let targets: Vec<String> = links("see [a](#model-lab) and [b](#nowhere).").into_iter().map(|(_, t)| t).collect();
    assert_eq!(targets, ["model-lab", "nowhere"].map(|t| format!("#{t}")));
    assert!(!anchors(text).contains("model-lab-in-progress"));
    assert_eq!(slug("d = 16 and 128: the tiled kernels"), "d--16-and-128-the-tiled-kernels");
    assert_eq!(slug("Embed mode (`embed=1`)".replace('`', "").as_str()), "embed-mode-embed1");
}

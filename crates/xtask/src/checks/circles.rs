//! No import circles among the page's modules: the static `import … from './x.js'` (and
//! `export … from`) edges between the `.js` files of `www/` (not `www/pkg`) form no cycle, so
//! every module can be read, and loaded, after the ones it imports. A dynamic `import()` (a lab
//! or a tour loaded when first shown) is not an edge.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use anyhow::Result;

/// Every circle among the static imports of `www/`'s modules, one line each.
pub fn es_import_circles(root: &Path) -> Result<Vec<String>> {
    let www = root.join("www");
    let mut graph: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in super::files_under(&www, &["pkg", "bundle", "node_modules"])? {
        let Ok(rel) = file.strip_prefix(&www) else { continue };
        let name = slash(rel);
        if !name.ends_with(".js") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let here = rel.parent().unwrap_or(Path::new(""));
        let deps = static_imports(&text).into_iter().filter_map(|spec| resolve(here, &spec)).collect();
        graph.insert(name, deps);
    }
    Ok(cycles(&graph)
        .into_iter()
        .map(|c| {
            format!(
                "www/: the modules {} import each other (a circle); move what they share to a leaf module",
                c.join(" → ")
            )
        })
        .collect())
}

/// `a/b` with forward slashes.
pub(super) fn slash(p: &Path) -> String {
    p.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The relative specifiers of a module's static imports and re-exports (one statement per line,
/// as the page writes them).
fn static_imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = super::link_text::code_of(line).trim();
        let statement = (t.starts_with("import ")
            || t.starts_with("import{")
            || t.starts_with("export {")
            || t.starts_with("export *"))
            && (t.contains(" from ") || t.starts_with("import '") || t.starts_with("import \""));
        if !statement {
            continue;
        }
        let spec = t.rsplit(['\'', '"']).nth(1).unwrap_or("");
        if spec.starts_with("./") || spec.starts_with("../") {
            out.push(spec.to_string());
        }
    }
    out
}

/// `spec` (relative to folder `here` of `www/`) as a path under `www/`, or None outside it or in
/// `pkg/` (the generated wasm glue imports nothing of the page).
fn resolve(here: &Path, spec: &str) -> Option<String> {
    let mut parts: Vec<String> = here.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    for c in PathBuf::from(spec).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            _ => return None,
        }
    }
    (parts.first().map(String::as_str) != Some("pkg")).then(|| parts.join("/"))
}

/// The strongly connected components of `graph` with more than one node or a self-edge, each
/// listed from its first node in name order (Tarjan's algorithm, iterative).
pub(super) fn cycles(graph: &BTreeMap<String, Vec<String>>) -> Vec<Vec<String>> {
    let names: Vec<&String> = graph.keys().collect();
    let id = |n: &str| names.iter().position(|m| m.as_str() == n);
    let edges: Vec<Vec<usize>> = names.iter().map(|n| graph[*n].iter().filter_map(|d| id(d)).collect()).collect();
    let (mut index, mut low, mut on) = (vec![usize::MAX; names.len()], vec![0; names.len()], vec![false; names.len()]);
    let (mut stack, mut next, mut out) = (Vec::new(), 0, Vec::new());
    for root in 0..names.len() {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if *i == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = edges[v].get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(names[w].clone());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 || edges[v].contains(&v) {
                    comp.sort();
                    out.push(comp);
                }
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_modules_import_no_circle() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let problems = es_import_circles(&root).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_circle_is_found_and_a_dynamic_import_is_not_an_edge() {
        let dir = std::env::temp_dir().join(format!("attn-circles-{}", std::process::id()));
        for (path, text) in [
            ("www/a/run.js", "import { r } from './render.js';\nimport * as w from '../pkg/attn_web.js';\n"),
            ("www/a/render.js", "import { h } from \"./hover.js\";\nexport const r = 1;\n"),
            ("www/a/hover.js", "import { run } from './run.js';\n"),
            ("www/b/lab.js", "const m = await import('../a/run.js');\nimport { leaf } from './leaf.js';\n"),
            ("www/b/leaf.js", "export const leaf = 1; // import { x } from './lab.js' in a comment is no edge\n"),
            ("www/pkg/attn_web.js", "import { run } from '../a/run.js';\n"),
        ] {
            std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
            std::fs::write(dir.join(path), text).unwrap();
        }
        let problems = es_import_circles(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("a/hover.js → a/render.js → a/run.js"), "{}", problems[0]);
    }
}

//! Import circles among the files of each crate's `src/`: file A uses file B when A names a path
//! (`use crate::x::y`, `super::Y`, `crate::x::f(…)`) that resolves to an item of B's module, a
//! `pub use` re-export followed to the module that defines the item. A module that re-exports its
//! children's items while the children use an item the module itself defines (`super::Real`) is
//! such a circle; the cure is a leaf file for what both need.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Result;

/// Every circle among `crates/*/src`'s files, each as a message naming its files.
pub fn circle_problems(root: &Path) -> Result<Vec<String>> {
    Ok(rust_circles(root)?
        .into_iter()
        .map(|c| {
            format!(
                "crates/: the files {} use each other (a circle); move what they share to a leaf file",
                c.join(" → ")
            )
        })
        .collect())
}

/// A module path inside a crate (`["depth", "forward"]`; `[]` the crate root).
type ModPath = Vec<String>;

/// Every circle among the files of `crates/*/src`, each as its sorted file names under `crates/`.
pub fn rust_circles(root: &Path) -> Result<Vec<Vec<String>>> {
    let mut out = Vec::new();
    let mut crates: Vec<_> = std::fs::read_dir(root.join("crates"))?.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    crates.sort();
    for dir in crates {
        let src = dir.join("src");
        if !src.is_dir() {
            continue;
        }
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut files = BTreeMap::new();
        for file in super::rust_files(&src)? {
            let rel = file.strip_prefix(&src)?;
            let text = std::fs::read_to_string(&file)?;
            files.insert(module_of(rel), (format!("{}/src/{}", name, super::circles::slash(rel)), text));
        }
        out.extend(crate_circles(&files));
    }
    Ok(out)
}

/// The module a file under `src/` defines (`depth/mod.rs` and `depth.rs`: `depth`).
fn module_of(rel: &Path) -> ModPath {
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs").to_string();
        if !matches!(stem.as_str(), "mod" | "lib" | "main") {
            parts.push(stem);
        }
    }
    parts
}

/// The circles among one crate's files (`files`: module → (file name, text)).
fn crate_circles(files: &BTreeMap<ModPath, (String, String)>) -> Vec<Vec<String>> {
    let mods: BTreeSet<&ModPath> = files.keys().collect();
    // Each file's paths, absolute, with whether they are `pub use` re-exports.
    let mut paths: BTreeMap<&ModPath, Vec<(bool, ModPath)>> = BTreeMap::new();
    let mut reexports: BTreeMap<&ModPath, BTreeMap<String, ModPath>> = BTreeMap::new();
    // `#[macro_export]` puts a macro at the crate root (`crate::name!`): the edge goes to the
    // file that defines it.
    let mut macros: BTreeMap<String, &ModPath> = BTreeMap::new();
    for (module, (_, text)) in files {
        for name in exported_macros(text) {
            macros.insert(name, module);
        }
    }
    for (module, (_, text)) in files {
        // A file's unit tests (`#[cfg(test)] mod tests`, last by convention) are a module of
        // their own: their `super::` is the file, and they are no part of the crate's graph.
        let code = strip(text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text));
        let mut found = Vec::new();
        for (public, path) in named_paths(&code) {
            if let Some(abs) = absolute(module, &path, &mods) {
                if public {
                    if let Some(last) = abs.last() {
                        reexports.entry(module).or_default().insert(last.clone(), abs.clone());
                    }
                }
                found.push((public, abs));
            }
        }
        paths.insert(module, found);
    }
    let target = |path: &ModPath| -> Option<ModPath> {
        if let [name] = path.as_slice() {
            if let Some(module) = macros.get(name) {
                return Some((*module).clone());
            }
        }
        let mut path = path.clone();
        for _ in 0..16 {
            let k = (0..=path.len()).rev().find(|k| mods.contains(&path[..*k].to_vec()))?;
            let module = path[..k].to_vec();
            match path.get(k).and_then(|name| reexports.get(&module)?.get(name)) {
                Some(next) if *next != path => path = next.clone(),
                _ => return Some(module),
            }
        }
        None
    };
    let mut graph: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (module, found) in &paths {
        let from = files[*module].0.clone();
        let mut to: Vec<String> =
            found.iter().filter_map(|(_, p)| target(p)).filter(|t| t != *module).map(|t| files[&t].0.clone()).collect();
        to.sort();
        to.dedup();
        graph.insert(from, to);
    }
    super::circles::cycles(&graph)
}

/// The names of the macros a file exports to the crate root (`#[macro_export]` then
/// `macro_rules! name`).
fn exported_macros(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("#[macro_export]") {
        rest = &rest[i + "#[macro_export]".len()..];
        let Some(after) = rest.trim_start().strip_prefix("macro_rules!") else { continue };
        let name: String = after.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

/// `path` as written in module `here` made absolute (`crate::`, `super::`, `self::`, or a child
/// module's name), or None for another crate's path.
fn absolute(here: &ModPath, path: &[String], mods: &BTreeSet<&ModPath>) -> Option<ModPath> {
    let first = path.first()?;
    let mut base = here.clone();
    let rest = match first.as_str() {
        "crate" => {
            base.clear();
            &path[1..]
        }
        "self" => &path[1..],
        "super" => {
            let supers = path.iter().take_while(|p| *p == "super").count();
            base.truncate(base.len().checked_sub(supers)?);
            &path[supers..]
        }
        _ => {
            let mut child = base.clone();
            child.push(first.clone());
            if !mods.contains(&child) {
                return None;
            }
            path
        }
    };
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The paths a file's code names: each `use` tree's leaves (with whether the `use` is public)
/// and every `crate::…` / `super::…` / `self::…` path written inline.
fn named_paths(code: &str) -> Vec<(bool, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = code;
    let mut inline = String::new(); // the code outside `use` statements
    while let Some(i) = find_word(rest, "use") {
        let before = rest[..i].trim_end();
        let public = before.ends_with("pub") || before.ends_with(')') && before.contains("pub(");
        let after = &rest[i + 3..];
        let Some(end) = after.find(';') else { break };
        expand(&[], after[..end].trim(), &mut |p| out.push((public, p)));
        inline.push_str(&rest[..i]);
        rest = &after[end..];
    }
    inline.push_str(rest);
    for start in ["crate::", "super::", "self::"] {
        let mut rest = inline.as_str();
        while let Some(i) = rest.find(start) {
            let boundary = rest[..i].chars().last().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
            let tail = &rest[i..];
            let len = tail.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(tail.len());
            if boundary {
                let path: Vec<String> = tail[..len].split("::").filter(|s| !s.is_empty()).map(String::from).collect();
                out.push((false, path));
            }
            rest = &tail[len.max(1)..];
        }
    }
    out
}

/// The index of `word` in `text` as a whole word, or None.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = text[..at].chars().last().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = text[at + word.len()..].chars().next().is_some_and(char::is_whitespace);
        if before && after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Calls `leaf` with each path of use tree `tree` (`a::{b, c::d as e, self}` → a::b, a::c::d, a).
fn expand(prefix: &[String], tree: &str, leaf: &mut dyn FnMut(Vec<String>)) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &inner[start..i], leaf);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(prefix, &inner[start..], leaf);
        return;
    }
    if tree.is_empty() {
        return;
    }
    match tree.split_once("::") {
        Some((head, tail)) if !head.contains('{') => {
            let mut p = prefix.to_vec();
            p.push(head.trim().to_string());
            expand(&p, tail, leaf);
        }
        _ => {
            let name = tree.split(" as ").next().unwrap_or(tree).trim();
            let mut p = prefix.to_vec();
            if name != "self" && name != "*" {
                p.push(name.to_string());
            }
            leaf(p);
        }
    }
}

/// Code without comments, string and char literals (so a path in a doc comment is no edge).
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if prev == '*' && d == '/' {
                        break;
                    }
                    prev = d;
                }
            }
            '\'' if chars.peek() == Some(&'"') => {
                chars.next(); // the char literal '"'
                out.push_str("' '");
            }
            '"' => {
                let mut escaped = false;
                for d in chars.by_ref() {
                    if !escaped && d == '"' {
                        break;
                    }
                    escaped = !escaped && d == '\\';
                }
                out.push_str("\"\"");
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crate_of(files: &[(&str, &str)]) -> Vec<Vec<String>> {
        let map = files.iter().map(|(p, t)| (module_of(Path::new(p)), (p.to_string(), t.to_string()))).collect();
        crate_circles(&map)
    }

    #[test]
    fn a_parent_reexporting_a_child_that_uses_the_parents_item_is_a_circle() {
        let circles = crate_of(&[
            ("lib.rs", "pub mod depth;\n"),
            ("depth/mod.rs", "pub mod forward;\npub use forward::Forward;\npub trait Real {}\n"),
            ("depth/forward.rs", "use super::Real; // crate::lib in a comment\npub struct Forward;\n"),
        ]);
        assert_eq!(circles, vec![vec!["depth/forward.rs".to_string(), "depth/mod.rs".to_string()]]);
    }

    #[test]
    fn a_reexport_is_followed_to_the_file_that_defines_the_item() {
        // forward uses `super::Variant`, which mod.rs re-exports from variant.rs: the edge goes
        // to variant.rs, and there is no circle.
        let circles = crate_of(&[
            ("lib.rs", "pub mod depth;\n"),
            ("depth/mod.rs", "pub mod forward;\npub mod variant;\npub use forward::Forward;\npub use variant::{Variant, VARIANTS};\n"),
            ("depth/forward.rs", "use super::Variant;\npub struct Forward;\n"),
            ("depth/variant.rs", "pub enum Variant {}\nconst S: &str = \"use crate::depth::forward;\";\n"),
        ]);
        assert!(circles.is_empty(), "{circles:?}");
    }

    #[test]
    fn the_crates_have_no_circle() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let problems = circle_problems(&root).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn an_exported_macro_is_named_at_the_root_and_leads_to_its_file() {
        // keys.rs defines `key!` (exported to `crate::key!`) and uses a type of config.rs, which
        // calls `crate::key!`: a circle between the two files, not through lib.rs.
        let circles = crate_of(&[
            ("lib.rs", "pub mod config;\npub mod keys;\npub use config::Config;\n"),
            ("keys.rs", "use crate::Config;\n#[macro_export]\nmacro_rules! key {\n    () => {};\n}\n"),
            ("config.rs", "pub struct Config;\ncrate::key!();\n"),
        ]);
        assert_eq!(circles, vec![vec!["config.rs".to_string(), "keys.rs".to_string()]]);
        let none = crate_of(&[
            ("lib.rs", "pub mod config;\npub mod keys;\npub use config::Config;\n"),
            ("keys.rs", "#[macro_export]\nmacro_rules! key {\n    () => {};\n}\n"),
            ("config.rs", "pub struct Config;\ncrate::key!();\n"),
        ]);
        assert!(none.is_empty(), "{none:?}");
    }

    #[test]
    fn an_inline_path_is_an_edge() {
        let circles = crate_of(&[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "pub fn f() { crate::b::g() }\n"),
            ("b.rs", "pub fn g() { let _ = crate::a::f; }\n"),
        ]);
        assert_eq!(circles, vec![vec!["a.rs".to_string(), "b.rs".to_string()]]);
    }
}

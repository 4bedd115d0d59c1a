//! Tests' reader of `www/wasm.d.ts` and `www/wasm_page.d.ts`, the page's declarations of the
//! JSON this crate returns: the fields an interface declares (its own and those of the interfaces
//! it extends), to compare with what serde writes for the Rust struct it mirrors.

use std::collections::BTreeSet;

/// The declaration files, from the crate's folder.
const FILES: [&str; 2] = ["/../../www/wasm.d.ts", "/../../www/wasm_page.d.ts"];

/// The text of the declaration files, one after the other.
fn dts() -> String {
    FILES
        .iter()
        .map(|f| {
            let path = format!("{}{}", env!("CARGO_MANIFEST_DIR"), f);
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The fields of interface `name` in the declaration files: its members (`name:` or `name?:` at
/// the interface's first level) and, for `extends A, B`, theirs.
pub fn fields_of(name: &str) -> BTreeSet<String> {
    fields_in(&dts(), name)
}

fn fields_in(text: &str, name: &str) -> BTreeSet<String> {
    let head = format!("interface {name} ");
    let start = text
        .lines()
        .position(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("www/wasm.d.ts has no interface {name}"));
    let lines: Vec<&str> = text.lines().collect();
    let mut out = BTreeSet::new();
    if let Some(parents) = lines[start].strip_prefix(&head).and_then(|r| r.strip_prefix("extends ")) {
        for parent in parents.trim_end_matches('{').split(',').map(str::trim).filter(|p| !p.is_empty()) {
            out.extend(fields_in(text, parent));
        }
    }
    let mut depth = 1;
    for line in &lines[start + 1..] {
        let t = line.trim();
        if depth == 1 && !t.starts_with('/') && !t.starts_with('*') {
            if let Some((key, _)) = t.split_once(':') {
                let key = key.trim_end_matches('?');
                if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    out.insert(key.to_string());
                }
            }
        }
        depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
        if depth <= 0 {
            return out;
        }
    }
    panic!("interface {name} in www/wasm.d.ts is not closed")
}

/// The keys of a JSON object (empty for anything else).
pub fn json_keys(v: &serde_json::Value) -> BTreeSet<String> {
    v.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_members_and_inherited_ones_not_nested_or_commented() {
        let text = "interface A {\n  a: number;\n  /** b: not a member */\n  b?: { c: string };\n}\n\
                    interface B extends A {\n  d: string[];\n}\n";
        let want = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(fields_in(text, "A"), want(&["a", "b"]));
        assert_eq!(fields_in(text, "B"), want(&["a", "b", "d"]));
    }
}

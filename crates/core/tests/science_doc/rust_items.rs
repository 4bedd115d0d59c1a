//! The Rust side of the check: source with comments and literals blanked, its tokens and
//! top-level items, and the resolver of a `Code:` path (the rules are in `main.rs`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{core_src, read};

// Rust source: comments and literals blanked, then tokens

pub(crate) fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

pub(crate) fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_alphabetic() || c == '_') && cs.all(is_ident_char)
}

/// `src` with comments (line, block, doc), string literals (plain, byte, raw) and character
/// literals replaced by blanks or `""`, so that braces and words inside them are not code.
/// Lifetimes (`'a`) are kept.
pub(crate) fn strip_rust(src: &str) -> String {
    let cs: Vec<char> = src.chars().collect();
    let n = cs.len();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < n {
        let c = cs[i];
        let next = cs.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < n && cs[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            let mut depth = 1;
            i += 2;
            while i < n && depth > 0 {
                if cs[i] == '/' && cs.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if cs[i] == '*' && cs.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                } else {
                    i += 1;
                }
            }
            out.push(' ');
            continue;
        }
        let prev_ident = i > 0 && is_ident_char(cs[i - 1]);
        if !prev_ident && (c == 'r' || (c == 'b' && next == Some('r'))) {
            // Raw string r"...", r#"..."#, br"...": only when the quote follows the hashes.
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while j < n && cs[j] == '#' {
                hashes += 1;
                j += 1;
            }
            if j < n && cs[j] == '"' {
                j += 1;
                loop {
                    if j >= n {
                        break;
                    }
                    if cs[j] == '"' && (1..=hashes).all(|h| cs.get(j + h) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                i = j;
                out.push_str("\"\"");
                continue;
            }
        }
        if c == '"' {
            i += 1;
            while i < n && cs[i] != '"' {
                if cs[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
            continue;
        }
        if c == '\'' {
            if next == Some('\\') {
                // An escaped character literal: '\n', '\'', '\u{7f}'.
                let mut j = i + 3;
                while j < n && cs[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
                out.push(' ');
                continue;
            }
            if cs.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push(' ');
                continue;
            }
            // A lifetime or a label: kept.
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Tokens of stripped source: identifiers (and numbers), `::`, `->`, `=>`, and single characters.
pub(crate) fn tokenize(code: &str) -> Vec<String> {
    let cs: Vec<char> = code.chars().collect();
    let n = cs.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if is_ident_char(c) {
            let s = i;
            while i < n && is_ident_char(cs[i]) {
                i += 1;
            }
            out.push(cs[s..i].iter().collect());
        } else {
            let two: String = cs[i..(i + 2).min(n)].iter().collect();
            if two == "::" || two == "->" || two == "=>" {
                out.push(two);
                i += 2;
            } else {
                out.push(c.to_string());
                i += 1;
            }
        }
    }
    out
}

/// The tokens of a Rust file, comments and literals removed.
pub(crate) fn file_tokens(path: &Path) -> Vec<String> {
    tokenize(&strip_rust(&read(path)))
}

/// Index of the `}` matching the `{` at `open`.
pub(crate) fn matching_brace(toks: &[String], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if t == "{" {
            depth += 1;
        } else if t == "}" {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    toks.len()
}

/// The item depth of every token: the number of enclosing braces, not counting the braces of a
/// macro invocation `name! { ... }` (items written inside an item macro such as
/// `crate::named_enum! { pub enum E { ... } }` are declared in the file like any other).
pub(crate) fn item_depths(toks: &[String]) -> Vec<i64> {
    let mut out = Vec::with_capacity(toks.len());
    let mut stack: Vec<bool> = Vec::new(); // per open brace: does it count?
    let mut depth = 0i64;
    for (k, t) in toks.iter().enumerate() {
        out.push(depth);
        if t == "{" {
            let counts = k == 0 || toks[k - 1] != "!";
            stack.push(counts);
            depth += counts as i64;
        } else if t == "}" && stack.pop() == Some(true) {
            depth -= 1;
        }
    }
    out
}

/// `(keyword, name, index of keyword)` of every item declared at item depth 0 (see [`item_depths`]).
pub(crate) fn top_level_items(toks: &[String]) -> Vec<(String, String, usize)> {
    const KEYWORDS: [&str; 9] = ["fn", "struct", "enum", "trait", "const", "static", "type", "mod", "union"];
    let depths = item_depths(toks);
    let mut out = Vec::new();
    for k in 0..toks.len() {
        let t = toks[k].as_str();
        if depths[k] == 0 && KEYWORDS.contains(&t) {
            if let Some(name) = toks.get(k + 1).filter(|s| is_ident(s)) {
                out.push((t.to_string(), name.clone(), k));
            }
        }
    }
    out
}

/// Names declared by `fn`, `const` or `type` directly in the block whose `{` is at `open`.
pub(crate) fn block_members(toks: &[String], open: usize) -> Vec<String> {
    let close = matching_brace(toks, open);
    let mut out = Vec::new();
    let mut depth = 0i64;
    for k in open + 1..close {
        match toks[k].as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "fn" | "const" | "type" if depth == 0 => {
                if let Some(name) = toks.get(k + 1).filter(|s| is_ident(s)) {
                    out.push(name.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// The variants of the enum whose body `{` is at `open`.
pub(crate) fn enum_variants(toks: &[String], open: usize) -> Vec<String> {
    let close = matching_brace(toks, open);
    let mut out = Vec::new();
    let mut depth = 0i64; // (), [], {} inside the enum's body
    let mut expect_name = true;
    let mut k = open + 1;
    while k < close {
        let t = toks[k].as_str();
        if depth == 0 && t == "#" {
            // An attribute: skip `#[ ... ]`.
            let mut d = 0i64;
            k += 1;
            while k < close {
                match toks[k].as_str() {
                    "[" => d += 1,
                    "]" => {
                        d -= 1;
                        if d == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
        } else {
            match t {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => expect_name = true,
                _ if depth == 0 && expect_name && is_ident(t) => {
                    out.push(t.to_string());
                    expect_name = false;
                }
                _ => {}
            }
        }
        k += 1;
    }
    out
}

/// The self type of an `impl` header (tokens between `impl` and `{`): the last path segment
/// of the type after `for`, or after the generic parameters.
pub(crate) fn impl_self_type(header: &[String]) -> Option<String> {
    let mut j = 0;
    if header.first().map(String::as_str) == Some("<") {
        let mut d = 0i64;
        while j < header.len() {
            match header[j].as_str() {
                "<" => d += 1,
                ">" => {
                    d -= 1;
                    if d == 0 {
                        j += 1;
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
    }
    let mut d = 0i64;
    let mut for_at = None;
    for (k, t) in header.iter().enumerate().skip(j) {
        match t.as_str() {
            "<" => d += 1,
            ">" => d -= 1,
            "for" if d == 0 => {
                for_at = Some(k);
                break;
            }
            _ => {}
        }
    }
    if let Some(k) = for_at {
        j = k + 1;
    }
    while j < header.len() && matches!(header[j].as_str(), "&" | "mut" | "dyn") {
        j += 1;
    }
    let mut name = None;
    while j < header.len() && is_ident(&header[j]) {
        name = Some(header[j].clone());
        if header.get(j + 1).map(String::as_str) == Some("::") {
            j += 2;
        } else {
            break;
        }
    }
    name
}

/// Members of `ty` in the file: `fn`/`const`/`type` of its impls in the file (and of the trait
/// itself when `ty` is a trait), and its variants when it is an enum defined in the file. A type
/// defined in another file counts through the file's `impl ty` blocks (a module that adds methods
/// to a type of its crate names them). `None` when the file neither defines `ty` nor implements it.
pub(crate) fn type_members(toks: &[String], ty: &str) -> Option<BTreeSet<String>> {
    let items = top_level_items(toks);
    let defined = items
        .iter()
        .find(|(kw, name, _)| name == ty && matches!(kw.as_str(), "struct" | "enum" | "trait" | "type" | "union"));
    let mut members = BTreeSet::new();
    let mut implemented = false;
    if let Some((kind, _, at)) = defined.filter(|(kind, _, _)| kind == "enum" || kind == "trait") {
        if let Some(open) = (at + 2..toks.len()).find(|&k| toks[k] == "{" || toks[k] == ";") {
            if toks[open] == "{" {
                let names = if kind == "enum" { enum_variants(toks, open) } else { block_members(toks, open) };
                members.extend(names);
            }
        }
    }
    let depths = item_depths(toks);
    for k in 0..toks.len() {
        if toks[k] != "impl" || depths[k] != 0 {
            continue;
        }
        if let Some(open) = (k + 1..toks.len()).find(|&m| toks[m] == "{" || toks[m] == ";") {
            if toks[open] == "{" && impl_self_type(&toks[k + 1..open]).as_deref() == Some(ty) {
                members.extend(block_members(toks, open));
                implemented = true;
            }
        }
    }
    (defined.is_some() || implemented).then_some(members)
}

/// Whether the file declares `mod name;` (a module in its own file) at the top level.
pub(crate) fn declares_file_module(toks: &[String], name: &str) -> bool {
    top_level_items(toks)
        .iter()
        .any(|(kw, n, at)| kw == "mod" && n == name && toks.get(at + 2).map(String::as_str) == Some(";"))
}

/// Resolves a `Code:` path against the sources under `src` (see the module documentation).
/// Returns the file that defines the item, or why the path does not resolve.
pub(crate) fn resolve_in(src: &Path, path: &str) -> Result<PathBuf, String> {
    let segs: Vec<&str> = path.split("::").collect();
    if segs.first() != Some(&"crate") || segs.len() < 2 {
        return Err(format!("`{}` does not start with `crate::`", path));
    }
    if let Some(bad) = segs[1..].iter().find(|s| !is_ident(s)) {
        return Err(format!("`{}`: `{}` is not an identifier", path, bad));
    }
    let mut file = src.join("lib.rs");
    let mut dir = src.to_path_buf();
    let mut toks = file_tokens(&file);
    let mut i = 1;
    while i + 1 < segs.len() && declares_file_module(&toks, segs[i]) {
        let (flat, nested) = (dir.join(format!("{}.rs", segs[i])), dir.join(segs[i]).join("mod.rs"));
        file = if flat.is_file() {
            flat
        } else if nested.is_file() {
            nested
        } else {
            return Err(format!("`{}`: module `{}` has no file in {}", path, segs[i], dir.display()));
        };
        dir = dir.join(segs[i]);
        toks = file_tokens(&file);
        i += 1;
    }
    let rest = &segs[i..];
    let shown = file.strip_prefix(src).unwrap_or(&file).display().to_string();
    match rest {
        [name] => {
            if top_level_items(&toks).iter().any(|(_, n, _)| n == name) {
                Ok(file)
            } else if toks.iter().any(|t| t == name) {
                Err(format!(
                    "`{}`: `{}` is not defined at the top level of {} (a re-export, a method or a local name; name the module that defines it, or `Type::{}`)",
                    path, name, shown, name
                ))
            } else {
                Err(format!("`{}`: no `{}` in {}", path, name, shown))
            }
        }
        [ty, member] => match type_members(&toks, ty) {
            None => Err(format!("`{}`: no type `{}` defined in {}", path, ty, shown)),
            Some(members) if members.contains(*member) => Ok(file),
            Some(members) => Err(format!(
                "`{}`: `{}` has no method, associated item or variant `{}` in {} (it has: {})",
                path,
                ty,
                member,
                shown,
                members.into_iter().collect::<Vec<_>>().join(", ")
            )),
        },
        _ => Err(format!("`{}`: `{}` is not a module of {}", path, rest[0], shown)),
    }
}

pub(crate) fn resolve(path: &str) -> Result<PathBuf, String> {
    resolve_in(&core_src(), path)
}

// ---------------------------------------------------------------------------------------------

/// The resolver reports misspelt or misplaced names as missing (so the test above cannot pass
/// vacuously).
#[test]
fn resolver_reports_missing_names() {
    for bad in [
        "crate::particles::field::Field::velocity_rowz",
        "crate::particles::field::Fields::velocity_rows",
        "crate::depth::rank::residuals",
        "crate::depth::rank::no_such_function",
        "crate::particles::analysis::attention::boolean_distanse",
        // A re-export is not a definition.
        "crate::particles::analysis::boolean_distance",
        // A method is not a module-level function.
        "crate::particles::field::velocity_rows",
        // A name that occurs only in a doc comment.
        "crate::particles::field::hardmax",
        "crate::particles::config::Integrator::Leapfrog",
        "crate::depth::real::Real::sqrt",
        "crate::depth::no_such_module::item",
        "crate::particles::config::presets::Preset::Polytope::config",
        "particles::field::Field",
        "crate::",
        "crate",
        "crate::particles::field::Field::velocity_rows.",
    ] {
        assert!(resolve(bad).is_err(), "`{}` resolved but does not exist", bad);
    }
}

/// The resolver finds each kind of item it promises to find.
#[test]
fn resolver_finds_each_kind_of_item() {
    for (good, file) in [
        ("crate::collapse::residual::residual", "collapse/residual.rs"), // fn
        ("crate::particles::field::Field::velocity_rows", "particles/field/mod.rs"), // method
        ("crate::particles::field::Field", "particles/field/mod.rs"),    // struct
        ("crate::particles::config::types::Integrator::Retraction", "particles/config/types.rs"), // variant
        ("crate::depth::real::Real::erf", "depth/real.rs"),              // trait method
        ("crate::run::Stepping::advance", "run.rs"),                     // provided trait method
        ("crate::exp::EXP_OVERFLOW", "exp.rs"),                          // const
        ("crate::exp::rational::exp_rational", "exp/rational.rs"),       // fn in a nested file
        ("crate::particles::config::presets::Preset::config", "particles/config/presets.rs"), // private module
        ("crate::particles::field::rows::LANES", "particles/field/rows.rs"),
        ("crate::depth::paths", "depth/mod.rs"), // module
        ("crate::link::error::ConfigError::new", "link/error.rs"),
        ("crate::depth::variants::Variant::work", "depth/variants.rs"), // a method of a type of another file
    ] {
        match resolve(good) {
            Ok(path) => assert_eq!(path, core_src().join(file), "`{}`", good),
            Err(e) => panic!("{}", e),
        }
    }
}

/// Comments and literals are blanked; lifetimes and code are kept.
#[test]
fn stripping_keeps_code_only() {
    let src = "/// fn ghost() {}\n// struct Ghost;\n/* enum /* nested */ Ghost {} */\nfn real<'a>(x: &'a str) -> char { let _ = \"}\"; let _ = r#\"fn ghost\"#; '{' }\n";
    let toks = tokenize(&strip_rust(src));
    assert!(!toks.iter().any(|t| t == "ghost" || t == "Ghost"), "{:?}", toks);
    let items = top_level_items(&toks);
    assert_eq!(items.iter().map(|(k, n, _)| format!("{} {}", k, n)).collect::<Vec<_>>(), ["fn real"]);
    assert_eq!(matching_brace(&toks, toks.iter().position(|t| t == "{").unwrap()), toks.len() - 1);
    // Items inside an item macro's braces are top-level; a `macro_rules!` body is not.
    let src = "crate::named_enum! {\n    /// Doc.\n    pub enum E {\n        /// A.\n        A = \"a\",\n        B = \"b\",\n    }\n}\nmacro_rules! m { () => { fn hidden() {} } }\n";
    let toks = tokenize(&strip_rust(src));
    let names: Vec<String> = top_level_items(&toks).into_iter().map(|(_, n, _)| n).collect();
    assert_eq!(names, ["E"]);
    assert_eq!(type_members(&toks, "E").unwrap().into_iter().collect::<Vec<_>>(), ["A", "B"]);
}

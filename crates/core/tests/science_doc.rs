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
//! - or two segments `Type::member`, where `Type` is a `struct`, `enum`, `trait`, `type` or `union`
//!   of that file and `member` is a `fn`, `const` or `type` inside an `impl` of `Type` in the same
//!   file (inherent or trait impl), a `fn`, `const` or `type` of the trait `Type`, or a variant of
//!   the enum `Type`.
//!
//! Comments, string literals and character literals are blanked before anything is looked up, so
//! a name that occurs only in a doc comment is not found.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Paths

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The repository root (`crates/core/../..`).
fn repo_root() -> PathBuf {
    manifest_dir().join("..").join("..")
}

fn science_path() -> PathBuf {
    repo_root().join("docs").join("science.md")
}

fn core_src() -> PathBuf {
    manifest_dir().join("src")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {}", path.display(), e))
}

// ---------------------------------------------------------------------------------------------
// Rust source: comments and literals blanked, then tokens

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_alphabetic() || c == '_') && cs.all(is_ident_char)
}

/// `src` with comments (line, block, doc), string literals (plain, byte, raw) and character
/// literals replaced by blanks or `""`, so that braces and words inside them are not code.
/// Lifetimes (`'a`) are kept.
fn strip_rust(src: &str) -> String {
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
fn tokenize(code: &str) -> Vec<String> {
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
fn file_tokens(path: &Path) -> Vec<String> {
    tokenize(&strip_rust(&read(path)))
}

/// Index of the `}` matching the `{` at `open`.
fn matching_brace(toks: &[String], open: usize) -> usize {
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
fn item_depths(toks: &[String]) -> Vec<i64> {
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
fn top_level_items(toks: &[String]) -> Vec<(String, String, usize)> {
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
fn block_members(toks: &[String], open: usize) -> Vec<String> {
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
fn enum_variants(toks: &[String], open: usize) -> Vec<String> {
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
fn impl_self_type(header: &[String]) -> Option<String> {
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

/// Members of `ty` in the file: `fn`/`const`/`type` of its impls (and of the trait itself when
/// `ty` is a trait), and its variants when it is an enum. `None` when `ty` is not a type of the file.
fn type_members(toks: &[String], ty: &str) -> Option<BTreeSet<String>> {
    let items = top_level_items(toks);
    let (kind, _, at) = items
        .iter()
        .find(|(kw, name, _)| name == ty && matches!(kw.as_str(), "struct" | "enum" | "trait" | "type" | "union"))?;
    let mut members = BTreeSet::new();
    if kind == "enum" || kind == "trait" {
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
            }
        }
    }
    Some(members)
}

/// Whether the file declares `mod name;` (a module in its own file) at the top level.
fn declares_file_module(toks: &[String], name: &str) -> bool {
    top_level_items(toks)
        .iter()
        .any(|(kw, n, at)| kw == "mod" && n == name && toks.get(at + 2).map(String::as_str) == Some(";"))
}

/// Resolves a `Code:` path against the sources under `src` (see the module documentation).
/// Returns the file that defines the item, or why the path does not resolve.
fn resolve_in(src: &Path, path: &str) -> Result<PathBuf, String> {
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

fn resolve(path: &str) -> Result<PathBuf, String> {
    resolve_in(&core_src(), path)
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
// Citations in the code

/// One citation of the document in a source file.
#[derive(Debug, Clone, PartialEq)]
enum Cited {
    /// `§N` or `§N.M`: that section (`"N"` or `"N.M"`).
    Section(String),
    /// `§N-M`: every section from `N` to `M`.
    Range(u32, u32),
    /// `science.md, "Name"` or `"Name" in science.md`: a heading containing `Name`.
    Named(String),
    /// Something after `§` that is not a section number.
    Malformed(String),
}

fn digits(cs: &[char], k: &mut usize) -> String {
    let s = *k;
    while *k < cs.len() && cs[*k].is_ascii_digit() {
        *k += 1;
    }
    cs[s..*k].iter().collect()
}

/// The citations of `science.md` in `text`: for each occurrence, the `§` references in the words
/// that follow it (continuing over comment lines, up to a `)`, `]`, `;`, `:`, backquote, quote,
/// the end of a sentence, a blank line, or 160 characters), or the quoted heading name around it.
fn citations(text: &str) -> Vec<(usize, Cited)> {
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
fn files_under(dir: &Path, ext: &str, skip: &[PathBuf], out: &mut Vec<PathBuf>) {
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
fn cited_files() -> Vec<PathBuf> {
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

/// Sections §1 to §6 exist, in order, as `## §N` headings, and each subsection `§N.M` sits under
/// its section.
#[test]
fn science_doc_sections_are_1_to_6() {
    let doc = read(&science_path());
    let (majors, all) = headings(&doc);
    assert_eq!(majors, ["1", "2", "3", "4", "5", "6"], "the `## §N` headings of docs/science.md");
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
        "crate::depth::Real::sqrt",
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
        ("crate::particles::config::Integrator::Retraction", "particles/config/mod.rs"), // variant
        ("crate::depth::Real::erf", "depth/mod.rs"),                     // trait method
        ("crate::run::Stepping::advance", "run.rs"),                     // provided trait method
        ("crate::exp::EXP_OVERFLOW", "exp.rs"),                          // const
        ("crate::exp::rational::exp_rational", "exp/rational.rs"),       // fn in a nested file
        ("crate::particles::config::presets::Preset::config", "particles/config/presets.rs"), // private module
        ("crate::particles::field::rows::LANES", "particles/field/rows.rs"),
        ("crate::depth::paths", "depth/mod.rs"), // module
        ("crate::link::ConfigError::new", "link/mod.rs"),
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

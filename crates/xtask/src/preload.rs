//! The page's preload list: `www/index.html` names, between `<!-- preload -->` and
//! `<!-- /preload -->`, the wasm module (`rel=preload`, fetched while the scripts load) and every
//! module that `main.js` and the default lab (`particles/lab.js`, imported by `main.js` at run
//! time) import statically (`rel=modulepreload`). Without the list the browser discovers the
//! modules one import level at a time and asks for the wasm only once `main.js` runs; with it
//! everything is asked for at once (`/` to the first token frame: 775 against 591 ms, median of 9
//! cold loads each, interleaved, load average 7). `cargo xtask docs` writes the list; the
//! repository check fails when it differs from the imports.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{bail, Context, Result};

/// The page whose list this writes, relative to the repository root.
pub const PAGE: &str = "www/index.html";

/// The modules whose static imports are preloaded, relative to `www/`: the page's script and the
/// default lab.
pub const ENTRIES: [&str; 2] = ["main.js", "particles/lab.js"];

/// The wasm module the page instantiates first, relative to `www/`.
pub const WASM: &str = "pkg/attn_web_bg.wasm";

const START: &str = "<!-- preload: cargo xtask docs writes this list -->\n";
const END: &str = "  <!-- /preload -->";

/// The relative specifiers a module imports statically (`import … from './x.js'`, `import
/// './x.js'`, `export … from './x.js'`), in the order written; `import(…)` is not static.
pub fn static_imports(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut statement: Option<String> = None;
    for line in source.lines() {
        let t = line.trim_start();
        if statement.is_none() {
            let starts = ["import ", "import{", "import'", "import\"", "export {", "export{", "export *"]
                .iter()
                .any(|p| t.starts_with(p));
            if !starts {
                continue;
            }
            statement = Some(String::new());
        }
        let s = statement.as_mut().expect("a statement is open");
        s.push_str(t);
        s.push(' ');
        if t.contains(';') || t.trim_end().ends_with('\'') || t.trim_end().ends_with('"') {
            if let Some(spec) = specifier(s) {
                if spec.starts_with('.') {
                    out.push(spec);
                }
            }
            statement = None;
        }
    }
    out
}

/// The quoted specifier of one import or export statement: the last quoted string.
fn specifier(statement: &str) -> Option<String> {
    let end = statement.rfind(['\'', '"'])?;
    let quote = statement.as_bytes()[end] as char;
    let start = statement[..end].rfind(quote)?;
    Some(statement[start + 1..end].to_string())
}

/// `from` (a path relative to `www/`) joined with the relative specifier `spec`, normalised.
fn resolve(from: &str, spec: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for p in spec.split('/') {
        match p {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(p),
        }
    }
    parts.join("/")
}

/// Every module reachable from `entries` by static imports (paths relative to `www`), each once,
/// depth first in import order, the entries included.
pub fn graph(www: &Path, entries: &[&str]) -> Result<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    let mut stack: Vec<String> = entries.iter().rev().map(|e| e.to_string()).collect();
    while let Some(f) = stack.pop() {
        if !seen.insert(f.clone()) {
            continue;
        }
        let path = www.join(&f);
        let text = if f.starts_with("pkg/") && !path.exists() {
            String::new() // wasm-bindgen's output, built later; it imports nothing of www/
        } else {
            std::fs::read_to_string(&path).with_context(|| format!("cannot read www/{f}"))?
        };
        for spec in static_imports(&text).iter().rev() {
            stack.push(resolve(&f, spec));
        }
        order.push(f);
    }
    Ok(order)
}

/// The list's lines (between the markers) for the modules of `www`.
pub fn block(www: &Path) -> Result<String> {
    let mut out =
        format!("  <link rel=\"preload\" href=\"{WASM}\" as=\"fetch\" type=\"application/wasm\" crossorigin>\n");
    for f in graph(www, &ENTRIES)?.iter().filter(|f| f.as_str() != ENTRIES[0]) {
        out.push_str(&format!("  <link rel=\"modulepreload\" href=\"{f}\">\n"));
    }
    Ok(out)
}

/// The page's text with its list replaced by `list`, or an error naming the missing marker.
fn with_list(page: &str, list: &str) -> Result<String> {
    let Some(start) = page.find(START).map(|i| i + START.len()) else {
        bail!("{PAGE} has no `{}` line", START.trim());
    };
    let Some(end) = page[start..].find(END).map(|i| start + i) else {
        bail!("{PAGE}: the preload list has no closing `{}`", END.trim());
    };
    let mut text = page.to_string();
    text.replace_range(start..end, list);
    Ok(text)
}

/// Rewrites the list of `root/www/index.html`; prints whether it changed.
pub fn write(root: &Path) -> Result<()> {
    let path = root.join(PAGE);
    let page = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = with_list(&page, &block(&root.join("www"))?)?;
    if text != page {
        std::fs::write(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("{PAGE}: preload list rewritten");
    }
    Ok(())
}

/// The repository check: the page's list is what [`write`] writes (empty when it is).
pub fn stale(root: &Path) -> Result<Vec<String>> {
    let page = std::fs::read_to_string(root.join(PAGE)).with_context(|| format!("cannot read {PAGE}"))?;
    let want = with_list(&page, &block(&root.join("www"))?)?;
    Ok(if want == page {
        Vec::new()
    } else {
        vec![format!(
            "{PAGE}: the preload list differs from the static imports of {}; run cargo xtask docs",
            ENTRIES.join(" and ")
        )]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_static_imports_and_skips_dynamic_ones() {
        let src = "import init, * as wasm from './pkg/attn_web.js';\n\
                   import {\n  a,\n  b,\n} from '../ui/dom.js';\n\
                   import './side.js';\n\
                   export { c } from \"./c.js\";\n\
                   export function g() {\n  return './not-an-import.js';\n}\n\
                   export { f, g };\n\
                   export function f() { return import('./lazy.js'); }\n\
                   // import x from './comment.js';\n\
                   const s = 'import y from \"./string.js\"';\n\
                   import { chromium } from 'playwright-core';\n";
        assert_eq!(static_imports(src), ["./pkg/attn_web.js", "../ui/dom.js", "./side.js", "./c.js"]);
    }

    #[test]
    fn resolves_relative_paths() {
        assert_eq!(resolve("main.js", "./lab/labs.js"), "lab/labs.js");
        assert_eq!(resolve("particles/lab.js", "../ui/dom.js"), "ui/dom.js");
        assert_eq!(resolve("a/b/c.js", "../../d.js"), "d.js");
    }

    #[test]
    fn the_list_goes_between_the_markers() {
        let page = format!("<head>\n  {START}  old\n{END}\n</head>\n");
        assert_eq!(with_list(&page, "  new\n").unwrap(), format!("<head>\n  {START}  new\n{END}\n</head>\n"));
        assert!(with_list("<head></head>", "x").is_err());
    }

    #[test]
    fn the_repository_page_lists_every_module_the_default_lab_imports() {
        let root = crate::util::repo_root();
        assert_eq!(stale(&root).unwrap(), Vec::<String>::new());
        let list = block(&root.join("www")).unwrap();
        for f in ["pkg/attn_web.js", "lab/labs.js", "particles/lab.js", "particles/tokens_draw.js", WASM] {
            assert!(list.contains(&format!("href=\"{f}\"")), "{f} is not preloaded:\n{list}");
        }
        assert!(!list.contains("href=\"main.js\""), "main.js is the page's script");
        assert!(!list.contains("model/lab.js"), "the model lab is loaded when opened");
    }
}

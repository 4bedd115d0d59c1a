//! The key tables of `docs/links.md` are the ones the core's key tables write (`cargo xtask docs`
//! rewrites them).

use attn_core::lab::readme_key_tables;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/links.md")).unwrap()
}

/// The text between `<!-- keys:NAME -->` and `<!-- /keys -->`, without the marker lines.
fn section<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let start_marker = format!("<!-- keys:{} -->\n", name);
    let start = text.find(&start_marker)? + start_marker.len();
    let end = start + text[start..].find("<!-- /keys -->")?;
    Some(&text[start..end])
}

#[test]
fn every_key_table_in_the_links_page_is_what_the_table_writes() {
    let text = readme();
    for (name, table) in readme_key_tables() {
        let found =
            section(&text, name).unwrap_or_else(|| panic!("docs/links.md has no <!-- keys:{} --> section", name));
        assert_eq!(found, table, "docs/links.md: key table `{}` differs: run `cargo xtask docs`", name);
    }
}

#[test]
fn a_changed_row_is_caught() {
    let text = readme();
    let (name, _) = &readme_key_tables()[0];
    let found = section(&text, name).unwrap();
    let altered = text.replacen(found, &found.replacen("| `", "| `x", 1), 1);
    let (_, table) = &readme_key_tables()[0];
    assert_ne!(section(&altered, name).unwrap(), table.as_str());
}

//! Every integration-test file is a module of its crate's one test binary (`tests/main.rs`).

use std::path::Path;

use anyhow::Result;

/// Every `crates/*/tests/NAME.rs` (or `NAME/mod.rs`) that its crate's one test binary,
/// `tests/main.rs`, does not declare as `mod NAME;`: cargo would silently never compile it.
pub fn unlisted_test_files(root: &Path) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(root.join("crates"))? {
        let tests = entry?.path().join("tests");
        let Ok(main) = std::fs::read_to_string(tests.join("main.rs")) else { continue };
        let declared: Vec<&str> =
            main.lines().filter_map(|l| l.trim().strip_prefix("mod ")?.strip_suffix(';')).collect();
        for item in std::fs::read_dir(&tests)? {
            let path = item?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
            let module = if path.is_dir() {
                if !path.join("mod.rs").exists() {
                    continue;
                }
                name
            } else if let Some(stem) = name.strip_suffix(".rs") {
                stem.to_string()
            } else {
                continue;
            };
            if module != "main" && !declared.contains(&module.as_str()) {
                problems.push(format!(
                    "{}: not compiled: declare `mod {};` in {}",
                    path.strip_prefix(root).unwrap_or(&path).display(),
                    module,
                    tests.join("main.rs").strip_prefix(root).unwrap_or(&tests).display()
                ));
            }
        }
    }
    problems.sort();
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_test_file_is_a_module_of_its_crates_test_binary() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let problems = unlisted_test_files(&root).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        let dir = std::env::temp_dir().join(format!("attn-tests-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("crates/a/tests/helpers")).unwrap();
        std::fs::write(dir.join("crates/a/tests/main.rs"), "mod listed;\nmod helpers;\n").unwrap();
        std::fs::write(dir.join("crates/a/tests/helpers/mod.rs"), "").unwrap();
        std::fs::write(dir.join("crates/a/tests/listed.rs"), "").unwrap();
        std::fs::write(dir.join("crates/a/tests/forgotten.rs"), "").unwrap();
        std::fs::write(dir.join("crates/a/tests/fixture.json"), "").unwrap();
        let problems = unlisted_test_files(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(problems.len(), 1, "{:?}", problems);
        assert!(problems[0].contains("forgotten.rs: not compiled: declare `mod forgotten;`"), "{}", problems[0]);
    }
}

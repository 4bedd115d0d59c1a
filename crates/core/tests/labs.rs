//! The table of labs (core `labs`): every lab is one row, and what dispatches on a lab's name
//! (the link layer's names, the view keys, parsing, key tables, presets) agrees with it.

use attn_core::lab::{key_infos, link_keys, parse_lab_link, readme_key_tables};
use attn_core::labs::{lab_entry, LABS, NAMES};
use attn_core::link::LAB_NAMES;
use attn_core::view::spec_of;

#[test]
fn the_table_names_every_lab_once_in_the_page_order() {
    assert_eq!(NAMES, LAB_NAMES);
    assert_eq!(NAMES, ["particles", "training", "depth", "model"]);
    for e in &LABS {
        assert_eq!(
            (e.view.lab, e.view.keys()),
            (spec_of(e.name).lab, spec_of(e.name).keys()),
            "{}: view::spec_of's",
            e.name
        );
        assert_eq!(lab_entry(e.name).map(|f| f.name), Some(e.name));
    }
    assert!(lab_entry("nope").is_none());
}

#[test]
fn each_row_parses_its_lab_and_gives_its_keys_and_presets() {
    for e in &LABS {
        // A preset's link (the model lab, without presets: its example) parses as that lab.
        let presets = (e.presets)();
        let link = match presets.first() {
            Some((name, _)) => (e.preset)(name).unwrap().to_canonical_string(),
            None => attn_core::model::keys::ModelLink::example().to_canonical_string(),
        };
        let parsed = (e.parse_link)(&link).unwrap();
        assert_eq!(parsed.config.lab(), e.name);
        assert_eq!(parse_lab_link(e.name, &link).unwrap(), parsed);
        // The keys: the table's, then the view keys.
        let keys = link_keys(e.name).unwrap();
        let table = (e.key_names)();
        assert!(keys.starts_with(&table) && keys.len() == table.len() + e.view.keys().len(), "{}: {keys:?}", e.name);
        let infos = key_infos(e.name).unwrap();
        assert!(!infos.is_empty() && infos.len() <= table.len(), "{}: {} field rows", e.name, infos.len());
        // Presets: three labs have them, each description a sentence; the model lab refuses naming `lab`.
        if e.name == "model" {
            assert!(presets.is_empty());
            assert_eq!((e.preset)("any").unwrap_err().key, "lab");
        } else {
            assert!(presets.len() >= 2, "{}: {} presets", e.name, presets.len());
            assert!(presets.iter().all(|(_, d)| d.len() > 20));
            assert_eq!((e.preset)("no-such-preset").unwrap_err().key, "preset");
            // Every row: a unique name whose link reads back as that preset, with its caption.
            let mut names: Vec<&str> = presets.iter().map(|(n, _)| *n).collect();
            names.dedup();
            assert_eq!(names.len(), presets.len(), "{}: preset names are unique", e.name);
            for (name, _) in &presets {
                let link = (e.preset)(name).unwrap().to_canonical_string();
                assert!(link.contains(&format!("preset={name}")), "{link}");
                let back = (e.parse_link)(&link).unwrap().config;
                assert_eq!(back.to_canonical_string(), link);
                assert!(back.caption().len() > 20, "{}: {name} has a caption", e.name);
            }
        }
    }
    let tables: Vec<&str> = readme_key_tables().into_iter().map(|(m, _)| m).collect();
    assert_eq!(tables, ["particles", "view", "training", "depth", "model"]);
}

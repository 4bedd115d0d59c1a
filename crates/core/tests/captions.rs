//! The presets' one-line captions (the embed bar shows them): one per preset
//! of every lab, one short line in plain words with its maths in Unicode, and the caption of a
//! link is its preset's.

use attn_core::depth::DepthPreset;
use attn_core::lab::parse_link;
use attn_core::link::LabPreset;
use attn_core::particles::config::Preset;
use attn_core::training::TrainingPreset;

fn check<P: LabPreset>(lab: &str) {
    let mut seen = std::collections::HashSet::new();
    for &p in P::all() {
        let c = p.caption();
        assert!(!c.is_empty() && c.chars().count() <= 80, "{}: {c:?} is one short line", p.name());
        assert!(!c.contains('\n') && c.ends_with('.'), "{}: {c:?}", p.name());
        for raw in ["_{", "^{", "\\", "||", "psi1", "^T", "eta_"] {
            assert!(!c.contains(raw), "{}: {c:?} has raw maths {raw:?}", p.name());
        }
        assert!(seen.insert(c), "{}: captions differ between presets", p.name());
        let link = parse_link(&format!("lab={lab}&preset={}", p.name())).unwrap();
        assert_eq!(link.config.caption(), c);
    }
}

#[test]
fn every_preset_has_a_one_line_caption() {
    check::<Preset>("particles");
    check::<TrainingPreset>("training");
    check::<DepthPreset>("depth");
}

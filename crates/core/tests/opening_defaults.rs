//! Link version 6's defaults, chosen so that every lab opens within a second and still moves ten
//! seconds later: the depth lab opens `collapse-small`, the training preset `scan-snap` trains
//! 1000 iterations; links of version 5 and older keep the defaults they were made with
//! (`crate::link::migrate`'s step 5 -> 6).

use attn_core::depth::{self, DepthPreset};
use attn_core::lab::parse_link;
use attn_core::model::keys as model_keys;
use attn_core::training::{self, TrainingPreset};

#[test]
fn version_6_opens_collapse_small_and_1000_iterations() {
    assert_eq!(depth::parse("version=6&lab=depth").unwrap().preset, DepthPreset::CollapseSmall);
    assert_eq!(
        depth::parse("version=6&lab=depth").unwrap().to_canonical_string(),
        "version=7&lab=depth&preset=collapse-small"
    );
    assert_eq!(training::parse("version=6&lab=training").unwrap().iterations, 1000);
    assert_eq!(TrainingPreset::ScanSnap.config().iterations, 1000);
    // The sweep keeps 100 iterations per run (160 runs).
    assert_eq!(TrainingPreset::ScanSnapSweep.config().iterations, 100);
    // The empty string asks for today's defaults.
    assert_eq!(training::parse("").unwrap().iterations, 1000);
}

/// A link of version 5 or older keeps its meaning: the old defaults are written into it.
#[test]
fn older_links_keep_bert_init_and_100_iterations() {
    for old in ["lab=depth", "version=4&lab=depth", "version=5&lab=depth", "version=5&lab=depth&seed=3"] {
        let c = depth::parse(old).unwrap();
        assert_eq!(c.preset, DepthPreset::BertInit, "{}", old);
        assert!(c.to_canonical_string().starts_with("version=7&lab=depth&preset=bert-init"), "{}", old);
    }
    // A version 5 link naming its preset is read as it was.
    assert_eq!(
        depth::parse("version=5&lab=depth&preset=collapse-small").unwrap(),
        depth::parse("version=6&lab=depth&preset=collapse-small").unwrap()
    );
    for old in ["lab=training", "version=5&lab=training", "version=5&lab=training&preset=scan-snap&seed=2"] {
        let c = training::parse(old).unwrap();
        assert_eq!((c.preset, c.iterations), (TrainingPreset::ScanSnap, 100), "{}", old);
        let s = c.to_canonical_string();
        assert!(s.starts_with("version=7&lab=training&preset=scan-snap&"), "{}", s);
        assert!(s.contains("&iterations=100"), "{}", s);
        assert_eq!(training::parse(&s).unwrap(), c, "{}", s);
    }
    // Written iterations, and the sweep preset, are kept as they are.
    assert_eq!(training::parse("version=5&lab=training&iterations=250").unwrap().iterations, 250);
    let sweep = training::parse("version=5&lab=training&preset=scan-snap-sweep").unwrap();
    assert_eq!(sweep.to_canonical_string(), "version=7&lab=training&preset=scan-snap-sweep");
    // The page's links read the same: view keys stay, the run is the old one.
    let l = parse_link("version=5&lab=depth&embed=1").unwrap();
    assert_eq!(l.to_canonical_string(), "version=7&lab=depth&preset=bert-init&embed=1");
}

/// The model lab's link keeps its defaults (layer 1, head 0): a model with fewer layers or heads
/// than the page's opening head (layer 2, head 3, which the page's default link names) still
/// opens on a link without them.
#[test]
fn model_links_keep_layer_1_head_0() {
    let l = model_keys::parse("version=6&lab=model&text=hi").unwrap();
    assert_eq!((l.layer, l.head), (1, 0));
    let l = model_keys::parse("version=6&lab=model&text=hi&layer=2&head=3").unwrap();
    assert!(l.to_canonical_string().ends_with("&text=hi&layer=2&head=3"), "{}", l.to_canonical_string());
}

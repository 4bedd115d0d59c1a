//! The core's integration tests, in one binary (one link, not one per file): each file of this
//! folder is a module, named after what it checks. `common` and `tiny_bert` are shared helpers.
//! Run one file's tests with `cargo xtask test --rust FILE::` (a filter on the module path).

mod common;
mod tiny_bert;

/// Counts each thread's allocations (the allocation-free checks of `sim` and `training`).
#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

mod analysis;
mod architecture;
mod captions;
mod clusters;
mod clusters_as_drawn;
mod config;
mod depth;
mod depth_bert_init;
mod depth_config;
mod depth_halves;
mod depth_similarity;
mod erff;
mod euclidean;
mod exp;
mod exp_rational;
mod head_dynamics;
mod hull3d;
mod hyperplanes;
mod identity;
mod integrate;
mod kernel_bits;
mod labs;
mod layers_view;
mod linalg;
mod link;
mod marks;
mod messages;
mod model_files;
mod model_forward;
mod model_golden;
mod model_keys;
mod model_loader;
mod model_tokenizer;
mod non_finite;
mod opening_defaults;
mod order;
mod partials;
mod plateaus;
mod readme_anchors;
mod readme_keys;
mod restore;
mod rng;
mod row_folds;
mod science_doc;
mod sentences;
mod sim;
mod spectrum;
mod sphere;
mod tokenizer_changes;
mod tokenizer_unicode;
mod trained_heads;
mod training;
mod training_config;
mod view;

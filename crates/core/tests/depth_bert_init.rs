//! Dong, Cordonnier, Loukas (2021), BERT at initialisation: the mean residual curves of
//! `bert-init` (BERT's input embeddings at initialisation, `input=bert-embeddings`) over seeds
//! 1..=8 against the paper's published means (32 samples, layers 0..=12). A fidelity check with
//! tolerances set before measuring, not tuned: every variant within 0.07 at layer 0; SAN and
//! SAN+MLP within 0.03 from layer 1 on; SAN+skip and transformer within 0.08 at every layer.

use attn_core::depth::Variant;
use attn_core::depth::{parse, DepthRun};

const PAPER: [(Variant, [f64; 13]); 4] = [
    (Variant::San, [0.612, 0.018, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    (Variant::SanMlp, [0.597, 0.017, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    (Variant::SanSkip, [0.607, 0.565, 0.559, 0.565, 0.562, 0.552, 0.529, 0.503, 0.496, 0.487, 0.472, 0.463, 0.449]),
    (Variant::Transformer, [0.597, 0.563, 0.535, 0.565, 0.537, 0.529, 0.493, 0.464, 0.439, 0.414, 0.406, 0.365, 0.345]),
];

fn tolerance(v: Variant, layer: usize) -> f64 {
    match (v, layer) {
        (_, 0) => 0.07,
        (Variant::San | Variant::SanMlp, _) => 0.03,
        _ => 0.08,
    }
}

#[test]
fn bert_init_mean_residuals_follow_dong_et_al() {
    let seeds = 1..=8u32;
    let mut sums = [[0.0f64; 13]; 4];
    for seed in seeds.clone() {
        let config = parse(&format!("version=4&lab=depth&preset=bert-init&seed={}", seed)).unwrap();
        let mut run = DepthRun::new(&config);
        for (k, (v, _)) in PAPER.iter().enumerate() {
            let r = run.run_variant(*v);
            assert_eq!(r.residual.len(), 13);
            for (l, x) in r.residual.iter().enumerate() {
                sums[k][l] += x;
            }
        }
    }
    let count = seeds.count() as f64;
    let mut report = String::new();
    let mut worst = Vec::new();
    for (k, (v, paper)) in PAPER.iter().enumerate() {
        let ours: Vec<f64> = sums[k].iter().map(|s| s / count).collect();
        report.push_str(&format!(
            "{:>12}: {}\n",
            v.name(),
            ours.iter().map(|x| format!("{:.3}", x)).collect::<Vec<_>>().join(" ")
        ));
        for l in 0..13 {
            let dev = (ours[l] - paper[l]).abs();
            if dev > tolerance(*v, l) {
                worst.push(format!("{} layer {}: {:.3} vs paper {:.3}", v.name(), l, ours[l], paper[l]));
            }
        }
    }
    println!("mean residual over seeds 1..=8 (layers 0..=12):\n{}", report);
    assert!(worst.is_empty(), "outside the tolerances:\n{}\n{}", worst.join("\n"), report);
}

/// Without `input`, a version-2 link of `bert-init` keeps its Gaussian tokens (migration).
#[test]
fn old_bert_init_links_keep_their_gaussian_tokens() {
    use attn_core::depth::InputSource;
    assert_eq!(parse("version=2&lab=depth&preset=bert-init").unwrap().input, InputSource::Gaussian);
    assert_eq!(parse("lab=depth").unwrap().input, InputSource::Gaussian);
    assert_eq!(parse("version=4&lab=depth&preset=bert-init").unwrap().input, InputSource::BertEmbeddings);
    assert_eq!(
        parse("version=2&lab=depth&preset=bert-init&input=text&text=Hi%20there.").unwrap().input,
        InputSource::Text
    );
    assert_eq!(parse("version=2&lab=depth&preset=collapse-small").unwrap().input, InputSource::Gaussian);
    let migrated = parse("version=2&lab=depth&preset=bert-init").unwrap();
    assert_eq!(migrated.to_canonical_string(), "version=7&lab=depth&preset=bert-init&input=gaussian");
}

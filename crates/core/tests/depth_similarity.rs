//! The depth lab's context similarity (science.md §4): `S = O Oᵀ` of each head's output and its
//! statistics, by hand and on a real run.

use attn_core::depth::{self, input, similarity, DepthRun, Select, SimilarityNorm, Variant};

fn config(text: &str) -> depth::DepthConfig {
    depth::parse(text).unwrap_or_else(|e| panic!("{}: {}", text, e))
}

/// science.md §4 on a hand-built head output: S = O O^T with zero diagonal, and every statistic
/// computed by hand.
#[test]
fn similarity_statistics_of_a_hand_built_example() {
    // Six tokens in two sentences (0-2, 3-5); separators at 2 and 5.
    // O rows: t0 = (1,0), t1 = (0,1), t2 = (2,0), t3 = (0,2), t4 = (1,1), t5 = (3,0).
    let o = [1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 2.0, 1.0, 1.0, 3.0, 0.0];
    let n = 6;
    let s = similarity::similarity_matrix(&o, n, 2, SimilarityNorm::Raw);
    // Upper triangle by hand: (0,2)=2 (0,4)=1 (0,5)=3 (1,3)=2 (1,4)=1 (2,4)=2 (2,5)=6 (3,4)=2 (4,5)=3, others 0.
    let mut expected = vec![0.0; 36];
    for &(i, j, v) in &[
        (0, 2, 2.0),
        (0, 4, 1.0),
        (0, 5, 3.0),
        (1, 3, 2.0),
        (1, 4, 1.0),
        (2, 4, 2.0),
        (2, 5, 6.0),
        (3, 4, 2.0),
        (4, 5, 3.0),
    ] {
        expected[i * n + j] = v;
        expected[j * n + i] = v;
    }
    assert_eq!(s, expected);
    // Top quantile 0.75: ceil(0.25 * 15) = 4 pairs: (2,5)=6, then the two 3s (0,5), (4,5), then
    // the first 2 in (i, j) order: (0,2).
    let (pairs, cutoff) = similarity::high_pairs(&s, n, Select::Quantile, 0.75, 0.0);
    assert_eq!(pairs, vec![(2, 5), (0, 5), (4, 5), (0, 2)]);
    assert_eq!(cutoff, 2.0);
    // Attention: token i attends 1/2 to itself and 1/2 to token 5, except token 5 (all on 2).
    let mut p = vec![0.0; 36];
    for i in 0..5 {
        p[i * n + i] = 0.5;
        p[i * n + 5] = 0.5;
    }
    p[5 * n + 2] = 1.0;
    let sentence = [0, 0, 0, 1, 1, 1];
    let separator = [false, false, true, false, false, true];
    let h = similarity::head_stats(3, &s, &p, n, &sentence, &separator, Select::Quantile, 0.75, 0.0);
    // Distances: 3, 5, 1, 2.
    assert_eq!(h.distance_histogram, vec![0, 1, 1, 1, 0, 1]);
    assert_eq!((h.head, h.pairs, h.cutoff), (3, 4, 2.0));
    assert!((h.mean_distance - 11.0 / 4.0).abs() < 1e-15);
    // Same sentence: (4,5) and (0,2).
    assert_eq!(h.same_sentence_pairs, 2);
    assert_eq!(h.same_sentence, Some(0.5));
    // Token 5 is in three of the four pairs.
    assert_eq!((h.top_token, h.top_token_share), (Some(5), 0.75));
    // Separators 2 and 5: rows 0,1,3,4 put 1/2 on them, row 2 puts 1 (itself 1/2 + token 5), row 5 puts 1.
    let mass = (4.0 * 0.5 + 1.0 + 1.0) / 6.0;
    assert!((h.separator_mass.unwrap() - mass).abs() < 1e-15);
    // Chance level: 2 sentences of 3: 2 * 3 * 2 / (6 * 5) = 0.4.
    assert!((input::chance_level(&sentence) - 0.4).abs() < 1e-15);
    assert!((input::chance_level(&[0, 0, 0, 1]) - 0.5).abs() < 1e-15);
    // Threshold 2 keeps the 2s too; the layer pools heads.
    let t = similarity::head_stats(0, &s, &p, n, &sentence, &separator, Select::Threshold, 0.0, 2.0);
    // (0,2) (1,3) (2,4) at distance 2, (3,4) (4,5) at 1, (2,5) at 3, (0,5) at 5.
    assert_eq!(t.pairs, 7);
    assert_eq!(t.distance_histogram, vec![0, 2, 3, 1, 0, 1]);
    // Same sentence: (0,2), (3,4), (4,5).
    assert_eq!(t.same_sentence_pairs, 3);
    let layer = similarity::layer_stats(1, vec![h.clone(), t.clone()]);
    assert_eq!(layer.distance_histogram, vec![0, 3, 4, 2, 0, 2]);
    assert_eq!(layer.same_sentence, Some(5.0 / 11.0));
    assert_eq!(layer.separator_mass, Some(mass));
    // Normalisations: max-abs divides by 6; cosine of t2 and t5 (both along x) is 1.
    let m = similarity::similarity_matrix(&o, n, 2, SimilarityNorm::MaxAbs);
    assert_eq!(m[2 * n + 5], 1.0);
    assert!((m[5] - 0.5).abs() < 1e-15);
    let c = similarity::similarity_matrix(&o, n, 2, SimilarityNorm::Cosine);
    assert!((c[2 * n + 5] - 1.0).abs() < 1e-15 && c[1] == 0.0);
    assert!((c[4] - 1.0 / 2f64.sqrt()).abs() < 1e-15);
    // No separators: no mass.
    assert_eq!(similarity::separator_mass(&p, n, &[false; 6]), None);
}

/// The similarity matrices of a real run are symmetric with a zero diagonal, every head and layer.
#[test]
fn similarity_matrices_are_symmetric_with_zero_diagonal() {
    for norm in ["raw", "max-abs", "cosine"] {
        let c = config(&format!("lab=depth&preset=context-text&layers=3&similarity_norm={}", norm));
        let mut run = DepthRun::new(&c);
        let result = run.run_variant(Variant::Transformer);
        let n = run.n();
        for l in 1..=3 {
            for h in 0..c.heads {
                let s = run.similarity_matrix(l, h).unwrap();
                for i in 0..n {
                    assert_eq!(s[i * n + i], 0.0);
                    for j in 0..i {
                        assert!(
                            (s[i * n + j] - s[j * n + i]).abs() <= 1e-12 * s[i * n + j].abs().max(1e-300),
                            "{} {} {}",
                            norm,
                            i,
                            j
                        );
                    }
                }
            }
        }
        assert_eq!(result.similarity.len(), 3);
        let layer = &result.similarity[0];
        assert_eq!(layer.heads.len(), c.heads);
        // The quantile rule picks ceil(0.02 n (n - 1) / 2) pairs per head.
        let expected = ((1.0 - c.quantile) * (n * (n - 1) / 2) as f64 - 1e-9).ceil() as usize;
        assert!(layer.heads.iter().all(|h| h.pairs == expected), "{}", expected);
        assert!(layer.separator_mass.unwrap() > 0.0);
    }
}

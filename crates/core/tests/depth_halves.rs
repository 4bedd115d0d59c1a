//! A variant's forward pass in two halves (two workers handing each other their heads and
//! their columns of `O W_O`) ends with the whole pass's records and result, bit for bit.

use attn_core::depth::halves::part;
use attn_core::depth::{self, DepthRun, Variant};

fn config(text: &str) -> depth::DepthConfig {
    depth::parse(text).unwrap_or_else(|e| panic!("{}: {}", text, e))
}

/// Runs variant `v` of `c` in halves, the two halves taking turns as two workers would, and
/// returns both runs (half 0's analysed).
fn in_halves(c: &depth::DepthConfig, v: Variant) -> (DepthRun, DepthRun, depth::VariantResult) {
    let (mut a, mut b) = (DepthRun::new(c), DepthRun::new(c));
    a.start_half(v, 0).unwrap();
    b.start_half(v, 1).unwrap();
    loop {
        let (ha, hb) = (a.half_heads().unwrap(), b.half_heads().unwrap());
        let (ha, hb) = match (ha, hb) {
            (Some(ha), Some(hb)) => (ha, hb),
            (None, None) => break,
            _ => panic!("the halves disagree on the layers left"),
        };
        let (oa, ob) = (a.half_take_heads(&hb).unwrap(), b.half_take_heads(&ha).unwrap());
        a.half_take_output(&ob).unwrap();
        b.half_take_output(&oa).unwrap();
    }
    a.finish_half().unwrap();
    b.finish_half().unwrap();
    // Half 1 computes the singular values while half 0 computes the rest of the analysis.
    let rest = a.last_result_but_singular_values().expect("records");
    assert!(rest.singular_values.is_empty());
    let result = a.with_singular_values(rest, &b.last_singular_values().expect("records")).unwrap();
    (a, b, result)
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// The records every view reads (hidden states, every head's `P` and `O`) of the last variant.
fn records(r: &DepthRun, c: &depth::DepthConfig) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for l in 0..=c.layers {
        out.push(bits(&r.hidden(l).unwrap_or_default()));
    }
    for l in 1..=c.layers {
        for h in 0..c.heads {
            out.push(bits(&r.attention(l, h).unwrap_or_default()));
            out.push(bits(&r.head_output(l, h).unwrap_or_default()));
        }
    }
    out
}

#[test]
fn halves_end_with_the_whole_pass_bit_for_bit() {
    let base = "lab=depth&layers=3&d_head=4&tokens=7&mlp_width=12&weight_scale=0.6&qk_scale=0.8";
    for extra in [
        "heads=3&d_model=10&precision=f64&layernorm=none",
        "heads=3&d_model=10&precision=f32&layernorm=post&bias_scale=0.3",
        "heads=2&d_model=10&precision=f64&layernorm=pre&bias_scale=0.2&shared=on",
        "heads=5&precision=f32&layernorm=pre&d_model=9",
    ] {
        let c = config(&format!("{base}&{extra}&variants=san,san-mlp,san-skip,transformer"));
        for &v in &c.variants.clone() {
            let mut whole = DepthRun::new(&c);
            let want = whole.run_variant(v);
            let (a, b, got) = in_halves(&c, v);
            let label = format!("{extra} {v:?}");
            assert_eq!(serde_json::to_string(&got).unwrap(), serde_json::to_string(&want).unwrap(), "{label}");
            assert_eq!(records(&a, &c), records(&whole, &c), "{label}: half 0's records");
            assert_eq!(records(&b, &c), records(&whole, &c), "{label}: half 1's records");
            assert_eq!((a.last_variant(), b.last_variant()), (Some(v), Some(v)), "{label}");
        }
    }
}

/// bert-init's SAN in halves: the same result as the whole pass (the page's first curve).
#[test]
fn bert_init_san_in_halves_is_the_whole_pass() {
    let c = config("lab=depth&preset=bert-init");
    assert!(DepthRun::new(&c).halves_pay());
    let want = DepthRun::new(&c).run_variant(Variant::San);
    let (_, _, got) = in_halves(&c, Variant::San);
    assert_eq!(serde_json::to_string(&got).unwrap(), serde_json::to_string(&want).unwrap());
}

/// An overflow stops both halves at the layer where the whole pass stops.
#[test]
fn halves_stop_at_the_whole_pass_overflow() {
    let c = config("lab=depth&layers=48&heads=2&d_model=16&d_head=8&tokens=8&mlp_width=16&layernorm=none&weight_scale=10&qk_scale=0.01&variants=transformer");
    let want = DepthRun::new(&c).run_variant(Variant::Transformer);
    assert!(want.overflow.is_some());
    let (_, _, got) = in_halves(&c, Variant::Transformer);
    assert_eq!(serde_json::to_string(&got).unwrap(), serde_json::to_string(&want).unwrap());
}

#[test]
fn the_halves_split_heads_and_columns_and_refuse_what_does_not_fit() {
    assert_eq!((part(12, 0), part(12, 1)), (0..6, 6..12));
    assert_eq!((part(5, 0), part(5, 1)), (0..3, 3..5));
    assert!(!DepthRun::new(&config("lab=depth&preset=collapse-small")).halves_pay(), "a light preset");
    let c = config("lab=depth&layers=2&heads=1&d_model=8&d_head=8&tokens=5");
    let mut r = DepthRun::new(&c);
    assert!(r.start_half(Variant::San, 0).unwrap_err().contains("two heads"));
    let c = config("lab=depth&layers=2&heads=2&d_model=8&d_head=4&tokens=5");
    let mut r = DepthRun::new(&c);
    assert!(r.half_heads().unwrap_err().contains("no pass in halves"));
    assert!(r.start_half(Variant::San, 2).is_err());
    r.start_half(Variant::San, 0).unwrap();
    assert!(r.half_take_output(&[0.0; 20]).unwrap_err().contains("no columns"));
    let mine = r.half_heads().unwrap().unwrap();
    assert_eq!(mine.len(), 5 * 4 + 25, "one head's O (5 x 4) and P (5 x 5)");
    assert!(r.half_take_heads(&mine[..10]).unwrap_err().contains("10 values"));
    assert!(r.finish_half().unwrap_err().contains("layers left"));
    assert!(r.last_singular_values().is_none(), "no records while the pass is under way");
    let cols = r.half_take_heads(&mine).unwrap();
    assert_eq!(cols.len(), 5 * 4, "columns 0..4 of O W_O");
    assert!(r.half_take_output(&cols[..3]).unwrap_err().contains("3 values"));
    let whole = DepthRun::new(&c).run_variant(Variant::San);
    assert!(r.with_singular_values(whole, &[1.0; 7]).unwrap_err().contains("7 singular values, not 3 lists of 5"));
}

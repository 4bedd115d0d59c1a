use attn_core::depth::{self, forward, weights, Variant};
use std::time::Instant;
fn main() {
    let c = depth::parse("lab=depth&preset=bert-init").unwrap();
    let t = Instant::now();
    let w32 = weights::layer_weights::<f32>(&c, 0, true);
    println!("weights f32 (with mlp): {:.3}s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let w64 = weights::layer_weights::<f64>(&c, 0, true);
    println!("weights f64 (with mlp): {:.3}s", t.elapsed().as_secs_f64());
    let input = depth::Input::from_config(&c);
    let x32 = forward::from_rows::<f32>(&input.tokens, 128, 768);
    let x64 = forward::from_rows::<f64>(&input.tokens, 128, 768);
    for v in [Variant::San, Variant::Transformer] {
        let b = v.block(&c);
        let t = Instant::now();
        for _ in 0..5 { std::hint::black_box(forward::layer(&x32, &w32, &b, 12, 64)); }
        println!("{:?} layer f32: {:.4}s", v, t.elapsed().as_secs_f64() / 5.0);
        let t = Instant::now();
        for _ in 0..5 { std::hint::black_box(forward::layer(&x64, &w64, &b, 12, 64)); }
        println!("{:?} layer f64: {:.4}s", v, t.elapsed().as_secs_f64() / 5.0);
    }
    let mut p = Vec::new();
    let t = Instant::now();
    for _ in 0..5 { p.clear(); std::hint::black_box(forward::attention(&x32, &w32, 12, 64, &mut p)); }
    println!("attention f32: {:.4}s", t.elapsed().as_secs_f64() / 5.0);
    let t = Instant::now();
    for _ in 0..5 { std::hint::black_box(&x32 * &w32.wqkv); }
    println!("qkv gemm f32: {:.4}s", t.elapsed().as_secs_f64() / 5.0);
}

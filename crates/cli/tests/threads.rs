//! `attn run --threads`: the rows of every velocity evaluation split over threads give the same
//! tokens, bit for bit, as one thread (the JSON prints shortest round-trip numbers, so equal text
//! is equal bits), for each model and integrator, and a diverging run stops the same way.

use crate::attn;

fn run(config: &str, until: &str, threads: &str) -> (i32, String, String) {
    attn(&["run", "--config", config, "--until", until, "--every", until, "--threads", threads])
}

#[test]
fn one_two_and_three_threads_give_the_same_bits() {
    let configs = [
        "preset=polytope&n=301&d=3&integrator=rk4",
        "preset=polytope&n=200&d=2&integrator=euler&integrate_in=x",
        "preset=sphere-sa&n=257&d=3",
        "preset=sphere-sa&n=150&d=4&integrator=retraction&beta=4",
        "preset=random-psd&n=180&d=5",
    ];
    for config in configs {
        let (code, one, err) = run(config, "3", "1");
        assert_eq!(code, 0, "{}: {}", config, err);
        assert!(one.contains("\"tokens\""), "{}", one);
        for threads in ["2", "3"] {
            let (code, many, err) = run(config, "3", threads);
            assert_eq!(code, 0, "{} with {} threads: {}", config, threads, err);
            assert!(one == many, "{}: {} threads differ from one", config, threads);
        }
    }
}

#[test]
fn a_diverging_run_stops_at_the_same_step_with_the_same_message() {
    let config = "preset=sphere-usa&n=130&beta=1000";
    let (code1, out1, err1) = run(config, "1", "1");
    let (code3, out3, err3) = run(config, "1", "3");
    assert_eq!(code1, 3, "{}", err1);
    assert_eq!((code1, &out1, &err1), (code3, &out3, &err3));
}

#[test]
fn zero_threads_is_refused() {
    let (code, _, err) = run("preset=polytope", "1", "0");
    assert_eq!(code, 2);
    assert!(err.contains("--threads"), "{}", err);
}

#[test]
fn a_whole_page_address_is_accepted_as_the_configuration() {
    let url = "http://127.0.0.1:8080/index.html#version=1&preset=polytope&n=30&speed=4";
    let (code, from_url, err) = run(url, "1", "1");
    assert_eq!(code, 0, "{}", err);
    let (_, from_fragment, _) = run("version=1&preset=polytope&n=30", "1", "1");
    assert_eq!(from_url, from_fragment);
}

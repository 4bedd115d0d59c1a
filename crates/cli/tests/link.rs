//! `attn run` takes a page's link: view keys are validated and ignored, the numbers are those of
//! the configuration without them, and links from before versions still run.

use crate::attn;

fn run_json(config: &str) -> serde_json::Value {
    let (code, out, err) = attn(&["run", "--config", config, "--until", "2", "--every", "0.5", "--attention"]);
    assert_eq!(code, 0, "{}: {}", config, err);
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_link_with_view_keys_reproduces_the_numbers_of_its_configuration() {
    let plain = "version=1&preset=hyperplanes&n=12&seed=5&integrator=rk4";
    let link = "#version=1&preset=hyperplanes&n=12&seed=5&integrator=rk4&coords=z&t=1.5&embed=1&panels=tokens,chart&controls=play,beta&theme=dark&speed=20&heatmap=max&trails=0&camera=0.3,0.2&colour=index&overlays=hull,psi";
    let a = run_json(plain);
    let b = run_json(link);
    // The same frames: tokens, attention and metrics, printed from the same bits.
    assert_eq!(a["frames"], b["frames"]);
    assert_eq!(a["frames"].as_array().unwrap().len(), 5);
    // The printed configuration is the model part, without the view keys.
    assert_eq!(b["config"], plain);
}

#[test]
fn a_link_from_before_versions_runs_as_version_1() {
    let old = run_json("preset=leaders&seed=9");
    let new = run_json("version=1&preset=leaders&seed=9");
    assert_eq!(old["frames"], new["frames"]);
    assert_eq!(old["config"], "version=1&preset=leaders&seed=9");
}

#[test]
fn bad_view_keys_and_versions_exit_2_naming_the_key() {
    for (config, key) in [
        ("preset=polytope&t=99", "`t`"),
        ("preset=polytope&embed=yes", "`embed`"),
        ("preset=polytope&panels=tokens,nope", "`panels`"),
        ("preset=polytope&overlays=hull,nope", "`overlays`"),
        ("version=8&preset=polytope", "`version`"),
    ] {
        let (code, out, err) = attn(&["run", "--config", config]);
        assert_eq!(code, 2, "{}: {}", config, err);
        assert!(out.is_empty(), "{}", out);
        assert!(err.contains(key), "{}: {}", config, err);
    }
}

/// Row 11 of "Defects found by a demanding user": a configuration for another lab names the
/// command that runs it (exit 2), and an unknown lab lists the labs.
#[test]
fn a_configuration_for_another_lab_names_the_command_that_runs_it() {
    for (command, config, said) in [
        (
            "run",
            "lab=training&preset=scan-snap",
            "`lab`: attn run runs the particle lab; use attn train for lab=training",
        ),
        (
            "run",
            "#version=2&lab=depth&preset=collapse-small",
            "`lab`: attn run runs the particle lab; use attn depth for lab=depth",
        ),
        (
            "train",
            "lab=particles&preset=polytope",
            "`lab`: attn train runs the training lab; use attn run for lab=particles",
        ),
        ("train", "lab=depth", "`lab`: attn train runs the training lab; use attn depth for lab=depth"),
        (
            "depth",
            "lab=training&preset=scan-snap",
            "`lab`: attn depth runs the depth lab; use attn train for lab=training",
        ),
        (
            "depth",
            "preset=polytope&lab=particles",
            "`lab`: attn depth runs the depth lab; use attn run for lab=particles",
        ),
        ("sweep", "lab=depth", "`lab`: attn sweep runs the training lab; use attn depth for lab=depth"),
        (
            "run",
            "lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=hi",
            "`lab`: attn run runs the particle lab; use attn encode for lab=model",
        ),
        ("depth", "lab=model", "`lab`: attn depth runs the depth lab; use attn encode for lab=model"),
        (
            "run",
            "version=2&lab=Training&preset=scan-snap",
            "`lab`: unknown lab \"Training\"; allowed: particles, training, depth, model",
        ),
        (
            "train",
            "version=2&preset=polytope&lab=foo",
            "`lab`: unknown lab \"foo\"; allowed: particles, training, depth, model",
        ),
    ] {
        let (code, out, err) = attn(&[command, "--config", config]);
        assert_eq!(code, 2, "{} {}: {}", command, config, err);
        assert!(out.is_empty(), "{}", out);
        assert!(err.contains(said), "{} {}: {}", command, config, err);
    }
}

/// A key holding an invisible or control character is named escaped on stderr (as the page
/// names it), never printed raw: a raw zero-width space before `n` reads as `n: unknown key`.
#[test]
fn a_key_with_invisible_characters_is_named_escaped() {
    for (command, config, said) in [
        ("run", "version=4&preset=polytope&%E2%80%8Bn=5", r"`\u{200b}n`: unknown key for lab=particles"),
        ("run", "version=4&pre%C2%ADset=polytope", r"`pre\u{ad}set`: unknown key"),
        ("run", "version=4&preset=polytope&n%1B[31m=3", r"`n\u{1b}[31m`: unknown key"),
        ("train", "lab=training&preset=scan-snap&se%E2%80%8Ded=1", r"`se\u{200d}ed`: unknown key for lab=training"),
        ("depth", "lab=depth&preset=collapse-small&lay%E2%80%8Bers=2", r"`lay\u{200b}ers`: unknown key for lab=depth"),
    ] {
        let (code, out, err) = attn(&[command, "--config", config]);
        assert_eq!(code, 2, "{} {}: {}", command, config, err);
        assert!(out.is_empty(), "{}", out);
        assert!(err.contains(said), "{} {}: {}", command, config, err);
        assert!(
            !err.trim_end().chars().any(|c| c.is_control() || matches!(c, '\u{200b}' | '\u{200d}' | '\u{ad}')),
            "{:?}",
            err
        );
    }
}

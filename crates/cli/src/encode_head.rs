//! `attn encode --head-dynamics L,H [--until T] [--dt DT] [--sphere]` (science.md §7.6): head H of
//! layer L as a particle system from the text's `h_{L−1}`, scored by the link's `bilinear`
//! (default `sym`), clusters under the link's `cos_tol`. Prints `"head_dynamics": {"layer",
//! "head", "bilinear", "sphere", "dt", "until", "steps", "every", "verdict", "samples": [{"step",
//! "t", "clusters", "labels", "mean_cos", "boolean_distance", "leaders", "max_norm",
//! "hyperplanes", "z"}, …], "final": {"step", "x", "z"}, "stopped"}`; a non-finite state stops
//! the run with `"stopped": {"step", "what"}` (exit 0).

use attn_core::model::head_dynamics::{
    run_to_end, verdict, HeadDynamicsSpec, HeadRun, HeadStopped, Sample, Verdict, DEFAULT_DT, DEFAULT_UNTIL,
};
use attn_core::model::keys::HeadSpace;
use attn_core::model::keys::{Bilinear, ModelLink};
use attn_core::model::{Encoder, Encoding, Pool};
use serde::Serialize;

/// The flags of the head-dynamics section.
#[derive(clap::Args, Debug, Default)]
pub struct HeadArgs {
    /// `L,H`: run head H of layer L as a particle system from the text's h_{L-1} (science.md §7.6).
    #[arg(long = "head-dynamics", value_name = "L,H")]
    pub head_dynamics: Option<String>,
    /// End time of --head-dynamics (default 10).
    #[arg(long, value_name = "T")]
    pub until: Option<f64>,
    /// Euler step of --head-dynamics (default 0.01).
    #[arg(long, value_name = "DT")]
    pub dt: Option<f64>,
    /// Run --head-dynamics on the sphere of radius sqrt(d_model) (science.md §2 SA); so does a
    /// link with head_space=sphere.
    #[arg(long)]
    pub sphere: bool,
}

/// The checked request.
pub struct HeadRequest(HeadDynamicsSpec);

/// Checks the flags against the model (`layers`, `heads`) and the link, before anything runs.
pub fn check(args: &HeadArgs, layers: usize, heads: usize, link: &ModelLink) -> Result<Option<HeadRequest>, String> {
    let Some(value) = &args.head_dynamics else {
        for (given, flag) in [(args.until.is_some(), "--until"), (args.dt.is_some(), "--dt"), (args.sphere, "--sphere")]
        {
            if given {
                return Err(format!("{} needs --head-dynamics L,H (the head run)", flag));
            }
        }
        return Ok(None);
    };
    let (layer, head) = layer_head("head-dynamics", value, layers, heads)?;
    let spec = HeadDynamicsSpec {
        layer,
        head,
        bilinear: link.bilinear,
        sphere: args.sphere || link.head_space == HeadSpace::Sphere,
        dt: args.dt.unwrap_or(DEFAULT_DT),
        until: args.until.unwrap_or(DEFAULT_UNTIL),
        cos_tol: link.cos_tol,
    };
    spec.check()?;
    Ok(Some(HeadRequest(spec)))
}

/// `"final"`: the tokens after the last step done.
#[derive(Serialize)]
pub struct FinalOut {
    step: u64,
    x: Vec<Vec<f64>>,
    z: Option<Vec<Vec<f64>>>,
}

/// `"head_dynamics"`.
#[derive(Serialize)]
pub struct HeadOut {
    layer: usize,
    head: usize,
    bilinear: Bilinear,
    sphere: bool,
    dt: f64,
    until: f64,
    steps: u64,
    every: u64,
    verdict: Option<Verdict>,
    samples: Vec<Sample>,
    #[serde(rename = "final")]
    last: FinalOut,
    stopped: Option<HeadStopped>,
}

/// The `"head_dynamics"` section.
pub fn section(encoder: &Encoder, enc: &Encoding, req: &HeadRequest, pool: &dyn Pool) -> HeadOut {
    let spec = req.0;
    let d = encoder.config.hidden;
    let rows = |x: &[f64]| x.chunks(d).map(|r| r.to_vec()).collect::<Vec<_>>();
    let mut out = HeadOut {
        layer: spec.layer,
        head: spec.head,
        bilinear: spec.bilinear,
        sphere: spec.sphere,
        dt: spec.dt,
        until: spec.until,
        steps: spec.steps(),
        every: spec.every(),
        verdict: None,
        samples: Vec::new(),
        last: FinalOut { step: 0, x: Vec::new(), z: None },
        stopped: None,
    };
    match HeadRun::from_encoder(encoder, enc, spec, pool).expect("checked in range") {
        Ok(mut run) => {
            out.verdict = verdict(run.matrices());
            let result = run_to_end(&mut run);
            out.samples = result.samples;
            out.last = FinalOut { step: run.step_count(), x: rows(&result.x), z: result.z.as_deref().map(rows) };
            out.stopped = result.stopped;
        }
        Err(stopped) => out.stopped = Some(stopped),
    }
    if let Some(s) = &out.stopped {
        eprintln!("note: the head's particles stopped: {}", s.what);
    }
    out
}

/// `L,H` of flag `flag`, checked against the model: `L` in `1..=layers`, `H` in `0..heads`.
pub(crate) fn layer_head(flag: &str, value: &str, layers: usize, heads: usize) -> Result<(usize, usize), String> {
    let bad = |why: String| format!("invalid --{} {:?}: {}", flag, value, why);
    let (l, h) = value.split_once(',').ok_or_else(|| bad("expected L,H (layer, head), e.g. 1,0".into()))?;
    let l: usize = l.trim().parse().map_err(|_| bad("the layer L must be a whole number".into()))?;
    let h: usize = h.trim().parse().map_err(|_| bad("the head H must be a whole number".into()))?;
    if !(1..=layers).contains(&l) {
        return Err(bad(format!("layer {} is out of range; the model has layers 1..={}", l, layers)));
    }
    if h >= heads {
        return Err(bad(format!("head {} is out of range; the model has heads 0..={}", h, heads - 1)));
    }
    Ok((l, h))
}

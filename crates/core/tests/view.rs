//! The view keys of each lab: validated, in a fixed order after the model keys, written in
//! their canonical form, and never changing a number (the link's round trip is in `link.rs`).

use attn_core::lab::{parse_lab, parse_link, LabConfig};
use attn_core::training::Trainer;
use attn_core::view::{Moment, ProjectionMode, Theme, View, PARTICLES_VIEW};
use attn_core::{parse, Simulation, Stepping};

/// View keys come after the model keys, in a fixed order, whatever order they were written in.
#[test]
fn view_keys_follow_the_model_keys_in_a_fixed_order() {
    let l = parse_link("colour=index&embed=1&t=2&panels=chart,tokens&preset=hyperplanes&n=30&theme=dark&coords=x&camera=0.25,-1&speed=20").unwrap();
    assert_eq!(
        l.to_canonical_string(),
        "version=1&preset=hyperplanes&n=30&coords=x&t=2&embed=1&panels=tokens,chart&theme=dark&speed=20&camera=0.25,-1&colour=index"
    );
    assert_eq!(parse_link(&l.to_canonical_string()).unwrap(), l);
    let v = &l.view;
    assert_eq!(v.moment, Some(Moment::T(2.0)));
    assert!(v.embed);
    assert_eq!(v.panels, vec!["tokens", "chart"]);
    assert_eq!(v.theme, Theme::Dark);
    assert_eq!(v.speed, Some(20.0));
    // Defaults are not written: a link without view keys is the configuration's canonical string.
    let plain = parse_link("preset=leaders&embed=0&trails=1&theme=auto&heatmap=one&projection=pca2&colour=clusters&controls=play,step,reset").unwrap();
    assert_eq!(plain.to_canonical_string(), "version=1&preset=leaders");
    assert_eq!(plain.view, View::default_for(&PARTICLES_VIEW));
    let t = parse_link("version=7&lab=training&speed=3&step=40&controls=eta_z,play&panels=sweep,heatmap").unwrap();
    assert_eq!(
        t.to_canonical_string(),
        "version=7&lab=training&preset=scan-snap&step=40&panels=heatmap,sweep&controls=play,eta_z&speed=3"
    );
    let d = parse_link("lab=depth&residual_axis=linear&controls=&embed=1").unwrap();
    assert_eq!(
        d.to_canonical_string(),
        "version=7&lab=depth&preset=bert-init&input=gaussian&embed=1&controls=&residual_axis=linear"
    );
    assert!(d.view.controls.is_empty());
    // The depth grid's colour scale: written after residual_axis, only when shared.
    let g = parse_link("lab=depth&grid_scale=shared&residual_axis=linear").unwrap();
    assert_eq!(g.view.grid_scale, "shared");
    assert_eq!(
        g.to_canonical_string(),
        "version=7&lab=depth&preset=bert-init&input=gaussian&residual_axis=linear&grid_scale=shared"
    );
    assert_eq!(
        parse_link("lab=depth&grid_scale=head").unwrap().to_canonical_string(),
        "version=7&lab=depth&preset=bert-init&input=gaussian"
    );
}

#[test]
fn t_is_rounded_to_the_nearest_step() {
    let at = |s: &str| parse_link(s).unwrap().open_step();
    assert_eq!(at("preset=polytope&t=1.04"), Some(10));
    assert_eq!(at("preset=polytope&t=1.06"), Some(11));
    assert_eq!(at("preset=polytope&t=20"), Some(200));
    assert_eq!(at("preset=polytope&step=7"), Some(7));
    assert_eq!(at("preset=sphere-usa&t=0.004"), Some(0));
    assert_eq!(at("preset=polytope"), None);
    assert_eq!(at("lab=training&step=12"), Some(12));
    let p = parse_link("preset=polytope&projection=pca3&d=5").unwrap();
    assert_eq!(p.view.projection.mode, ProjectionMode::Pca3);
}

/// Each malformed view key and the key its error must name.
const MALFORMED: &[(&str, &str)] = &[
    ("t=-1", "t"),
    ("t=abc", "t"),
    ("t=NaN", "t"),
    ("t=21", "t"),
    ("until=5&t=5.06", "t"),
    ("step=201", "step"),
    ("step=-1", "step"),
    ("step=1.5", "step"),
    ("t=1&step=10", "step"),
    ("step=3&t=1", "t"),
    ("embed=yes", "embed"),
    ("embed=2", "embed"),
    ("panels=tokens,tokens", "panels"),
    ("panels=", "panels"),
    ("panels=tokens,sweep", "panels"),
    ("controls=play,fly", "controls"),
    ("controls=play,play", "controls"),
    ("theme=blue", "theme"),
    ("bg=white", "bg"),
    ("bg=", "bg"),
    ("lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=a&bg=none", "bg"),
    ("speed=0", "speed"),
    ("speed=1001", "speed"),
    ("speed=2.5", "speed"),
    ("speed=0.05", "speed"),
    ("speed=1.0", "speed"),
    ("speed=.5", "speed"),
    ("speed=0.2e0", "speed"),
    ("lab=training&speed=0.5", "speed"),
    ("heatmap=log", "heatmap"),
    ("trails=true", "trails"),
    ("projection=pca4", "projection"),
    ("projection=1,3", "projection"),
    ("d=5&projection=1,6", "projection"),
    ("d=5&projection=2,2", "projection"),
    ("d=5&projection=0,2", "projection"),
    ("d=5&projection=1", "projection"),
    ("camera=1", "camera"),
    ("camera=7,0", "camera"),
    ("camera=0,1.6", "camera"),
    ("camera=0,inf", "camera"),
    ("colour=rainbow", "colour"),
    ("embed=1&embed=1", "embed"),
    ("residual_axis=log", "residual_axis"),
    ("lab=training&t=1", "t"),
    ("lab=training&step=101", "step"),
    ("lab=training&iterations=10&step=11", "step"),
    ("lab=training&speed=101", "speed"),
    ("lab=training&heatmap=max", "heatmap"),
    ("lab=training&panels=tokens", "panels"),
    ("lab=training&controls=beta", "controls"),
    ("lab=depth&step=1", "step"),
    ("lab=depth&speed=2", "speed"),
    ("lab=depth&residual_axis=ln", "residual_axis"),
    ("lab=depth&grid_scale=global", "grid_scale"),
    ("grid_scale=shared", "grid_scale"),
    ("lab=depth&panels=chart", "panels"),
    ("lab=depth&controls=play", "controls"),
    ("lab=depth&theme=", "theme"),
];

#[test]
fn malformed_view_keys_name_the_key() {
    crate::common::malformed::each_names_its_key(MALFORMED, parse_link);
    // The CLI's parsers refuse the same links with the same key.
    crate::common::malformed::each_names_its_key(MALFORMED, parse_lab);
}

/// A configuration with and without view keys: identical runs, bit for bit.
#[test]
fn view_keys_never_change_the_numbers() {
    let view = "&t=3&embed=1&panels=heatmap&controls=play,beta,view&theme=dark&speed=50&heatmap=max&trails=0&projection=pca3&camera=1.5,-0.75&colour=plain";
    for base in [
        "preset=polytope&seed=4",
        "preset=hyperplanes&integrator=rk4",
        "preset=sphere-sa-clusters&n=12",
        "preset=random-psd&d=5&n=9",
        "preset=collapse&integrate_in=x",
    ] {
        let plain = parse(base).unwrap();
        let linked = parse(&format!("{}{}", base, view)).unwrap();
        assert_eq!(plain, linked, "{}", base);
        let mut a = Simulation::new(&plain);
        let mut b = Simulation::new(&linked);
        a.advance(30);
        b.advance(30);
        let bits = |s: &Simulation| s.state().iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
        assert_eq!(bits(&a), bits(&b), "{}", base);
        assert_eq!(a.step_count(), 30);
        // The link opens at t = 3 (step 30 of dt = 0.1) ...
        let link = parse_link(&format!("{}{}", base, view)).unwrap();
        assert_eq!(link.open_step(), Some((3.0 / plain.dt).round() as u64));
        assert_eq!(link.config, LabConfig::Particles(plain));
    }
    // The training lab: the same trainer, bit for bit, after a few iterations.
    let base = "lab=training&preset=scan-snap&iterations=6";
    let LabConfig::Training(plain) = parse_lab(base).unwrap() else { panic!("training") };
    let LabConfig::Training(linked) =
        parse_lab(&format!("{}&step=3&embed=1&panels=chart&theme=light&speed=4", base)).unwrap()
    else {
        panic!("training")
    };
    assert_eq!(plain, linked);
    let (mut a, mut b) = (Trainer::new(&plain), Trainer::new(&linked));
    a.advance(6);
    b.advance(6);
    let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
    assert_eq!(bits(a.z()), bits(b.z()));
    assert_eq!(bits(a.y()), bits(b.y()));
}

/// `bg`: the page's background, in every lab, written after `theme` and only when transparent;
/// never a number changed.
#[test]
fn the_bg_view_key_is_checked_and_written_after_theme() {
    let l = parse_link("bg=transparent&theme=dark&preset=polytope&embed=1&speed=2").unwrap();
    assert_eq!(l.view.bg, "transparent");
    assert_eq!(l.to_canonical_string(), "version=1&preset=polytope&embed=1&theme=dark&bg=transparent&speed=2");
    assert_eq!(parse_link("preset=polytope&bg=theme").unwrap().to_canonical_string(), "version=1&preset=polytope");
    assert_eq!(parse_link("preset=polytope").unwrap().view.bg, "theme");
    for (lab, canonical) in [
        ("version=7&lab=training", "version=7&lab=training&preset=scan-snap&embed=1&bg=transparent"),
        ("lab=depth&preset=collapse-small", "version=7&lab=depth&preset=collapse-small&embed=1&bg=transparent"),
    ] {
        let with = parse_link(&format!("{lab}&bg=transparent&embed=1")).unwrap();
        assert_eq!(with.to_canonical_string(), canonical);
        assert_eq!(with.config, parse_link(lab).unwrap().config, "{lab}: bg changes no key of the run");
    }
    let plain = parse("preset=hyperplanes&seed=3").unwrap();
    assert_eq!(parse("preset=hyperplanes&seed=3&bg=transparent").unwrap(), plain);
}

/// `axes`: the token view's scales, after `colour`; absent means the preset's suggestion
/// (per-axis for polytope-line), written in the link once chosen; never a number changed.
#[test]
fn the_axes_view_key_is_checked_and_written_after_colour() {
    use attn_core::particles::config::Preset;
    let l = parse_link("version=4&preset=polytope-line&axes=equal&colour=index").unwrap();
    assert_eq!(l.view.axes, Some("equal"));
    assert_eq!(l.to_canonical_string(), "version=4&preset=polytope-line&colour=index&axes=equal");
    assert_eq!(parse_link("version=4&preset=polytope-line").unwrap().view.axes, None);
    assert_eq!(Preset::PolytopeLine.suggested_axes(), "per-axis");
    assert_eq!(Preset::Polytope.suggested_axes(), "equal");
    let e = parse_link("version=4&preset=polytope&axes=log").unwrap_err();
    assert_eq!(e.key, "axes");
    assert!(e.message.contains("equal, per-axis"), "{}", e.message);
    // A view key of the particle lab only.
    assert_eq!(parse_link("version=7&lab=training&preset=scan-snap&axes=equal").unwrap_err().key, "axes");
    assert_eq!(
        parse("version=4&preset=polytope-line&axes=per-axis").unwrap(),
        parse("version=4&preset=polytope-line").unwrap()
    );
}

/// `order`: the heatmap's rows and columns, after `colour` and before `axes`; by default (not
/// written) the preset's suggestion, `cluster` for every link of version 4 or older.
#[test]
fn the_order_view_key_is_checked_and_written_after_colour() {
    let l = parse_link("version=4&preset=leaders&axes=equal&order=leader&colour=plain").unwrap();
    assert_eq!(l.view.order, Some("leader"));
    assert_eq!(l.to_canonical_string(), "version=4&preset=leaders&colour=plain&order=leader&axes=equal");
    assert_eq!(
        parse_link("version=4&preset=leaders&order=cluster").unwrap().to_canonical_string(),
        "version=4&preset=leaders"
    );
    let e = parse_link("version=4&preset=polytope&order=rank").unwrap_err();
    assert_eq!(e.key, "order");
    assert!(e.message.contains("cluster, leader, index"), "{}", e.message);
}

/// `overlays`: the theorems drawn, after `colour`; absent means the preset's suggestion, and a
/// link naming exactly the suggestion reads as absent (the canonical form drops it); refused
/// values name the key; never a number changed.
#[test]
fn the_overlays_view_key_is_checked_and_its_default_dropped() {
    use attn_core::particles::config::Preset;
    let l = parse_link("version=4&preset=polytope&order=index&overlays=depth,hull&colour=index").unwrap();
    assert_eq!(l.view.overlays, Some(vec!["hull", "depth"]));
    assert_eq!(l.to_canonical_string(), "version=4&preset=polytope&colour=index&overlays=hull,depth&order=index");
    // The preset's suggestion, in any order, is the default.
    assert_eq!(Preset::Polytope.suggested_overlays(), ["hull", "plateaus"]);
    let l = parse_link("version=4&preset=polytope&overlays=plateaus,hull").unwrap();
    assert_eq!(l.view.overlays, None);
    assert_eq!(l.to_canonical_string(), "version=4&preset=polytope");
    // Another preset's suggestion is not this one's default.
    let l = parse_link("version=4&preset=hyperplanes&overlays=hull,plateaus").unwrap();
    assert_eq!(l.to_canonical_string(), "version=4&preset=hyperplanes&overlays=hull,plateaus");
    assert_eq!(Preset::Hyperplanes.suggested_overlays(), ["psi", "plateaus"]);
    // None at all: an empty list, written.
    let l = parse_link("version=4&preset=hyperplanes&overlays=").unwrap();
    assert_eq!(l.view.overlays, Some(vec![]));
    assert_eq!(l.to_canonical_string(), "version=4&preset=hyperplanes&overlays=");
    assert_eq!(parse_link(&l.to_canonical_string()).unwrap(), l);
    for bad in ["overlays=hull,hull", "overlays=hulls", "overlays=psi,,depth", "overlays=HULL"] {
        let e = parse_link(&format!("version=4&preset=polytope&{bad}")).unwrap_err();
        assert_eq!(e.key, "overlays", "{bad}");
    }
    let e = parse_link("version=4&preset=polytope&overlays=nope").unwrap_err();
    assert!(e.message.contains("hull, psi, leaders, plateaus, depth"), "{}", e.message);
    assert_eq!(parse_link("version=7&lab=depth&overlays=hull").unwrap_err().key, "overlays");
    assert_eq!(parse("version=4&preset=leaders&overlays=depth").unwrap(), parse("version=4&preset=leaders").unwrap());
}

/// `speed` below 1 (short presets play slowly enough to be watched): a plain
/// decimal fraction in [0.1, 1), written in shortest form; whole numbers as before; the numbers
/// never change.
#[test]
fn the_particle_speed_may_be_a_fraction_of_a_step_per_frame() {
    let l = parse_link("version=4&preset=polytope&speed=0.20").unwrap();
    assert_eq!(l.view.speed, Some(0.2));
    assert_eq!(l.to_canonical_string(), "version=4&preset=polytope&speed=0.2");
    assert_eq!(parse_link("version=4&preset=polytope&speed=0.1").unwrap().view.speed, Some(0.1));
    assert_eq!(
        parse_link("version=4&preset=polytope&speed=7").unwrap().to_canonical_string(),
        "version=4&preset=polytope&speed=7"
    );
    let e = parse_link("version=4&preset=polytope&speed=0.09").unwrap_err();
    assert_eq!(e.key, "speed");
    assert!(e.message.contains("0.1 <= speed < 1"), "{}", e.message);
    assert_eq!(parse("version=4&preset=polytope&speed=0.3").unwrap(), parse("version=4&preset=polytope").unwrap());
}

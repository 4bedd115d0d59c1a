// The page's tables and charts as they cross from the wasm module: the labs' presets and key
// tables, the view keys, the layout every Rust chart returns, and the smaller answers of the
// labs' objects. wasm.d.ts puts these answers in place of wasm-bindgen's `any` (AttnPageWasm,
// AttnWasm, the Typed*Lab interfaces). As there, each interface names the Rust struct it mirrors,
// and crates/web's tests compare the fields serde writes with the ones declared here.

/** `F` with its answer typed `R` (the same parameters). */
type Returning<F, R> = F extends (...args: infer A) => unknown ? (...args: A) => R : never;

/** presets(lab): one preset in the page's order (web `presets.rs` PresetInfo). */
interface PresetInfo {
  name: string;
  description: string;
}

/** key_table(lab): one row of a lab's key table, in canonical order (core `link::KeyInfo`). */
interface KeyInfo {
  name: string;
  kind: 'count' | 'float' | 'seed' | 'switch' | 'choice' | 'text' | 'custom';
  /** The range of a `count`, `float` or `seed`; null for other kinds. */
  lo: number | null;
  hi: number | null;
  lo_open: boolean;
  hi_open: boolean;
  /** The names a `choice` or `switch` allows; empty otherwise. */
  choices: string[];
  /** Longest `text` value in bytes; null otherwise. */
  max_bytes: number | null;
  meaning: string;
  effect: string;
  allowed: string;
  default: string;
}

/** view_spec(lab): the lab's view keys' panels and controls (core `view::ViewSpec`). */
interface ViewSpecInfo {
  lab: string;
  panels: string[];
  controls: string[];
  default_controls: string[];
  max_speed: number;
  fractional_speed: boolean;
}

/** A rectangle in CSS pixels (web `charts/plot.rs` Rect). */
interface ChartRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A text a chart drew, with its ink box in CSS pixels (web `charts/canvas.rs` TextBox). */
interface ChartText {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One stacked panel of a chart (web `charts/layout.rs` Panel); `v0`/`v1` null without data. */
interface ChartPanel {
  name: string;
  y0: number;
  y1: number;
  v0: number | null;
  v1: number | null;
}

/** Where a Rust chart drew, in CSS pixels (web `charts/layout.rs` Layout): a value `v` of the x
 * axis is at `x0 + (v - start) / (end - start) * (x1 - x0)`. */
interface ChartLayout {
  x0: number;
  x1: number;
  start: number;
  end: number;
  panels: ChartPanel[];
  plot: ChartRect | null;
  legend: ChartRect | null;
  labels: ChartText[];
}

/** ParticleLab.analysis_spec(): what the workers analyse with the next step (web
 * `labs/particles_analyses.rs` Spec; `side` 0: no heatmap). */
interface ParticleAnalysisSpec {
  side: number;
  block: number;
  positions: number[];
  rank: boolean;
}

/** DepthLab.path_lengths(): the path-length decomposition of the last variant (core
 * `depth::PathLengths`; NaN as null). */
interface DepthPathLengths {
  norms: (number | null)[];
  relative_residuals: (number | null)[];
  shares: number[];
  error: number | null;
}

/** §1.3's verdict on a trained head (core `model::head_dynamics::Verdict`). */
interface ModelVerdict {
  lambda1: [number, number];
  real: boolean;
  positive: boolean;
  simple: boolean;
  phi1_s_phi1: number | null;
  hyperplanes_row: boolean;
}

/** ModelLab.head_spectrum(layer, head) (web `labs/model_head.rs` HeadSpectrumOut): every
 * eigenvalue of `V_h` and `S_h` as `[re, im]`. */
interface ModelHeadSpectrum {
  layer: number;
  head: number;
  d: number;
  dk: number;
  v: [number, number][];
  s: [number, number][];
  verdict: ModelVerdict;
}

/** The free functions of the page's module whose answers are declared here. */
interface PageFunctions {
  presets(lab: string): PresetInfo[];
  preset_pairs(lab: string, name: string): [string, string][];
  key_table(lab: string): KeyInfo[];
  view_spec(lab: string): ViewSpecInfo;
  model_family_keys(model: string, integrator: string): [string, string][];
  draw_depth_histograms: Returning<AttnPageModule['draw_depth_histograms'], ChartLayout>;
  draw_depth_paths: Returning<AttnPageModule['draw_depth_paths'], ChartLayout>;
  draw_depth_residual: Returning<AttnPageModule['draw_depth_residual'], ChartLayout>;
  draw_depth_same_sentence: Returning<AttnPageModule['draw_depth_same_sentence'], ChartLayout>;
  draw_depth_spectrum: Returning<AttnPageModule['draw_depth_spectrum'], ChartLayout>;
  draw_sweep_chart: Returning<AttnPageModule['draw_sweep_chart'], ChartLayout>;
}

/** The free functions only the module with every lab has, typed. */
interface ModelFunctions {
  draw_model_histograms: Returning<AttnWasmModule['draw_model_histograms'], ChartLayout>;
  draw_model_residual: Returning<AttnWasmModule['draw_model_residual'], ChartLayout>;
  draw_model_same_sentence: Returning<AttnWasmModule['draw_model_same_sentence'], ChartLayout>;
  /** `[name, label]` of each repeated-layer variant. */
  model_variant_choices(): [string, string][];
}

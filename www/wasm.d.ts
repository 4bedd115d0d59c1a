// The JSON that crosses from the wasm module (crates/web, serde) to the page's modules, declared
// once. wasm-bindgen's own www/pkg/attn_web.d.ts types every JsValue a function returns as `any`;
// `AttnWasm` is that module with the results below in place of `any`, and it is the type of the
// `wasm` object the labs are handed (main.js, lab/labs.js's ctx). Each interface names the Rust
// struct it mirrors: a field renamed there must be renamed here, and tsc then fails on every
// reader of the old name. The mirror is written by hand; crates/web's tests compare the fields
// serde writes with the ones declared here (check_link's: link.rs), so a rename on one side fails.
// The page's tables and charts (presets, key tables, view keys, chart layouts) are declared the
// same way in wasm_page.d.ts.

// ---- check_link (crates/web/src/link.rs LinkOk / LinkErr, check.rs CheckOk / CheckErr) --------

/** A changed key of a valid configuration (crates/web check.rs `Difference`). */
interface ConfigDifference {
  key: string;
  preset: string;
  value: string;
}

/** A valid configuration (crates/web check.rs `CheckOk`). */
interface CheckOk {
  ok: true;
  /** The configuration alone, canonical: what the run is built from. */
  canonical: string;
  /** Its keys that differ from the preset. */
  differences: ConfigDifference[];
  /** Every key of the resolved configuration, decoded. */
  pairs: Array<[string, string]>;
}

/** A refused configuration or link (crates/web check.rs `CheckErr`): the key and why. */
interface CheckErr {
  ok: false;
  key: string;
  message: string;
}

/** The moment a link opens at (core view `Moment`, lowercase variants). */
type LinkMoment = { t: number } | { step: number } | null;

/** A link's view keys, typed (core view/mod.rs `View`). */
interface LinkView {
  lab: string;
  moment: LinkMoment;
  embed: boolean;
  panels: string[];
  controls: string[];
  theme: 'auto' | 'light' | 'dark';
  bg: string;
  speed: number | null;
  heatmap: string | null;
  trails: boolean;
  projection: { mode: 'pca2' | 'pca3' | 'axes'; a: number; b: number };
  camera: { yaw: number; pitch: number };
  colour: string;
  order: string | null;
  axes: string | null;
  overlays: string[] | null;
  residual_axis: string;
  grid_scale: string;
}

/** check_link's answer for a valid link (crates/web link.rs `LinkOk`, CheckOk flattened in). */
interface LinkOk extends CheckOk {
  lab: string;
  /** The whole canonical link: configuration, then the view keys that differ from defaults. */
  link: string;
  /** The step the link opens at, or null. */
  open_step: number | null;
  view: LinkView;
  /** The view keys as written in `link`. */
  view_pairs: Array<[string, string]>;
  /** The preset's one-line caption. */
  caption: string;
}

/** check_link's answer for a refused link (crates/web link.rs `LinkErr`): `lab` the lab the
 * text asks for. */
interface LinkErr extends CheckErr {
  lab: string;
}

/** What check_link returns (never throws for bad input): LinkOk's fields when `ok`, LinkErr's
 * otherwise. One interface, not the union `LinkOk | LinkErr`: without strictNullChecks (743
 * errors over www/ today) tsc does not narrow a union on `if (!res.ok)`. */
interface LinkCheck extends Omit<LinkOk, 'ok'>, Omit<LinkErr, 'ok' | 'lab'> {
  ok: boolean;
}

/** check_model_link's answer (crates/web labs/model.rs `LinkChecked` when `ok`, else `Refused`:
 * CheckErr with `lab`). */
interface ModelLinkCheck extends Omit<CheckErr, 'ok'> {
  ok: boolean;
  lab: 'model';
  canonical: string;
  link: string;
  layer: number;
  head: number;
}

// ---- the model lab (crates/web/src/labs/model.rs) -----------------------------------------------

/** One head's context-similarity statistics (core collapse/similarity.rs `HeadSimilarity`). */
interface HeadSimilarity {
  head: number;
  pairs: number;
  cutoff: number | null;
  distance_histogram: number[];
  mean_distance: number | null;
  same_sentence_pairs: number;
  same_sentence: number | null;
  top_token: number | null;
  top_token_share: number;
  separator_mass: number | null;
}

/** One layer's context-similarity statistics (core collapse/similarity.rs `LayerSimilarity`). */
interface LayerSimilarity {
  layer: number;
  heads: HeadSimilarity[];
  distance_histogram: number[];
  same_sentence: number | null;
  separator_mass: number | null;
}

/** One variant's residual curve (crates/web labs/model.rs `CurveOut`). */
interface ModelCurve {
  variant: string;
  residual: Array<number | null>;
}

/** ModelLab.analyse's answer (crates/web labs/model.rs `AnalysisOut`). */
interface ModelAnalysis {
  config: string;
  /** The text analysed (the link's `text`, decoded). */
  text: string;
  n: number;
  ids: number[];
  tokens: string[];
  sentence: number[];
  layers: number;
  heads: number;
  layer: number;
  head: number;
  hidden_layer: number;
  scale: 'head' | 'shared';
  variants: ModelCurve[];
  statistics: LayerSimilarity[];
  chance: number;
  tokenizer_note: string | null;
  /** Added by workers/model.js: the workers that computed it (2: the surgery curves came from
   * the helper worker). */
  workers?: number;
}

/** ModelLab.tiles's answer (crates/web labs/model.rs `tiles`, a js_sys::Object). */
interface ModelTiles {
  side: number;
  scale: 'head' | 'shared';
  attention: Uint8ClampedArray;
  similarity: Uint8ClampedArray;
  attention_max: Float64Array;
  similarity_range: Float64Array;
}

/** ModelLab.layers_view's answer (crates/web labs/model_layers.rs `LAYERS_FIELDS`): the tokens
 * through the layers, per state (layer) `states`. */
interface ModelLayersView {
  n: number;
  states: number;
  k: number;
  bins: number;
  coords: Float64Array;
  variance: Float64Array;
  total_variance: number;
  finite: Uint8Array;
  histograms: Float64Array;
  clusters: Float64Array;
  labels: Uint32Array;
  mean_cos: Float64Array;
  effective_rank: Float64Array;
}

/** ModelLab.repeat_view's answer (labs/model_repeat.rs `REPEAT_FIELDS`): one state per repetition. */
interface ModelRepeatView extends ModelLayersView {
  layer: number;
  variant: string;
  iterations: number;
  done: number;
  heads: number;
  boolean_distance: Float64Array;
  leaders: Uint8Array;
  stopped: { iteration: number, what: string } | null;
}

/** ModelLab.head_dynamics's answer (labs/model_head_dynamics.rs `HEAD_PARTICLES_FIELDS`): one
 * head's particles, per sample `samples`. */
interface ModelHeadParticles {
  layer: number;
  head: number;
  space: string;
  n: number;
  d: number;
  steps: number;
  every: number;
  dt: number;
  samples: number;
  k: number;
  t: Float64Array;
  step: Float64Array;
  clusters: Float64Array;
  mean_cos: Float64Array;
  labels: Uint32Array;
  boolean_distance: Float64Array;
  leaders: Uint8Array;
  max_norm: Float64Array;
  hyperplanes: Float64Array;
  coords: Float64Array;
  psi: Float64Array;
  p: Float32Array;
  p_rgba: Uint8ClampedArray;
  stopped: { step: number, what: string } | null;
}

/** ModelLab.info's answer (crates/web labs/model.rs `ModelInfo`). */
interface ModelInfo {
  id: string;
  layers: number;
  heads: number;
  hidden: number;
  vocab: number;
  max_positions: number;
}

// ---- the depth lab (crates/web/src/labs/depth.rs) -----------------------------------------------

/** DepthLab.info's answer (crates/web labs/depth.rs `Info`). */
interface DepthInfo {
  canonical: string;
  preset: string;
  description: string;
  n: number;
  d_model: number;
  d_head: number;
  layers: number;
  heads: number;
  labels: string[];
  sentence: number[];
  separator: boolean[];
  chance_level: number;
  path_shares: number[];
  /** The configured variants' names (`san`, ...), in order. */
  variants: string[];
  /** Their labels (`SAN`, ...). */
  variant_labels: string[];
  /** Their names in the order workers side by side take them (the first, then heaviest first). */
  schedule: string[];
  precision: 'f32' | 'f64';
  /** Whether the first variant of `schedule` pays to run in halves on two workers. */
  halves: boolean;
}

/** DepthLab.run_variant's answer (core depth/variants.rs `VariantResult`; a NaN is NaN in the
 * page, null in JSON; the page's DepthResults reads it back into the core's type). */
interface DepthVariantResult {
  /** The variant's label (`SAN`, ...). */
  variant: string;
  residual: Array<number | null>;
  composite_norm: Array<number | null>;
  singular_values: Array<Array<number | null>>;
  similarity: LayerSimilarity[];
  overflow: string | null;
}

/** DepthLab.similarity_tiles's answer (crates/web labs/depth.rs, a js_sys::Object). */
interface DepthTiles {
  side: number;
  pixels: Uint8ClampedArray;
  values: Float32Array;
}

// ---- the module, with these results in place of `any` ------------------------------------------

/** ParticleLab.history_near(t): the chart's sample nearest to t (core
 * `particles::analysis::history::Sample`). */
interface ParticleSample {
  t: number;
  step: number;
  clusters: number;
  boolean_distance: number;
  effective_rank: number;
  /** The interaction energy (sphere models with Q = K = V = I), else null. */
  energy: number | null;
  /** The hyperplanes' groups (Euclidean model with psi1 defined), else null. */
  hyperplanes: number | null;
}

/** ParticleLab.metrics(): the metrics of the state shown, a sample of the chart and its leaders
 * (web `labs/particles_chart.rs` MetricsOut, core `particles::analysis::Metrics` flattened into
 * it). */
interface ParticleMetrics extends ParticleSample {
  leaders: number[];
}

/** ParticleLab.psi1(): psi1 and the range of <psi1, z_i(0)> (web `labs/particles_overlays.rs` Psi). */
interface ParticlePsi {
  lambda: number;
  psi: number[];
  lo: number;
  hi: number;
}

/** ParticleLab.initial_hull(): the initial tokens' convex hull (web `labs/particles_overlays.rs` Hull). */
interface ParticleHull {
  vertices: number[];
  edges: [number, number][];
  /** Per edge, the outward normals of the two faces it joins (3-D hulls; else empty). */
  normals: [[number, number, number], [number, number, number]][];
  points: number[][];
}


/** ParticleLab.history_samples(): every sample of the chart, one array per metric (NaN: not
 * defined; web `labs/particles_chart.rs` Samples). */
interface ParticleSamples {
  step: number[];
  t: number[];
  clusters: number[];
  boolean_distance: number[];
  effective_rank: number[];
  energy: number[];
  hyperplanes: number[];
}

/** One of ParticleLab.plateaus(): a settled run of one cluster count (core
 * `particles::analysis::plateaus::Plateau`). */
interface ParticlePlateau {
  t0: number;
  t1: number;
  value: number;
}

/** ParticleLab.matrices(): Q, K, V, d x d row-major (web `labs/particles.rs` MatricesOut). */
interface ParticleMatrices {
  q: number[];
  k: number[];
  v: number[];
}

/** A ParticleLab whose answers are typed. */
interface TypedParticleLab extends Omit<InstanceType<AttnPageModule['ParticleLab']>, 'metrics' | 'finish_analyses' | 'psi1' | 'initial_hull' | 'history_near' | 'history_samples' | 'plateaus' | 'matrices' | 'overlays' | 'suggested_overlays' | 'analysis_spec' | 'draw_chart'> {
  metrics(): ParticleMetrics;
  finish_analyses(): ParticleMetrics;
  psi1(): ParticlePsi | null;
  initial_hull(): ParticleHull | null;
  history_near(t: number): ParticleSample | null;
  history_samples(): ParticleSamples;
  plateaus(): ParticlePlateau[];
  matrices(): ParticleMatrices;
  /** The overlays drawn, and those the preset suggests: names in canonical order. */
  overlays(): string[];
  suggested_overlays(): string[];
  analysis_spec(): ParticleAnalysisSpec;
  draw_chart: Returning<InstanceType<AttnPageModule['ParticleLab']>['draw_chart'], ChartLayout>;
}

/** TrainingLab.sample(i): the values recorded at iteration i, null where not yet (web
 * `labs/training.rs` Sample). */
interface TrainingSample {
  iteration: number;
  loss: number | null;
  entropy: number | null;
  max_dc: number | null;
}

/** TrainingLab.heatmap_layout(): the c_n heatmap's columns (core `training::heatmap::Layout`). */
interface TrainingLayout {
  columns: { slot: number; token: number; p: number }[];
  blocks: { slot: number; class: number; kind: 'common' | 'distinct'; start: number; end: number; p_min: number; p_max: number }[];
  classes: { class: number; query: number; next: number; query_label: string; next_label: string }[];
  total_classes: number;
}

/** run_sweep_cell(...): one cell of the sweep over its seeds (core `training::CellResult` and
 * the mean snap iteration; web `labs/training.rs`). */
interface SweepCellResult {
  queries: number;
  eta_z: number;
  ratio: number;
  mean: number;
  std: number;
  entropies: number[];
  snap_iterations: (number | null)[];
  final_losses: number[];
  mean_snap_iteration: number | null;
  unsnapped: number;
}

/** sweep_plan(...): the sweep's size, or the configuration's refusal. */
interface SweepPlanOk {
  ok: true;
  cells: number;
  runs: number;
  seconds: number;
}

/** A TrainingLab whose answers are typed. */
interface TypedTrainingLab extends Omit<InstanceType<AttnPageModule['TrainingLab']>, 'sample' | 'heatmap_layout' | 'labels' | 'draw_chart'> {
  sample(i: number): TrainingSample;
  heatmap_layout(): TrainingLayout;
  /** The label of every token id. */
  labels(): string[];
  draw_chart: Returning<InstanceType<AttnPageModule['TrainingLab']>['draw_chart'], ChartLayout>;
}

/** The module with every lab (the model lab loads it; main.js `full`). */
type AttnWasmModule = typeof import('./pkg/attn_web_full.js');

/** The page's first module: the link grammar, the page's checks, the particle, training and depth
 * labs. */
type AttnPageModule = typeof import('./pkg/attn_web.js');

/** A DepthLab whose results are typed. */
interface TypedDepthLab extends Omit<InstanceType<AttnWasmModule['DepthLab']>, 'info' | 'run_variant' | 'similarity_tiles' | 'path_lengths' | 'half_result'> {
  info(): DepthInfo;
  half_result(singular_values: Float64Array): DepthVariantResult;
  path_lengths(): DepthPathLengths | null;
  similarity_tiles(max_side: number, shared: boolean): DepthTiles;
  run_variant(name: string): DepthVariantResult;
}

/** A ModelLab whose results are typed (workers/model.js holds it). */
interface TypedModelLab extends Omit<InstanceType<AttnWasmModule['ModelLab']>, 'info' | 'analyse' | 'analyse_unmodified' | 'surgery' | 'tiles' | 'layers_view' | 'repeat_view' | 'head_dynamics' | 'head_particles' | 'head_spectrum'> {
  info(): ModelInfo;
  head_spectrum(layer: number, head: number): ModelHeadSpectrum;
  tiles(max_side: number): ModelTiles;
  layers_view(): ModelLayersView;
  repeat_view(): ModelRepeatView;
  head_dynamics(): ModelHeadParticles;
  head_particles(): TypedHeadParticles;
  analyse(text: string): ModelAnalysis;
  analyse_unmodified(text: string): ModelAnalysis;
  surgery(text: string): ModelCurve[];
}

/** ModelLab.head_particles's run, its answer typed. */
interface TypedHeadParticles extends Omit<InstanceType<AttnWasmModule['HeadParticles']>, 'finish'> {
  finish(): ModelHeadParticles;
}

/** The page's module as the page and the particle, training and depth labs use it. */
type AttnPageWasm = Omit<AttnPageModule, keyof PageFunctions | 'check_link' | 'depth_info' | 'DepthLab' | 'ParticleLab' | 'TrainingLab' | 'run_sweep_cell' | 'sweep_plan'> & PageFunctions & {
  check_link(text: string, lab?: string | null, from_api?: boolean | null, edited?: string | null): LinkCheck;
  depth_info(config: string): DepthInfo;
  DepthLab: new (config: string) => TypedDepthLab;
  ParticleLab: new (config: string) => TypedParticleLab;
  TrainingLab: new (config: string) => TypedTrainingLab;
  run_sweep_cell(config: string, queries: number, eta_z: number, ratio: number, seeds: number): SweepCellResult;
  sweep_plan(config: string, eta_z: number, ratio: number, seeds: number): SweepPlanOk | CheckErr;
};

/** The module with every lab as the model lab uses it (main.js hands it to the model lab). */
type AttnWasm = Omit<AttnWasmModule, keyof PageFunctions | keyof ModelFunctions | 'check_link' | 'check_model_link' | 'DepthLab'> & PageFunctions & ModelFunctions & {
  check_link(text: string, lab?: string | null, from_api?: boolean | null, edited?: string | null): LinkCheck;
  check_model_link(text: string): ModelLinkCheck;
  DepthLab: new (config: string) => TypedDepthLab;
};

// Times the depth lab's wasm under Node, the case of `attn bench --depth`: each variant of a depth
// configuration (default bert-init: L = 12, H = 12, d_model = 768, MLP 3072, n = 128), forward
// pass and all analyzers (DepthLab.run_variant), then what the page's worker adds for the variant
// its grid shows (similarity_tiles: pixels and values; timed here for every variant), and the
// path decomposition apart. One thread, +simd128; prints a table.
// Usage: node depth_bench.mjs <path to www/pkg> [config]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = resolve(process.argv[2] ?? 'www/pkg');
const config = process.argv[3] ?? 'lab=depth&preset=bert-init';
const glue = await import(pathToFileURL(join(pkg, 'attn_web.js')).href);
glue.initSync({ module: readFileSync(join(pkg, 'attn_web_bg.wasm')) });

const lab = new glue.DepthLab(config);
const info = lab.info();
console.log(`depth lab, wasm under Node (one thread, +simd128): ${info.canonical}`);
console.log(`n = ${info.n}, d_model = ${info.d_model}, L = ${info.layers}, H = ${info.heads}`);
console.log('variant       run_variant (s)   + tiles (s)   page total (s)   path_lengths (s)   residual at L');
let total = 0;
for (const v of info.variants) {
  const t0 = performance.now();
  const r = lab.run_variant(v);
  const t1 = performance.now();
  lab.similarity_tiles(128);
  const t2 = performance.now();
  const paths = lab.path_lengths();
  const t3 = performance.now();
  // The page computes every variant and the tiles of the one its grid shows (the last here).
  total += (v === info.variants.at(-1) ? t2 : t1) - t0;
  const s = (ms) => (ms / 1000).toFixed(2);
  const res = r.residual.at(-1);
  console.log(`${r.variant.padEnd(12)}  ${s(t1 - t0).padStart(15)}   ${s(t2 - t1).padStart(11)}   ${s(t2 - t0).padStart(14)}   ${(paths ? s(t3 - t2) : 'none').padStart(16)}   ${res === null ? 'overflow' : res.toExponential(3)}`);
}
console.log(`all ${info.variants.length} variants as the page computes them (run_variant, and the tiles of the last): ${(total / 1000).toFixed(2)} s`);
console.log('(path_lengths: the path decomposition, which the page computes only up to n * d_model * L = 5e5)');
lab.free();

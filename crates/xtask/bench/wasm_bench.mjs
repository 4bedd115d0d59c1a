// Times the wasm stepper under Node (one thread): ms per step for the same grid and the same
// configurations as `attn bench`, so the two tables compare directly.
// Usage: node wasm_bench.mjs <path to www/pkg> [min seconds per case]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = resolve(process.argv[2] ?? 'www/pkg');
const minSeconds = Number(process.argv[3] ?? 0.3);
const glue = await import(pathToFileURL(join(pkg, 'attn_web.js')).href);
glue.initSync({ module: readFileSync(join(pkg, 'attn_web_bg.wasm')) });

const caseConfig = (integrator, n, d) =>
  `preset=polytope&n=${n}&d=${d}&integrator=${integrator}&init=gaussian&scale=1&until=1000000`;

function timeConfig(config) {
  const stepper = new glue.Stepper(config);
  stepper.advance(1);
  const start = performance.now();
  let steps = 0;
  while (steps < 2 || performance.now() - start < minSeconds * 1000) {
    if (stepper.advance(1) !== 1) throw new Error(`stepper stopped: ${stepper.message()}`);
    steps += 1;
  }
  const ms = (performance.now() - start) / steps;
  stepper.free();
  return ms;
}

console.log('wasm stepper under Node (one thread, +simd128), model euclidean in z, V = I');
console.log(`${'scheme'.padEnd(8)} ${'n'.padStart(6)} ${'d'.padStart(5)} ${'ms/step'.padStart(12)} ${'ns/pair-eval'.padStart(16)}`);
for (const integrator of ['euler', 'rk4']) {
  for (const n of [64, 256, 1024]) {
    for (const d of [2, 3, 128]) {
      const ms = timeConfig(caseConfig(integrator, n, d));
      const evals = integrator === 'rk4' ? 4 : 1;
      const nsPair = (ms * 1e6) / (evals * n * n);
      console.log(`${integrator.padEnd(8)} ${String(n).padStart(6)} ${String(d).padStart(5)} ${ms.toFixed(4).padStart(12)} ${nsPair.toFixed(2).padStart(16)}`);
    }
  }
}

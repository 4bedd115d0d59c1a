// The browser's own pool rate, for the page's target (85 % of the Node pool): the playground opened in
// Debian's Chromium at `hash` and paused (nothing drawn), then the page's own pool
// (particles/pool_run.js: one worker per core, as the page runs it) steps its configuration inside
// that page for `measure` seconds after 3 s of warm-up; then the Node pool (bench/pool.mjs, 2
// workers) the same. What the
// page would reach if drawing and the rest of the page cost nothing. Prints one JSON line:
//   { config, browser_sps, node_sps } or { error }.
// Usage: node page_ceiling.mjs <served URL with trailing slash> <hash> [measure seconds = 15]

import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '../../..');
const { chromium } = createRequire(join(ROOT, 'tests/package.json'))('playwright-core');
const { CHROMIUM_ARGS } = await import(pathToFileURL(join(ROOT, 'tests/e2e/helpers.mjs')).href);

const [url, hash, measureArg] = process.argv.slice(2);
const measure = Number(measureArg ?? 15);
const WARM = 3;

async function browserRate() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${url}#${hash}`);
    await page.waitForFunction(() => window.__attnReady === true, null, { timeout: 60_000 });
    const config = await page.evaluate(() => window.__attn.configString());
    if (await page.evaluate(() => window.__attn.playing())) await page.click('#play');
    await page.waitForFunction(() => !window.__attn.playing() && !window.__attn.stepping());
    const sps = await page.evaluate(async ([warm, measure]) => {
      // The page's own pool (particles/pool_run.js: one worker per core, the page's module), idle
      // while the playground is paused, stepping a run of the same configuration.
      const { poolAdvance } = await import(new URL('particles/pool_run.js', location.href).href);
      const stepper = new window.__attn.wasm.ParticleLab(window.__attn.configString());
      const stepFor = async (s) => {
        const t0 = performance.now();
        let k = 0;
        while (performance.now() - t0 < s * 1000) k += await poolAdvance(stepper, 1, { pastEnd: true });
        return k / ((performance.now() - t0) / 1000);
      };
      await stepFor(warm);
      const rate = await stepFor(measure);
      stepper.free();
      return rate;
    }, [WARM, measure]);
    return { config, sps };
  } finally {
    await browser.close();
  }
}

async function nodeRate(config) {
  const { createPoolStepper } = await import(pathToFileURL(join(HERE, 'pool.mjs')).href);
  const run = await createPoolStepper(join(ROOT, 'www/pkg'), config, 2);
  try {
    const stepFor = async (s) => {
      const t0 = performance.now();
      let k = 0;
      while (performance.now() - t0 < s * 1000) k += await run.advance(1);
      return k / ((performance.now() - t0) / 1000);
    };
    await stepFor(WARM);
    return await stepFor(measure);
  } finally {
    await run.close();
  }
}

try {
  const b = await browserRate();
  const node = await nodeRate(b.config);
  console.log(JSON.stringify({ config: b.config, browser_sps: b.sps, node_sps: node }));
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.message ?? e) }));
}

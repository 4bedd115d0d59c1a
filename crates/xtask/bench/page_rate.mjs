// The particle page's steps per second beside the Node worker pool's (docs/bench.md): the page
// opened in Debian's Chromium through playwright-core (the default panels shown), the steps done
// in `measure` seconds after `warm` seconds of warm-up; then the page's own configuration string
// stepped by the page's pool (crates/xtask/bench/pool.mjs, one worker thread per core) for the
// same warm-up and measurement. Prints one JSON line:
//   { hash, config, workers, page_steps, page_seconds, page_sps, node_steps, node_seconds, node_sps }
// or { error }.
// Usage: node page_rate.mjs <served URL with trailing slash> <path to www/pkg> <hash> <workers>
//        [warm seconds = 5] [measure seconds = 20]

import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '../../..');
// playwright-core is the browser tests' one dependency (tests/package.json).
const { chromium } = createRequire(join(ROOT, 'tests/package.json'))('playwright-core');
const { CHROMIUM_ARGS } = await import(pathToFileURL(join(ROOT, 'tests/e2e/helpers.mjs')).href);

const [url, pkg, hash, workersArg, warmArg, measureArg] = process.argv.slice(2);
const workers = Number(workersArg ?? 2);
const warm = Number(warmArg ?? 5);
const measure = Number(measureArg ?? 20);

const sleep = (s) => new Promise((r) => { setTimeout(r, s * 1000); });

/** Steps the page takes in `measure` s after `warm` s; and its configuration string. */
async function pageRate() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}#${hash}`);
    await page.waitForFunction(() => window.__attnReady === true, null, { timeout: 60_000 });
    const config = await page.evaluate(() => window.__attn.configString());
    await sleep(warm);
    const a = await page.evaluate(() => ({ step: window.__attn.step(), at: performance.now(), playing: window.__attn.playing() }));
    await sleep(measure);
    const b = await page.evaluate(() => ({ step: window.__attn.step(), at: performance.now(), playing: window.__attn.playing() }));
    if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    if (!a.playing || !b.playing) throw new Error('the page was not playing during the measurement');
    const seconds = (b.at - a.at) / 1000;
    return { config, steps: b.step - a.step, seconds };
  } finally {
    await browser.close();
  }
}

/** Steps the Node pool takes in `measure` s after `warm` s of stepping. */
async function nodeRate(config) {
  const { createPoolStepper } = await import(pathToFileURL(join(HERE, 'pool.mjs')).href);
  const run = await createPoolStepper(pkg, config, workers);
  try {
    const stepFor = async (s) => {
      const t0 = performance.now();
      let steps = 0;
      while (performance.now() - t0 < s * 1000) steps += await run.advance(1);
      return { steps, seconds: (performance.now() - t0) / 1000 };
    };
    await stepFor(warm);
    return await stepFor(measure);
  } finally {
    await run.close();
  }
}

try {
  const page = await pageRate();
  const node = await nodeRate(page.config);
  console.log(JSON.stringify({
    hash,
    config: page.config,
    workers,
    page_steps: page.steps,
    page_seconds: page.seconds,
    page_sps: page.steps / page.seconds,
    node_steps: node.steps,
    node_seconds: node.seconds,
    node_sps: node.steps / node.seconds,
  }));
} catch (e) {
  console.log(JSON.stringify({ hash, error: String(e?.message ?? e) }));
}

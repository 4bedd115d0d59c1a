// The README's pictures of the four labs, for `cargo xtask screenshots`: each lab's default link
// opened in embed mode in Debian's Chromium (playwright-core, as the browser tests) on the served
// page, a representative moment waited for, then the view saved as a PNG.
// Usage: node screenshots.mjs <served URL with trailing slash> <output folder>
// Prints one JSON line per picture: { lab, link, file, bytes }; exits with 1 on a failure.

import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
// playwright-core is the browser tests' one dependency (tests/package.json).
const { chromium } = createRequire(join(ROOT, 'tests/package.json'))('playwright-core');
const { CHROMIUM_ARGS } = await import(pathToFileURL(join(ROOT, 'tests/e2e/helpers.mjs')).href);

/** The viewport: the embed size for a wide page (900 x 560), so a picture shows a lab's panels. */
const VIEWPORT = { width: 900, height: 560 };
const TIMEOUT = 120_000;
/** The particle lab's moment: mid-merge, the tokens on their way to the polytope's vertices. */
const PARTICLE_STEP = 48;

/**
 * Each lab's default link (www/main.js's table of labs; the particle lab's is the empty link,
 * which opens `version=6&preset=polytope`) in embed mode (`embed=1`: the panels without the page's
 * header and forms; view keys only, the same run), and the moment shown: one the lab reaches by
 * itself, the same on every machine.
 */
const SHOTS = [
  {
    lab: 'particles',
    link: 'embed=1&panels=tokens,heatmap,chart',
    // Playing, paused exactly at PARTICLE_STEP (checked every frame; the preset plays a step
    // every 5 frames): tokens with their trails, P turning Boolean, the metrics so far.
    ready: (step) => {
      const a = window.__attn;
      if (!a || a.step() < step) return false;
      if (a.playing()) document.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', code: 'Space' }));
      return !a.playing();
    },
    arg: PARTICLE_STEP,
    polling: 'raf',
  },
  {
    lab: 'training',
    link: 'lab=training&preset=scan-snap&embed=1',
    // The 100 iterations trained: the c_n heatmap scanned and snapped, loss, entropy, the sweep's form.
    ready: () => window.__attnTraining?.status() === 'finished',
  },
  {
    lab: 'depth',
    link: 'lab=depth&preset=collapse-small&embed=1',
    // The four variants computed: the rank collapse and the similarity grid.
    ready: () => {
      const d = window.__attnDepth;
      return Boolean(d) && d.total() > 0 && d.done() === d.total() && !d.busy() && !d.pending() && d.gridVariant() !== null;
    },
  },
  {
    lab: 'model',
    link: 'lab=model&embed=1&panels=grid',
    // The served all-MiniLM-L6-v2 on the first built-in text, analysed: the grids of heads and
    // the chosen head's two maps.
    ready: () => {
      const m = window.__attnModel;
      return Boolean(m?.result()) && !m.busy();
    },
  },
];

const [url, out] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: node screenshots.mjs <served URL> <output folder>');
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: CHROMIUM_ARGS,
});
let failed = false;
try {
  for (const shot of SHOTS) {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light', reducedMotion: 'no-preference' });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${url}#${shot.link}`);
      await page.waitForFunction(() => window.__attnReady === true, null, { timeout: TIMEOUT });
      await page.waitForFunction(shot.ready, shot.arg, { timeout: TIMEOUT, polling: shot.polling ?? 200 });
      // The last draws (the grids' tiles, a paused run's frame) reach the screen.
      await page.waitForTimeout(500);
      await page.evaluate(() => new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(r)); }));
      if (errors.length) throw new Error(errors.join('; '));
      const file = join(out, `${shot.lab}.png`);
      const png = await page.screenshot({ path: file, type: 'png' });
      console.log(JSON.stringify({ lab: shot.lab, link: shot.link, file, bytes: png.length }));
    } catch (e) {
      failed = true;
      console.log(JSON.stringify({ lab: shot.lab, link: shot.link, error: String(e.message ?? e) }));
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);

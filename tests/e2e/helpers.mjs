// Helpers for the browser tests in tests/e2e (run by `cargo xtask test`).
//
// Environment (set by xtask):
//   ATTN_URL  base URL of the served www/ folder, with a trailing slash
//   ATTN_BIN  absolute path of the native `attn` CLI (target/release/attn)
//   CHROMIUM  browser executable (default /usr/bin/chromium, Debian's package)
//
// Typical use:
//   const browser = await launch();
//   const page = await openPage(browser, 'preset=...');
//   const before = await canvasSnapshot(page, '#view');
//   ... interact ...
//   assert.notEqual((await canvasSnapshot(page, '#view')).hash, before.hash);
//   assertNoErrors(page);
//   await browser.close();

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

/** Base URL of the playground, with trailing slash. */
export const ATTN_URL = withSlash(process.env.ATTN_URL || 'http://127.0.0.1:8080/');

/** Absolute path of the native CLI binary (undefined outside `cargo xtask test`). */
export const ATTN_BIN = process.env.ATTN_BIN;

/** Browser executable: Debian's Chromium. Never let a tool download its own browser. */
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * Chromium flags for this machine: headless as root, no GPU, and no background traffic
 * (the network is closed; without these flags Chromium keeps trying and failing to connect).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** How long openPage waits for `window.__attnReady` (ms). */
export const READY_TIMEOUT_MS = 30_000;

function withSlash(url) {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * Launch headless Debian Chromium through playwright-core.
 * @param {import('playwright-core').LaunchOptions} [options] extra launch options
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launch(options = {}) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args || [])],
  });
}

/**
 * Open the playground at `ATTN_URL#hash` in a fresh page and wait until the frontend reports
 * ready (`window.__attnReady === true`: wasm loaded and first frame drawn).
 *
 * The page gets an `errors` array collecting console errors, uncaught page errors, failed
 * requests and HTTP error responses (but the browser's /favicon.ico probe), from before
 * navigation on; check it with `assertNoErrors(page)`.
 *
 * @param {import('playwright-core').Browser} browser
 * @param {string} [hash] fragment, with or without a leading '#'
 * @param {{ timeout?: number, viewport?: { width: number, height: number }, css?: Record<string, string> }} [options]
 *   `css`: CSS custom properties set on the root element before the page's modules run
 * @returns {Promise<import('playwright-core').Page & { errors: string[] }>}
 */
export async function openPage(browser, hash = '', options = {}) {
  const { timeout = READY_TIMEOUT_MS, viewport = { width: 1280, height: 800 } } = options;
  const page = await browser.newPage({ viewport });
  page.errors = [];
  page.on('console', (msg) => {
    // HTTP errors are recorded with their URL by the 'response' handler below.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
      page.errors.push(`console.error: ${msg.text()}`);
    }
  });
  page.on('pageerror', (err) => page.errors.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) =>
    page.errors.push(`requestfailed: ${req.url()} (${req.failure()?.errorText})`),
  );
  page.on('response', (res) => {
    // The browser's own favicon probe is not the page's doing.
    if (res.status() >= 400 && !res.url().endsWith('/favicon.ico')) {
      page.errors.push(`HTTP ${res.status()}: ${res.url()}`);
    }
  });

  // Content-Security-Policy violations count as errors (the policy: crates/xtask/src/server.rs).
  await page.addInitScript(watchCsp);
  // CSS custom properties set on the root element before the page's modules run (`css`).
  if (options.css) await page.addInitScript(setRootProperties, options.css);

  const url = `${ATTN_URL}#${String(hash).replace(/^#/, '')}`;
  await page.goto(url);
  try {
    await page.waitForFunction(() => window.__attnReady === true, null, { timeout });
  } catch (err) {
    const seen = page.errors.length ? `\n  ${page.errors.join('\n  ')}` : ' none';
    throw new Error(`${url} did not set window.__attnReady within ${timeout} ms; errors:${seen}`, {
      cause: err,
    });
  }
  return page;
}

/**
 * Init script: sets CSS custom properties `css` ({ name: value }) on the root element once the
 * document is parsed, before the page's modules run (an inline style beats every stylesheet).
 */
function setRootProperties(css) {
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    for (const [name, value] of Object.entries(css)) document.documentElement.style.setProperty(name, value);
  });
}

/**
 * Init script (runs in the page before its own scripts): reports every Content-Security-Policy
 * violation as a console error, which openPage collects, and keeps them in `window.__csp`.
 */
export function watchCsp() {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    const what = `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || '?'}:${e.lineNumber}`;
    window.__csp.push(what);
    console.error(`CSP violation: ${what}`);
  });
}

/**
 * Throw if the page collected any console error, page error or failed request.
 * @param {{ errors: string[] }} page a page from openPage
 */
export function assertNoErrors(page) {
  if (page.errors.length) {
    throw new Error(`page reported errors:\n  ${page.errors.join('\n  ')}`);
  }
}

/**
 * Read a canvas's pixels inside the page and summarize them.
 *
 * Works for 2D canvases (and WebGL ones created with preserveDrawingBuffer) by drawing the
 * canvas onto a scratch 2D canvas and reading that back.
 *
 * @param {import('playwright-core').Page} page
 * @param {string} selector CSS selector of the <canvas>
 * @param {{ pixels?: boolean }} [options] `pixels: true` also returns the RGBA bytes
 * @returns {Promise<{ width: number, height: number, hash: string, inked: number,
 *   pixels?: Uint8Array }>} `hash`: SHA-256 of the RGBA bytes (equal hashes, equal pictures);
 *   `inked`: number of pixels that differ from the top-left pixel (0 means a blank canvas).
 */
export async function canvasSnapshot(page, selector, options = {}) {
  const snap = await page.evaluate(
    async ({ selector, withPixels }) => {
      const canvas = document.querySelector(selector);
      if (!(canvas instanceof HTMLCanvasElement)) throw new Error(`no <canvas> matches ${selector}`);
      const { width, height } = canvas;
      const scratch = document.createElement('canvas');
      scratch.width = width;
      scratch.height = height;
      const ctx = scratch.getContext('2d', { willReadFrequently: true });
      if (width > 0 && height > 0) ctx.drawImage(canvas, 0, 0);
      const data = width > 0 && height > 0 ? ctx.getImageData(0, 0, width, height).data : new Uint8ClampedArray();

      let inked = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2] || data[i + 3] !== data[3]) {
          inked += 1;
        }
      }
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
      const hash = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');

      let pixels;
      if (withPixels) {
        // base64 keeps the transfer compact; decoded again in Node.
        let binary = '';
        for (let i = 0; i < data.length; i += 0x8000) {
          binary += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
        }
        pixels = btoa(binary);
      }
      return { width, height, hash, inked, pixels };
    },
    { selector, withPixels: Boolean(options.pixels) },
  );
  if (snap.pixels !== undefined) snap.pixels = new Uint8Array(Buffer.from(snap.pixels, 'base64'));
  else delete snap.pixels;
  return snap;
}

/**
 * Run the native CLI (`ATTN_BIN`) with `args`; resolves to its stdout (rejects on non-zero exit).
 * @param {string[]} args
 * @param {{ input?: string }} [options]
 * @returns {Promise<string>}
 */
export async function runCli(args, options = {}) {
  if (!ATTN_BIN) throw new Error('ATTN_BIN is not set (run the tests with `cargo xtask test`)');
  const child = promisify(execFile)(ATTN_BIN, args, { maxBuffer: 64 * 1024 * 1024 });
  if (options.input !== undefined) {
    child.child.stdin.end(options.input);
  }
  const { stdout } = await child;
  return stdout;
}

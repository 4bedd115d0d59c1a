// Browser tests of each lab's default embed code in a blog's text column (tests/e2e/fixtures/
// blog.html, served by this test from an origin of its own): the snippet Copy embed code writes
// (the button clicked, the field read), pasted in columns of 300 to 680 px, read on a phone
// (390 x 844, touch, DPR 2) and a desktop (1280 x 900). In every case the host page never
// scrolls sideways, the frame fits its column, the framed page never scrolls inside, the
// pictures keep their minimum sizes (token view ≥ min(240, column − 24) each way, heatmaps ≥ 160
// with cells ≥ 2 px, grid tiles ≥ 12 px), every text is 11 px or more, no two texts (page
// texts, controls and the texts a chart draws) overlap nor cover a picture, and the caption is
// shown whole. Each chart's registered texts (`data-labels`) are first checked against the texts
// it drew (fillText, counted in the frame), so a chart cannot pass by registering none.
// With ATTN_SHOTS=DIR the cases at 360 and 680 px, light and dark, are saved there as PNGs.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { ATTN_URL, launch, openPage } from './helpers.mjs';
import { MODEL_DIR } from './model_helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;
/** The blog's own server: another origin than the playground's (`localhost`, not 127.0.0.1),
 * on the loopback like it (a page of the public network may not frame a local one). */
let blog;
let BLOG = '';
const posts = new Map(); // path -> the blog post's HTML

before(async () => {
  browser = await launch();
  blog = createServer((req, res) => {
    const body = posts.get(req.url);
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'no such post');
  });
  await new Promise((ok) => blog.listen(0, '127.0.0.1', ok));
  BLOG = `http://localhost:${blog.address().port}`;
});

after(async () => {
  await browser?.close();
  blog?.close();
});

const FIXTURE = readFileSync(new URL('./fixtures/blog.html', import.meta.url), 'utf8');
const COLUMNS = [300, 360, 390, 480, 640, 680];
const SHOTS = process.env.ATTN_SHOTS || '';
const DEVICES = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 900 } },
};

/** Each lab: its link, its share bar's ids' prefix, its main canvas, and when it has drawn. */
const LABS = [
  { id: 'particles', link: 'version=4&preset=polytope', p: '', main: '#tokens',
    ready: () => window.__attn?.step() >= 5 },
  { id: 'training', link: 'lab=training&preset=scan-snap', p: 'tr-', main: '#tr-heatmap',
    ready: () => window.__attnTraining?.iteration() >= 5 && window.__attnTraining.heatmapColumn() > 0 },
  { id: 'depth', link: 'lab=depth&preset=collapse-small', p: 'dp-', main: '#dp-residual',
    ready: () => { const d = window.__attnDepth; return d && !d.busy() && d.total() > 0 && d.done() === d.total() && d.gridGeometry(); } },
  { id: 'model', link: 'lab=model', p: 'md-', main: '#md-att-zoom', model: true,
    ready: () => { const m = window.__attnModel; return m && m.result() && !m.busy() && m.zoomGeometry(); } },
];

/** Init script, in every frame: counts the texts each canvas drew since it was last cleared
 * (a fill or clear of the whole canvas, or a new size), with their font size in CSS px. */
function countTexts() {
  const texts = new WeakMap();
  const P = CanvasRenderingContext2D.prototype;
  const covers = (ctx, x, y, w, h) => {
    const m = ctx.getTransform();
    const xs = [m.a * x + m.e, m.a * (x + w) + m.e];
    const ys = [m.d * y + m.f, m.d * (y + h) + m.f];
    const c = ctx.canvas;
    return Math.min(...xs) <= 0.5 && Math.min(...ys) <= 0.5 && Math.max(...xs) >= c.width - 0.5 && Math.max(...ys) >= c.height - 0.5;
  };
  for (const name of ['fillRect', 'clearRect']) {
    const orig = P[name];
    P[name] = function clearing(x, y, w, h) {
      if (covers(this, x, y, w, h)) texts.set(this.canvas, []);
      return orig.call(this, x, y, w, h);
    };
  }
  for (const name of ['fillText', 'strokeText']) {
    const orig = P[name];
    P[name] = function counted(text, ...rest) {
      if (String(text).trim()) {
        const m = this.getTransform();
        const c = this.canvas;
        const r = c.getBoundingClientRect();
        const px = Number(/([\d.]+)px/.exec(this.font)?.[1]) * Math.hypot(m.a, m.b) * (r.width > 0 ? r.width / c.width : 1);
        if (!texts.has(c)) texts.set(c, []);
        texts.get(c).push({ text: String(text), px });
      }
      return orig.call(this, text, ...rest);
    };
  }
  for (const dim of ['width', 'height']) {
    const d = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, dim);
    Object.defineProperty(HTMLCanvasElement.prototype, dim, {
      configurable: true,
      get: d.get,
      set(v) {
        texts.set(this, []);
        d.set.call(this, v);
      },
    });
  }
  window.__drawnTexts = (c) => texts.get(c) ?? [];
}

/** Copy embed code as the lab's share bar writes it, with theme `theme`. */
async function snippetOf(lab, theme) {
  const page = await openPage(browser, lab.link, { viewport: { width: 1280, height: 900 }, timeout: 60_000 });
  try {
    await page.waitForFunction(lab.ready, null, { timeout: 240_000 });
    await page.selectOption(`#${lab.p}theme`, theme);
    await page.evaluate((id) => { document.getElementById(id).value = ''; }, `${lab.p}share-text`);
    await page.click(`#${lab.p}copy-embed`);
    await page.waitForFunction((id) => document.getElementById(id).value.startsWith('<'), `${lab.p}share-text`);
    return await page.inputValue(`#${lab.p}share-text`);
  } finally {
    await page.close();
  }
}

/** What a case reads in the framed page (run inside the frame). */
function readFrame({ main, column }) {
  const box = (r) => ({ x: r.x, y: r.y, w: r.width, h: r.height });
  // Shown: laid out, larger than the 1 px box of a text for screen readers only, not invisible.
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return el.getClientRects().length > 0 && r.width > 1 && r.height > 1 && getComputedStyle(el).visibility !== 'hidden';
  };
  const canvases = [...document.querySelectorAll('canvas')].filter(visible).map((c) => {
    const r = c.getBoundingClientRect();
    const labels = c.dataset.labels ? JSON.parse(c.dataset.labels) : [];
    return { id: c.id, ...box(r), labels: labels.map((l) => ({ ...l, x: l.x + r.x, y: l.y + r.y })), drawn: window.__drawnTexts(c) };
  });
  // Every text node shown, by line, with its font size; form controls as boxes of their own.
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  let k = 0;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('select, textarea, script, style, [hidden]') || !visible(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const px = parseFloat(getComputedStyle(el).fontSize);
    k += 1;
    for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) texts.push({ node: k, text: node.textContent.trim().slice(0, 40), px, ...box(r) });
  }
  for (const el of document.querySelectorAll('select, input:not([type="hidden"]), textarea')) {
    if (!visible(el)) continue;
    k += 1;
    texts.push({ node: k, text: `<${el.tagName.toLowerCase()} ${el.id}>`, px: parseFloat(getComputedStyle(el).fontSize), ...box(el.getBoundingClientRect()) });
  }
  const cap = document.querySelector('.embed-caption');
  const root = document.scrollingElement;
  const attempt = (f) => {
    try {
      return f() ?? null;
    } catch {
      return null; // a lab loaded but not shown
    }
  };
  const geometry = {
    n: attempt(() => window.__attn.n()),
    trColumn: window.__attnTraining?.heatmapColumn?.() ?? null,
    dpGrid: window.__attnDepth?.gridGeometry?.() ?? null,
    dpZoom: window.__attnDepth?.zoomGeometry?.() ?? null,
    mdGrid: window.__attnModel?.gridGeometry?.() ?? null,
    mdZoom: window.__attnModel?.zoomGeometry?.() ?? null,
  };
  return {
    view: { w: innerWidth, h: innerHeight, sw: root.scrollWidth, sh: root.scrollHeight, bw: document.body.scrollWidth, bh: document.body.scrollHeight },
    canvases,
    texts,
    geometry,
    mainShown: canvases.some((c) => `#${c.id}` === main),
    column,
    caption: cap && visible(cap) ? {
      text: cap.textContent, ...box(cap.getBoundingClientRect()),
      sw: cap.scrollWidth, cw: cap.clientWidth, sh: cap.scrollHeight, ch: cap.clientHeight,
      overflow: getComputedStyle(cap).textOverflow, wrap: getComputedStyle(cap).whiteSpace,
    } : null,
  };
}

const overlap = (a, b, tol = 0.5) => a.x < b.x + b.w - tol && b.x < a.x + a.w - tol && a.y < b.y + b.h - tol && b.y < a.y + a.h - tol;
const show = (b) => JSON.stringify({ text: b.text ?? b.id, x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.w), h: Math.round(b.h) });

/** The assertions of one case on what readFrame returned. */
function check(r, what) {
  const { view, canvases, texts, geometry, column } = r;
  assert.ok(view.sw <= view.w + 1 && view.sh <= view.h + 1 && view.bw <= view.w + 1 && view.bh <= view.h + 1,
    `${what}: the framed page does not scroll (${JSON.stringify(view)})`);
  assert.ok(r.mainShown, `${what}: the lab's picture is shown (${canvases.map((c) => c.id)})`);
  // Each chart registers the texts it drew: as many, the same ones.
  for (const c of canvases) {
    assert.deepEqual(c.labels.map((l) => l.text).sort(), c.drawn.map((d) => d.text).sort(), `${what} #${c.id}: registered texts = drawn texts`);
    for (const d of c.drawn) assert.ok(d.px >= 10.95, `${what} #${c.id}: ${JSON.stringify(d.text)} drawn at ${d.px.toFixed(2)} px (< 11)`);
  }
  // Minimum sizes.
  const get = (id) => canvases.find((c) => c.id === id);
  const tokens = get('tokens');
  if (tokens) {
    const min = Math.min(240, column - 24);
    assert.ok(tokens.w >= min - 0.5 && tokens.h >= min - 0.5, `${what}: the token view is ${tokens.w} x ${tokens.h} (< ${min})`);
  }
  const heat = { heatmap: geometry.n ? (c) => Math.min(c.w, c.h) / geometry.n : null, 'tr-heatmap': () => geometry.trColumn,
    'dp-zoom': () => geometry.dpZoom?.cell, 'md-att-zoom': () => geometry.mdZoom?.cell, 'md-sim-zoom': () => geometry.mdZoom?.cell };
  for (const [id, cell] of Object.entries(heat)) {
    const c = get(id);
    if (!c) continue;
    assert.ok(c.w >= 159.5 && c.h >= 159.5, `${what}: heatmap #${id} is ${c.w} x ${c.h} (< 160)`);
    assert.ok(cell(c) >= 2, `${what}: heatmap #${id}'s cells are ${cell(c)} px (< 2)`);
  }
  const grids = { 'dp-grid': geometry.dpGrid, 'md-att-grid': geometry.mdGrid, 'md-sim-grid': geometry.mdGrid };
  for (const [id, g] of Object.entries(grids)) {
    if (get(id)) assert.ok(g && g.cell >= 12, `${what}: grid #${id}'s tiles are ${g?.cell} px (< 12)`);
  }
  // Every text at 11 px or more.
  for (const t of texts) assert.ok(t.px >= 10.95, `${what}: ${show(t)} at ${t.px} px (< 11)`);
  // Nothing overlaps: page texts and controls, the charts' texts, and the pictures.
  const labels = canvases.flatMap((c) => c.labels.map((l) => ({ ...l, canvas: c.id })));
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (texts[i].node !== texts[j].node) assert.ok(!overlap(texts[i], texts[j]), `${what}: ${show(texts[i])} and ${show(texts[j])} overlap`);
    }
    for (const c of canvases) assert.ok(!overlap(texts[i], c), `${what}: ${show(texts[i])} covers the canvas ${show(c)}`);
  }
  for (let i = 0; i < labels.length; i++) {
    const a = labels[i];
    const own = canvases.find((c) => c.id === a.canvas);
    assert.ok(a.x >= own.x - 0.5 && a.y >= own.y - 0.5 && a.x + a.w <= own.x + own.w + 0.5 && a.y + a.h <= own.y + own.h + 0.5, `${what} #${a.canvas}: ${show(a)} inside its canvas ${show(own)}`);
    for (let j = i + 1; j < labels.length; j++) assert.ok(!overlap(a, labels[j]), `${what}: ${show(a)} and ${show(labels[j])} overlap`);
  }
  for (let i = 0; i < canvases.length; i++) {
    for (let j = i + 1; j < canvases.length; j++) assert.ok(!overlap(canvases[i], canvases[j]), `${what}: canvases ${show(canvases[i])} and ${show(canvases[j])} overlap`);
  }
  // The caption, whole.
  const cap = r.caption;
  assert.ok(cap && cap.text.length > 10, `${what}: the caption is shown`);
  assert.ok(cap.sw <= cap.cw + 1 && cap.sh <= cap.ch + 1 && !(cap.overflow === 'ellipsis' && cap.wrap === 'nowrap'), `${what}: the caption is not cut (${JSON.stringify(cap)})`);
  assert.ok(cap.x >= -0.5 && cap.y >= -0.5 && cap.x + cap.w <= view.w + 0.5 && cap.y + cap.h <= view.h + 0.5, `${what}: the caption lies inside the frame (${JSON.stringify(cap)})`);
}

/** Opens the blog with `snippet` in a column of `column` px; returns the page and the frame. */
async function openBlog(context, lab, snippet, column, theme) {
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) page.errors.push(`console.error: ${msg.text()}`);
  });
  const fill = { column: String(column), theme, embed: snippet };
  const body = FIXTURE.replace(/\{\{(column|theme|embed)\}\}/g, (_, k) => fill[k]);
  const path = `/${lab.id}-${column}-${theme}.html`;
  posts.set(path, body);
  await page.goto(`${BLOG}${path}`);
  await page.locator('iframe').scrollIntoViewIfNeeded();
  let frame = null;
  await page.waitForFunction(() => true);
  for (let i = 0; i < 600 && !frame; i++) {
    frame = page.frames().find((f) => f.url().startsWith(ATTN_URL));
    if (!frame) await page.waitForTimeout(100);
  }
  assert.ok(frame, `${lab.id}: the playground's frame`);
  await frame.waitForFunction(() => window.__attnReady === true, null, { timeout: 60_000 });
  await frame.waitForFunction(lab.ready, null, { timeout: 240_000 });
  await page.waitForTimeout(400); // a few frames at the final layout
  return { page, frame };
}

/** The host page's side: no sideways scroll, the frame inside its column. */
async function checkHost(page, what) {
  const host = await page.evaluate(() => {
    const col = document.getElementById('column');
    const cs = getComputedStyle(col);
    const c = col.getBoundingClientRect();
    const f = document.querySelector('iframe').getBoundingClientRect();
    return {
      w: innerWidth, sw: document.scrollingElement.scrollWidth,
      column: { x: c.x + parseFloat(cs.paddingLeft), w: c.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) },
      frame: { x: f.x, w: f.width, h: f.height },
    };
  });
  assert.ok(host.sw <= host.w, `${what}: the blog does not scroll sideways (${host.sw} > ${host.w})`);
  assert.ok(host.frame.x >= host.column.x - 0.5 && host.frame.x + host.frame.w <= host.column.x + host.column.w + 0.5,
    `${what}: the frame fits its column (${JSON.stringify(host)})`);
  assert.ok(Math.abs(host.frame.w - host.column.w) <= 1, `${what}: the frame is as wide as its column (${JSON.stringify(host)})`);
  return host;
}

for (const lab of LABS) {
  const skip = lab.model && !existsSync(join(MODEL_DIR, 'model.safetensors')) && 'the model is not cached: cargo xtask fetch-model';
  describe(`${lab.id}: the default embed code in a blog column`, { skip }, () => {
    const snippets = {};
    before(async () => {
      snippets.light = await snippetOf(lab, 'light');
      snippets.dark = await snippetOf(lab, 'dark');
    });

    test('the snippet is script-free and responsive: a wrapper of the lab\'s aspect ratio, the frame at 100 %', () => {
      const m = /^<div style="position:relative;width:100%;aspect-ratio:(\d+)\/(\d+)"><iframe src="([^"]+)" style="position:absolute;top:0;left:0;width:100%;height:100%;border:0" title="Attention Dynamics Playground" loading="lazy"><\/iframe><\/div>$/.exec(snippets.light);
      assert.ok(m, snippets.light);
      assert.ok(Number(m[2]) > Number(m[1]), 'taller than wide: a column is narrow');
      const hash = m[3].replace(/&amp;/g, '&').split('#')[1];
      assert.match(hash, /&embed=1&panels=[a-z_,]+&theme=light&bg=transparent$/);
      assert.doesNotMatch(snippets.light, /<script/);
    });

    for (const [device, options] of Object.entries(DEVICES)) {
      test(`${device}: columns of ${COLUMNS.join(', ')} px`, { timeout: 1_800_000 }, async () => {
        const context = await browser.newContext(options);
        await context.addInitScript(countTexts);
        try {
          const cases = COLUMNS.map((c) => [c, 'light']);
          if (SHOTS) cases.push([360, 'dark'], [680, 'dark']);
          for (const [column, theme] of cases) {
            const what = `${lab.id}, ${device}, ${column} px, ${theme}`;
            const { page, frame } = await openBlog(context, lab, snippets[theme], column, theme);
            try {
              if (SHOTS && (column === 360 || column === 680 || process.env.ATTN_SHOTS_ALL)) {
                mkdirSync(SHOTS, { recursive: true });
                await page.screenshot({ path: join(SHOTS, `${lab.id}-${device}-${column}-${theme}.png`), fullPage: true });
              }
              const host = await checkHost(page, what);
              const read = await frame.evaluate(readFrame, { main: lab.main, column: host.column.w });
              check(read, what);
              assert.deepEqual(page.errors, [], `${what}: no errors`);
            } finally {
              await page.close();
            }
          }
        } finally {
          await context.close();
        }
      });
    }
  });
}

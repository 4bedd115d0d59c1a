// The address bar's text, pinned: every preset link (as a link, picked from each lab's preset
// menu, and each lab's tab from a fresh page), every link quoted in README.md and docs/*.md, and
// every link of the
// hostile corpus (hostile_links.mjs) is opened in Chromium from a fresh load, and the hash the
// page leaves in the address bar is compared with address_bar.json: what the page wrote before
// the labs shared one interface (www/lab/). Long values are pinned by length and SHA-256.
//
// ATTN_WRITE_FIXTURE=1 writes address_bar.json from the page served instead of comparing (that
// is how the file was made, against the page of the commit before www/lab/ existed).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { ATTN_URL, launch, watchCsp } from './helpers.mjs';
import { HOSTILE_LINKS } from './hostile_links.mjs';

const FIXTURE = new URL('./address_bar.json', import.meta.url);
const README = new URL('../../README.md', import.meta.url);
const DOCS = new URL('../../docs/', import.meta.url);
const WRITE = process.env.ATTN_WRITE_FIXTURE === '1';
/** Values longer than this are pinned by length and SHA-256 (the corpus has 100 kB links). */
const LONG = 600;

/** The pages that quote links: README.md and every docs/*.md, in name order. */
async function docPages() {
  const names = (await readdir(DOCS)).filter((name) => name.endsWith('.md')).sort();
  return [README, ...names.map((name) => new URL(name, DOCS))];
}

/** The links the docs name (configuration strings, in code spans, URLs and commands). */
export async function docLinks() {
  const found = [];
  for (const page of await docPages()) {
    const text = await readFile(page, 'utf8');
    found.push(...(text.match(/(?<![\w=&%-])(?:version|lab|preset)=[A-Za-z0-9_.,;&=%-]*/g) ?? []));
  }
  return [...new Set(found)];
}

/** What the fixture keeps of an address bar's hash. */
function pin(hash) {
  if (hash.length <= LONG) return hash;
  return { length: hash.length, sha256: createHash('sha256').update(hash).digest('hex') };
}

/** @type {import('playwright-core').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
let fixture = {};
const seen = {};

before(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(watchCsp);
  if (!WRITE) fixture = JSON.parse(await readFile(FIXTURE, 'utf8'));
});

after(async () => {
  if (WRITE) await writeFile(FIXTURE, `${JSON.stringify(seen, null, 1)}\n`);
  await browser?.close();
});

/** Opens `#hash` from a fresh load; resolves once the lab it asks for has shown it. */
async function open(hash) {
  await page.goto('about:blank');
  await page.goto(`${ATTN_URL}#${hash}`);
  await page.waitForFunction(() => window.__attnReady === true, null, { timeout: 30_000 });
  await settle();
}

/** Waits until the lab shown has its configuration (and a little longer for late writes). */
async function settle() {
  await page.waitForFunction(() => {
    const shown = (id) => !document.getElementById(id).hidden;
    if (shown('lab-training')) return Boolean(window.__attnTraining?.configString());
    if (shown('lab-depth')) return Boolean(window.__attnDepth?.configString());
    // The model lab: its analysis, or its refusal (a refused link stays in the address bar).
    if (shown('lab-model')) return Boolean(window.__attnModel?.configString() || document.getElementById('md-error')?.textContent);
    return Boolean(window.__attn?.configString());
  }, null, { timeout: 30_000 });
  await page.waitForTimeout(150);
}

/** The address bar's hash (without '#'). */
const hash = () => page.evaluate(() => location.hash.replace(/^#/, ''));

/** Compares (or records) the address bar of case `name`. The page writes the address bar after
 * it has drawn, so on a loaded machine the text may come a moment after the lab shows its
 * configuration: the comparison waits up to 5 s for the recorded text, then compares what is
 * there (a recording waits until the text has not changed for 1 s). */
async function check(name) {
  if (WRITE) {
    let last = await hash();
    for (let stable = 0; stable < 1000; stable += 100) {
      await page.waitForTimeout(100);
      const now = await hash();
      if (now !== last) [last, stable] = [now, 0];
    }
    seen[name] = pin(last);
    return;
  }
  assert.ok(Object.hasOwn(fixture, name), `${name} is not in address_bar.json (ATTN_WRITE_FIXTURE=1 records it)`);
  const want = JSON.stringify(fixture[name]);
  await page
    .waitForFunction(
      ([w, long]) => {
        const h = location.hash.replace(/^#/, '');
        return h.length > long ? true : JSON.stringify(h) === w;
      },
      [want, LONG],
      { timeout: 5_000 },
    )
    .catch(() => {});
  const got = pin(await hash());
  seen[name] = got;
  assert.deepEqual(got, fixture[name], `the address bar of ${name}`);
}

describe('the address bar is what the page wrote before one lab interface', () => {
  test('preset links, preset menus and tabs', async () => {
    await open('');
    await check('link: (empty)');
    const names = await page.evaluate(() => {
      const w = window.__attn.wasm;
      return {
        particles: w.presets('particles').map((p) => p.name),
        training: w.presets('training').map((p) => p.name),
        depth: w.presets('depth').map((p) => p.name),
      };
    });
    assert.ok(names.particles.length >= 11 && names.training.length >= 2 && names.depth.length >= 4);
    const links = [
      ...names.particles.flatMap((n) => [`preset=${n}`, `version=2&preset=${n}`, `version=1&preset=${n}`]),
      ...names.training.map((n) => `lab=training&preset=${n}`),
      ...names.depth.map((n) => `lab=depth&preset=${n}`),
    ];
    for (const link of links) {
      await open(link);
      await check(`link: ${link}`);
    }
    const menus = { particles: ['', '#preset'], training: ['lab=training', '#tr-preset'], depth: ['lab=depth', '#dp-preset'] };
    for (const [lab, [start, select]] of Object.entries(menus)) {
      for (const name of names[lab]) {
        await open(start);
        await page.selectOption(select, name);
        await settle();
        await check(`menu: ${lab} ${name}`);
      }
    }
    await open('');
    for (const [i, tab] of ['training', 'depth', 'particles', 'depth', 'training'].entries()) {
      await page.click(`#tab-${tab}`);
      await settle();
      await check(`tab ${i + 1} from (empty): ${tab}`);
    }
  });

  test('the links quoted in README.md and docs/', async () => {
    const links = await docLinks();
    assert.ok(links.length >= 30, `${links.length} links found in README.md and docs/`);
    for (const link of links) {
      await open(link);
      await check(`docs: ${link}`);
    }
  });

  test('the hostile links', async () => {
    for (const link of HOSTILE_LINKS) {
      await open(link.hash);
      await check(`hostile: ${link.lab}: ${link.name}`);
    }
  });
});

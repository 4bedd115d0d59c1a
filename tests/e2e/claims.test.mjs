// Every sentence the page shows about its runs (captions, tooltips, preset descriptions and
// captions, tour cards) is listed in claims.json, marked `plain` (it says what something is or
// does in the page) or `claim` (it says what a run's numbers do) with the check that reads those
// numbers as the page shows them (claim_checks.mjs). A sentence added to a table and not listed,
// or listed and gone, fails here.
//
// ATTN_CLAIMS_WRITE=1 writes claims.json afresh from the tables, keeping the marks of the
// sentences already listed; a new sentence comes in as `unmarked`, which fails until marked.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { assertNoErrors, launch, openPage } from './helpers.mjs';
import { collectInPage, collectTitles } from './claims_collect.mjs';
import { CHECKS } from './claim_checks.mjs';

const FILE = new URL('./claims.json', import.meta.url);

/** @type {import('playwright-core').Browser} */
let browser;
/** @type {{ where: string, text: string }[]} */
let found;
/** @type {{ about: string, sentences: { where: string, text: string, kind: string, check?: string }[] }} */
let listed;

const key = (s) => `${s.where}\u0000${s.text}`;

before(async () => {
  browser = await launch();
  const page = await openPage(browser, '');
  try {
    found = [...(await collectInPage(page)), ...(await collectTitles())];
    assertNoErrors(page);
  } finally {
    await page.close();
  }
  listed = JSON.parse(await readFile(FILE, 'utf8'));
  if (process.env.ATTN_CLAIMS_WRITE) {
    const marks = new Map(listed.sentences.map((s) => [key(s), s]));
    const byText = new Map(listed.sentences.map((s) => [s.text, s]));
    const seen = new Set();
    const sentences = found.filter((s) => !seen.has(key(s)) && seen.add(key(s))).map((s) => {
      const old = marks.get(key(s)) ?? byText.get(s.text);
      return old ? { ...s, kind: old.kind, ...(old.check ? { check: old.check } : {}) } : { ...s, kind: 'unmarked' };
    });
    listed = { ...listed, sentences };
    await writeFile(FILE, `${JSON.stringify(listed, null, 2)}\n`);
  }
});

after(async () => {
  await browser?.close();
});

describe('claims', () => {
  test('claims.json lists every sentence of the tables, and only those', () => {
    const have = new Set(listed.sentences.map(key));
    const want = new Set(found.map(key));
    const missing = found.filter((s) => !have.has(key(s))).map((s) => `${s.where}: ${s.text}`);
    const gone = listed.sentences.filter((s) => !want.has(key(s))).map((s) => `${s.where}: ${s.text}`);
    assert.deepEqual(missing, [], 'sentences not in claims.json (ATTN_CLAIMS_WRITE=1 adds them, then mark each)');
    assert.deepEqual(gone, [], 'sentences in claims.json that no table holds any more');
  });

  test('each sentence is plain, or a claim with a check', () => {
    for (const s of listed.sentences) {
      assert.ok(s.kind === 'plain' || s.kind === 'claim', `${s.where}: ${s.kind}: ${s.text}`);
      if (s.kind === 'claim') assert.ok(CHECKS[s.check], `${s.where}: the check ${s.check} does not exist`);
      else assert.equal(s.check, undefined, `${s.where}: a plain sentence has no check`);
    }
    assert.deepEqual(Object.keys(CHECKS).filter((c) => !listed.sentences.some((s) => s.check === c)), [], 'every check is some sentence\'s');
  });

  // The tour cards' checks run in tour.test.mjs, where each card is opened.
  const tourChecks = () => new Set(listed.sentences.filter((s) => / tour \d+$/.test(s.where)).map((s) => s.check));
  test('every other claim holds on the lab\'s own numbers', { timeout: 1_800_000 }, async (t) => {
    const names = [...new Set(listed.sentences.filter((s) => s.kind === 'claim').map((s) => s.check))].filter((c) => !tourChecks().has(c));
    for (const name of names) {
      await t.test(name, { timeout: 600_000 }, async () => {
        const said = await CHECKS[name].run(browser);
        t.diagnostic(`${name}: ${said}`);
      });
    }
  });
});

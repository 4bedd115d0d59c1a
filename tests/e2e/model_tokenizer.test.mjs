// The model lab's tokenizer in Chromium, through the page's wasm module: the ids of Hugging Face
// `tokenizers` 0.23.3 (with the model's own tokenizer.json) for `x{c}y` on every Unicode scalar
// value and on 6,000 strings of many kinds (the fixtures of
// crates/core/tests/fixtures/tokenizer_unicode, which the native test reads too). And the note a
// link older than the tokenizer's Unicode tables gets when its text has a code point they treat
// otherwise: on the page, as `attn encode` prints it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ATTN_BIN, assertNoErrors, launch, openPage, runCli } from './helpers.mjs';
import { MODEL_DIR, analysed } from './model_helpers.mjs';

const FIXTURES = new URL('../../crates/core/tests/fixtures/tokenizer_unicode/', import.meta.url);
const fixture = (name) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/**
 * In the page: the ids of `x{c}y` for every code point of the fixture's `ranges` (`[first, last,
 * ids]`, the ids between [CLS] and [SEP]), or of each of `cases` (`[text, ids]`), by the wasm
 * tokenizer of `vocab` and `config`, in batches; returns how many were compared, the first
 * differences and the time.
 */
function compareInPage({ vocab, config, ranges, cases }) {
  const all = cases ?? [];
  for (const [first, last, ids] of ranges ?? []) {
    const want = [101, ...ids, 102];
    for (let c = first; c <= last; c++) {
      if (c < 0xd800 || c > 0xdfff) all.push([`x${String.fromCodePoint(c)}y`, want]);
    }
  }
  return import(new URL('pkg/attn_web_full.js', location.href).href).then(async (glue) => {
    await glue.default();
    const tokenizer = new glue.BertTokenizer(vocab, config);
    const wrong = [];
    let compared = 0;
    const t0 = performance.now();
    const BATCH = 32768;
    for (let start = 0; start < all.length; start += BATCH) {
      const batch = all.slice(start, start + BATCH);
      const flat = tokenizer.ids_of_each(batch.map(([text]) => text));
      let k = 0;
      for (const [text, want] of batch) {
        const n = flat[k];
        const differs = n !== want.length || want.some((id, i) => flat[k + 1 + i] !== id);
        if (differs && wrong.length < 20) {
          wrong.push(`${JSON.stringify(text)}: ${JSON.stringify(Array.from(flat.subarray(k + 1, k + 1 + n)))}, the reference ${JSON.stringify(want)}`);
        } else if (differs) {
          wrong.push(null);
        }
        k += 1 + n;
        compared += 1;
      }
    }
    tokenizer.free();
    return { compared, wrong, ms: performance.now() - t0 };
  });
}

const haveModel = existsSync(join(MODEL_DIR, 'vocab.txt'));

describe('the model lab\'s tokenizer in Chromium', { skip: !haveModel && 'the model is not cached: cargo xtask fetch-model' }, () => {
  test('x{c}y for every Unicode scalar value and 6,000 strings get the ids of tokenizers 0.23.3', { timeout: 300_000 }, async () => {
    const vocab = readFileSync(join(MODEL_DIR, 'vocab.txt'), 'utf8');
    const config = readFileSync(join(MODEL_DIR, 'tokenizer_config.json'), 'utf8');
    const points = fixture('code_points.json');
    const strings = fixture('strings.json');
    const page = await openPage(browser, '');
    const cp = await page.evaluate(compareInPage, { vocab, config, ranges: points.ranges });
    console.log(`tokenizer in Chromium: ${cp.compared} code points in ${Math.round(cp.ms)} ms`);
    assert.equal(cp.compared, 0x110000 - 0x800, 'every scalar value');
    assert.deepEqual(cp.wrong, [], `${cp.wrong.length} code points differ`);
    const cases = strings.cases.map(([, text, ids]) => [text, ids]);
    assert.ok(cases.length >= 6000, `${cases.length} strings`);
    const st = await page.evaluate(compareInPage, { vocab, config, cases });
    console.log(`tokenizer in Chromium: ${st.compared} strings in ${Math.round(st.ms)} ms`);
    assert.equal(st.compared, cases.length);
    assert.deepEqual(st.wrong, [], `${st.wrong.length} strings differ`);
    assertNoErrors(page);
    await page.close();
  });

  test('a version 4 link whose text has U+1DF6 names it in a note, as attn encode does; a text without it or a version 5 link has none', { skip: !ATTN_BIN && 'ATTN_BIN is not set', timeout: 300_000 }, async () => {
    const text = 'Learn\u1DF6 more.';
    const link = `version=4&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=${encodeURIComponent(text)}`;
    const page = await openPage(browser, link, { viewport: { width: 1440, height: 900 } });
    await analysed(page);
    const shown = await page.evaluate(() => {
      const note = document.getElementById('md-tokens-note');
      return { text: note.textContent, hidden: note.hidden, visible: note.checkVisibility(), tokens: window.__attnModel.result().tokens };
    });
    const cli = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', link]));
    assert.ok(cli.tokenizer_note.startsWith('The text has U+1DF6, which the tokenizer treats otherwise since version 5'), cli.tokenizer_note);
    assert.equal(shown.text, cli.tokenizer_note);
    assert.deepEqual([shown.hidden, shown.visible], [false, true], 'the note is shown under the tokens');
    assert.deepEqual(shown.tokens, ['[CLS]', '[UNK]', 'more', '.', '[SEP]'], 'U+1DF6 is no accent for tokenizers: learn᷶ is unknown');
    assert.deepEqual(shown.tokens, cli.tokens);

    // The same link without U+1DF6: no note.
    const plain = link.replace('%E1%B7%B6', '');
    await page.evaluate((l) => { location.hash = l; }, plain);
    await page.waitForFunction(() => window.__attnModel.result()?.tokens.includes('learn') && !window.__attnModel.busy(), null, { timeout: 120_000 });
    const after = await page.evaluate(() => {
      const note = document.getElementById('md-tokens-note');
      return { text: note.textContent, hidden: note.hidden };
    });
    assert.deepEqual(after, { text: '', hidden: true });

    // Today's link (version 5, made with the new tables) with U+1DF6: the same tokens, no note.
    await page.evaluate((l) => { location.hash = l; }, link.replace('version=4&', 'version=5&'));
    await page.waitForFunction(() => window.__attnModel.result()?.tokens.includes('[UNK]') && !window.__attnModel.busy(), null, { timeout: 120_000 });
    const today = await page.evaluate(() => {
      const note = document.getElementById('md-tokens-note');
      return { text: note.textContent, hidden: note.hidden, tokens: window.__attnModel.result().tokens };
    });
    assert.deepEqual(today, { text: '', hidden: true, tokens: shown.tokens });
    assertNoErrors(page);
    await page.close();
  });
});

// The page's one link grammar (www/lab/pairs.js), loaded in Node beside the page's wasm module:
// a value it encodes is written exactly as the core writes it in a canonical link (one
// percent-encoding set), reads back unchanged, and editing a link pair by pair keeps every other
// pair byte for byte (a malformed escape included, so the core still reports it on its key).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  concatLinks, decodeValue, encodeValue, joinPairs, keysOf, onlyKeys, rawPair, splitConfig, valueOf, withoutKeys,
} from '../../www/lab/pairs.js';

const PKG = new URL('../../www/pkg/', import.meta.url);

/** Texts with every printable ASCII character, accents, CJK, an emoji, spaces of all kinds. */
const TEXTS = [
  Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join(''),
  "Ça va? L'été, «déjà» — 100 % !",
  '日本語のテキスト。',
  'The fox 🦊 (quick) *brown* ~ jumps_over-the.lazy dog',
  'tab\tnew\nline\u00a0nbsp\u2003em',
  'a&b=c#d%e+f',
];

test('a value the page encodes is written as the core writes it, and reads back unchanged', async () => {
  const glue = await import(new URL('attn_web.js', PKG).href);
  glue.initSync({ module: new WebAssembly.Module(readFileSync(new URL('attn_web_bg.wasm', PKG))) });
  for (const text of TEXTS) {
    const res = glue.check_link(joinPairs([['lab', 'model'], ['text', text]]));
    assert.ok(res.ok, `${JSON.stringify(text)}: ${res.message}`);
    assert.equal(rawPair(res.link, 'text'), `text=${encodeValue(text)}`, `${JSON.stringify(text)}: the core's canonical text`);
    assert.equal(valueOf(res.link, 'text'), text);
    assert.equal(decodeValue(encodeValue(text)), text);
  }
  assert.match(encodeValue("!'()*"), /^%21%27%28%29%2A$/, 'what encodeURIComponent leaves, the core escapes');
  assert.equal(encodeValue('a\uD800b'), 'a%EF%BF%BDb', 'a lone surrogate is U+FFFD, not an exception');
});

test('editing a link keeps the other pairs as written', () => {
  const link = '#version=7&lab=model&text=a%26b&bogus=%zz&layer=2&layer=3';
  assert.deepEqual(keysOf(link), ['version', 'lab', 'text', 'bogus', 'layer', 'layer']);
  assert.equal(withoutKeys(link, ['layer', 'version']), 'lab=model&text=a%26b&bogus=%zz');
  assert.equal(onlyKeys(link, ['bogus', 'text']), 'text=a%26b&bogus=%zz');
  assert.equal(concatLinks('', 'a=1', '#b=2&', ''), 'a=1&b=2');
  assert.equal(rawPair(link, 'text'), 'text=a%26b');
  assert.equal(valueOf(link, 'text'), 'a&b');
  assert.equal(valueOf(link, 'bogus'), '%zz', 'a malformed escape is kept as written');
  assert.deepEqual(splitConfig('?a&b=1'), [['a', undefined], ['b', '1']]);
});

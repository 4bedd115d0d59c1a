// The model lab with the user's own files (docs/model-lab.md, "Your own model"): a tiny random BERT picked with
// "Load your own BERT" loads in the worker (streamed into wasm, hashed there), the link reads
// model=NAME@SHA16 with the file's sha256 and the page's numbers equal `attn encode` on the same
// folder; hostile files (truncated, a header claiming 1e12 elements, wrong dtypes, duplicate
// vocabulary pieces, 0 heads, model_type gpt2, a missing file, a model over the memory limit)
// are each refused naming what is wrong while the page keeps the served model's analysis (a
// model.safetensors over the memory limit by its size, before a byte is read); a
// dropped set loads too; a link naming weights that are not loaded says how to load them. Files
// the CLI reads load alike (text files with a UTF-8 byte-order mark: the CLI's tokens; a tensor of
// 2^27 F32 elements); ambiguous files (a tensor named twice, `X` with `bert.X`, two config.json),
// a UTF-16 vocab.txt, a header describing more than the page reads (refused before the data is
// read) and a model whose max_position_embeddings the shown text exceeds are refused before the
// swap: the page keeps its model, its analysis and its address bar.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ATTN_BIN, ATTN_URL, assertNoErrors, launch, openPage, runCli } from './helpers.mjs';
import { VOCAB, config, serialize, tensors, tinyFiles, tmpRoot, utf16, withBom, writeModel } from './tiny_bert.mjs';

const MODEL_DIR = join(homedir(), '.cache/attn/models/all-MiniLM-L6-v2');
const MINILM = 'all-MiniLM-L6-v2@53aa51172d142c89';
const TEXT = 'The quick brown fox jumps over the lazy dog. The dog does not move.';
const LINK = `lab=model&model=${MINILM}&text=${encodeURIComponent(TEXT)}&layer=2&head=3`;

let browser;
let root;

before(async () => {
  browser = await launch();
  root = tmpRoot();
});

after(async () => {
  await browser?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function analysed(page, id = null) {
  await page.waitForFunction((want) => {
    const m = window.__attnModel;
    return m && m.result() && !m.busy() && (want === null || m.configString().includes(`model=${want}&`));
  }, id, { timeout: 240_000 });
}

/** What the page shows of its analysis: the model, the link, the token strip, the curves. */
const shown = (page) => page.evaluate(() => {
  const m = window.__attnModel;
  return {
    id: m.model().info.id,
    config: m.configString(),
    strip: document.getElementById('md-tokens').textContent,
    variants: JSON.stringify(m.result().variants),
    model: document.getElementById('md-model').textContent,
  };
});

/** Picks `paths` with the lab's file input; returns the message shown once the worker answers. */
async function pick(page, paths) {
  await page.evaluate(() => {
    document.getElementById('md-error').textContent = '';
  });
  await page.setInputFiles('#md-files', paths);
  await page.waitForFunction(() => document.getElementById('md-error').textContent !== '', null, { timeout: 60_000 });
  return page.evaluate(() => document.getElementById('md-error').textContent);
}

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('model lab: your own files', { skip: (!ATTN_BIN && 'ATTN_BIN is not set') || (!existsSync(join(MODEL_DIR, 'model.safetensors')) && 'the model is not cached: cargo xtask fetch-model') }, () => {
  test('a picked tiny BERT loads: its link names NAME@SHA16 and the page equals attn encode', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK);
    await analysed(page, MINILM);
    const label = await page.evaluate(() => document.querySelector('label[for=md-files]').textContent);
    assert.equal(label, 'Load your own BERT: model.safetensors, config.json, vocab.txt');
    const paths = writeModel(root, 'tiny', tinyFiles(7));
    const sha = sha256(paths[0]);
    const id = `tiny-bert@${sha.slice(0, 16)}`; // the name: config.json's _name_or_path
    await page.setInputFiles('#md-files', paths);
    await analysed(page, id);
    const s = await page.evaluate(() => ({
      hash: decodeURIComponent(location.hash.slice(1)),
      own: document.getElementById('md-own').textContent,
      model: window.__attnModel.model(),
      result: window.__attnModel.result(),
      strip: Array.from(document.querySelectorAll('#md-tokens .token'), (e) => e.textContent),
      error: document.getElementById('md-error').textContent,
    }));
    assert.equal(s.model.sha256, sha, 'the sha256 streamed in wasm is the file\'s');
    assert.equal(s.model.info.id, id);
    assert.match(s.hash, new RegExp(`model=${id}&text=`), 'the address bar names the own model');
    assert.match(s.own, new RegExp(`Loaded ${id}: model.safetensors sha256 ${sha}`));
    assert.equal(s.error, '');
    assert.equal(s.result.layers, 2);
    assert.equal(s.result.heads, 2);
    const cli = JSON.parse(await runCli(['encode', '--model', dirname(paths[0]), '--model-name', 'tiny-bert', '--config', s.result.config]));
    assert.equal(cli.config, s.result.config);
    assert.deepEqual(s.result.tokens, cli.tokens);
    assert.deepEqual(s.strip, cli.tokens, 'the strip shows the tiny model\'s tokens');
    for (let i = 0; i < 4; i++) {
      const [a, b] = [s.result.variants[i].residual, cli.variants[i].residual];
      assert.equal(a.length, 3);
      for (let l = 0; l < a.length; l++) assert.ok(Object.is(a[l], b[l]), `${cli.variants[i].variant}[${l}]: page ${a[l]} cli ${b[l]}`);
    }
    // The served model's link is now refused (other weights), naming both hashes.
    await page.evaluate((l) => { location.hash = l; }, LINK);
    await page.waitForFunction(() => /`model`/.test(document.getElementById('md-error').textContent), null, { timeout: 60_000 });
    const refused = await page.evaluate(() => document.getElementById('md-error').textContent);
    assert.match(refused, /53aa51172d142c89/);
    assert.match(refused, new RegExp(sha.slice(0, 16)));
    assert.match(refused, /Load your own BERT/, 'says how to load the link\'s model');
    // Dropping another set on the lab loads it (the drop target).
    const dropped = await page.evaluateHandle(async (files) => {
      const dt = new DataTransfer();
      for (const [name, b64] of files) dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
      return dt;
    }, Object.entries(tinyFiles(8)).map(([n, d]) => [n, Buffer.from(d).toString('base64')]));
    await page.dispatchEvent('#lab-model', 'drop', { dataTransfer: dropped });
    const sha8 = createHash('sha256').update(tinyFiles(8)['model.safetensors']).digest('hex');
    await analysed(page, `tiny-bert@${sha8.slice(0, 16)}`);
    // A drop beside the lab (on the page's header) is the lab's too: the browser does not open the file.
    const back = await page.evaluateHandle(async (files) => {
      const dt = new DataTransfer();
      for (const [name, b64] of files) dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
      return dt;
    }, Object.entries(tinyFiles(7)).map(([n, d]) => [n, Buffer.from(d).toString('base64')]));
    await page.dispatchEvent('header.top', 'drop', { dataTransfer: back });
    await analysed(page, id);
    assert.ok(page.url().startsWith(ATTN_URL), 'still on the page');
    // Only the lab took the drop: the export menu did not try model.safetensors as a PNG.
    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => document.getElementById('md-error').textContent), '');
    assertNoErrors(page);
    await page.close();
  });

  test('hostile files are refused naming what is wrong; the served model\'s analysis stays', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK);
    // The device says 8 GB (the page reads navigator.deviceMemory when the files are picked).
    await page.evaluate(() => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 8, configurable: true }));
    await analysed(page, MINILM);
    const before = await shown(page);
    const good = tinyFiles(7);
    const st = good['model.safetensors'];
    const dupVocab = VOCAB.map((p) => (p === 'jumps' ? 'fox' : p));
    const huge = { hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 48, intermediate_size: 16384 };
    const cases = [
      ['truncated', { ...good, 'model.safetensors': st.subarray(0, st.length >> 1) }, /model\.safetensors: .*truncated/],
      ['1e12 elements', { ...good, 'model.safetensors': serialize(tensors(7), { 'embeddings.word_embeddings.weight': { shape: [1000000, 1000000] } }) },
        /model\.safetensors: tensor `embeddings\.word_embeddings\.weight`: its shape \[1000000, 1000000\] needs 4000000000000 bytes/],
      ['F16', { ...good, 'model.safetensors': serialize(tensors(7, { 'encoder.layer.0.attention.self.query.weight': 'F16' })) },
        /model\.safetensors: tensor `encoder\.layer\.0\.attention\.self\.query\.weight`: has dtype F16; the model lab reads F32/],
      ['I64', { ...good, 'model.safetensors': serialize(tensors(7, { 'embeddings.LayerNorm.weight': 'I64' })) },
        /tensor `embeddings\.LayerNorm\.weight`: has dtype I64/],
      ['duplicate pieces', { ...good, 'vocab.txt': `${dupVocab.join('\n')}\n` }, /vocab\.txt: piece "fox" is on line 9 and again on line 16/],
      ['0 heads', { ...good, 'config.json': config({ num_attention_heads: 0 }) }, /config\.json: `num_attention_heads` is 0/],
      ['gpt2', { ...good, 'config.json': config({ model_type: 'gpt2' }) }, /config\.json: `model_type` .*gpt2/],
      ['missing', { 'config.json': good['config.json'], 'vocab.txt': good['vocab.txt'] }, /model\.safetensors is missing/],
      ['too big', { ...good, 'config.json': config(huge) }, /`model`: needs about \d+\.\d+ GiB .* over this device's 2 GiB/],
    ];
    for (const [name, files, want] of cases) {
      const msg = await pick(page, writeModel(root, `hostile-${name.replace(/\W+/g, '-')}`, files));
      assert.match(msg, want, name);
      assert.match(msg, /^Your files were refused: .* The page keeps all-MiniLM-L6-v2@53aa51172d142c89 and its analysis\.$/, name);
      assert.deepEqual(await shown(page), before, `${name}: the last model and its analysis are unchanged`);
    }
    // A model.safetensors over the limit (a sparse 2.5 GiB file, small config) is refused by its
    // size before a byte is read, naming model and both numbers.
    const [bigSt] = writeModel(root, 'hostile-big-file', { 'model.safetensors': '', 'config.json': good['config.json'], 'vocab.txt': good['vocab.txt'] });
    truncateSync(bigSt, 2.5 * 2 ** 30);
    const big = await pick(page, [bigSt, join(dirname(bigSt), 'config.json'), join(dirname(bigSt), 'vocab.txt')]);
    assert.match(big, /^Your files were refused: `model`: model\.safetensors is 2\.50 GiB, over this device's 2 GiB of page memory\. The page keeps all-MiniLM-L6-v2@53aa51172d142c89 and its analysis\.$/);
    assert.deepEqual(await shown(page), before, 'file over the limit: the analysis is unchanged');
    // The analysis still runs on the kept model.
    await page.evaluate(() => {
      document.getElementById('md-text').value = 'The dog sleeps.';
      document.getElementById('md-run').click();
    });
    await page.waitForFunction(() => window.__attnModel.configString().includes('The%20dog%20sleeps.') && !window.__attnModel.busy(), null, { timeout: 60_000 });
    assertNoErrors(page);
    await page.close();
  });

  test('files the CLI reads load alike: text files with a byte-order mark, a tensor of 2^27 F32 elements', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK);
    await analysed(page, MINILM);
    const text = 'the dog jumps, the fox.';
    await page.evaluate((t) => {
      document.getElementById('md-text').value = t;
      document.getElementById('md-run').click();
    }, text);
    await page.waitForFunction((t) => window.__attnModel.configString().includes(`text=${t}`) && !window.__attnModel.busy(), encodeURIComponent(text), { timeout: 60_000 });
    /** Loads the folder `paths` and compares the page with attn encode on it. */
    const sameAsCli = async (paths) => {
      const id = `tiny-bert@${sha256(paths[0]).slice(0, 16)}`;
      await page.setInputFiles('#md-files', paths);
      await analysed(page, id);
      const s = await page.evaluate(() => ({
        result: window.__attnModel.result(),
        strip: Array.from(document.querySelectorAll('#md-tokens .token'), (e) => e.textContent),
        error: document.getElementById('md-error').textContent,
      }));
      assert.equal(s.error, '');
      const cli = JSON.parse(await runCli(['encode', '--model', dirname(paths[0]), '--model-name', 'tiny-bert', '--config', s.result.config]));
      assert.deepEqual(s.result.tokens, cli.tokens);
      assert.deepEqual(s.strip, cli.tokens);
      assert.deepEqual(s.result.ids, cli.ids);
      for (let i = 0; i < 4; i++) {
        const [a, b] = [s.result.variants[i].residual, cli.variants[i].residual];
        for (let l = 0; l < a.length; l++) assert.ok(Object.is(a[l], b[l]), `${cli.variants[i].variant}[${l}]: page ${a[l]} cli ${b[l]}`);
      }
      return s.result.tokens;
    };
    // vocab.txt with `the` on its first line, where the mark lands, and config.json with a mark.
    const vocab = [...VOCAB];
    [vocab[0], vocab[5]] = [vocab[5], vocab[0]];
    const bom = writeModel(root, 'bom', { 'model.safetensors': serialize(tensors(7)), 'config.json': withBom(config()), 'vocab.txt': withBom(`${vocab.join('\n')}\n`) });
    assert.deepEqual(await sameAsCli(bom), ['[CLS]', 'the', 'dog', 'jumps', ',', 'the', 'fox', '.', '[SEP]']);
    // A tensor of 2^27 F32 elements (512 MiB of zeros, a sparse file), which the lab does not
    // read: the page once refused it as an overflow (a 32-bit size in wasm32).
    const t = tensors(7);
    const end = t.reduce((a, x) => a + x.data.length, 0);
    const big = 'cls.predictions.decoder.weight';
    const st = serialize([...t, { name: big, shape: [1], dtype: 'F32', data: new Uint8Array(0) }], { [big]: { shape: [4194304, 32], data_offsets: [end, end + 2 ** 29] } });
    const large = writeModel(root, 'large-tensor', { 'model.safetensors': st, 'config.json': config(), 'vocab.txt': `${VOCAB.join('\n')}\n` });
    truncateSync(large[0], st.length + 2 ** 29);
    assert.deepEqual(await sameAsCli(large), ['[CLS]', 'the', 'dog', 'jumps', ',', 'the', 'fox', '.', '[SEP]']);
    assertNoErrors(page);
    await page.close();
  });

  test('ambiguous, mis-encoded or oversized files and a model the shown text does not fit are refused before the swap', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK);
    await page.evaluate(() => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 8, configurable: true }));
    await analysed(page, MINILM);
    const before = await shown(page);
    const hash = await page.evaluate(() => location.hash);
    const good = tinyFiles(7);
    const t = tensors(7);
    const q = 'encoder.layer.0.attention.self.query.weight';
    const query = t.find((x) => x.name === q);
    const qs = q.replace(/\./g, '\\.');
    const cases = [
      ['UTF-16 vocab', { ...good, 'vocab.txt': utf16(good['vocab.txt']) },
        /^Your files were refused: vocab\.txt: is UTF-16 \(little-endian\) text \(it starts with the byte-order mark FF FE\); save it as UTF-8\./],
      ['a tensor named twice', { ...good, 'model.safetensors': serialize([...t, query]) },
        new RegExp(`^Your files were refused: model\\.safetensors: tensor \`${qs}\`: is named twice in the header: which of the two the lab should read is ambiguous`)],
      ['X and bert.X', { ...good, 'model.safetensors': serialize([...t, { ...query, name: `bert.${q}` }]) },
        new RegExp(`^Your files were refused: model\\.safetensors: tensor \`${qs}\`: the file holds both \`${qs}\` and \`bert\\.${qs}\`, which the lab reads as one tensor`)],
      // The shown text has 18 tokens on the tiny vocabulary; this model takes 4.
      ['max_position_embeddings 4', { 'model.safetensors': serialize(tensors(7, {}, 4)), 'config.json': config({ max_position_embeddings: 4 }), 'vocab.txt': good['vocab.txt'] },
        /^Your files were refused: the shown text has 18 tokens with \[CLS\] and \[SEP\] for this model, which takes at most 4 \(config\.json's max_position_embeddings\): shorten the text, then load the files again\./],
    ];
    const kept = (msg, name) => {
      assert.match(msg, / The page keeps all-MiniLM-L6-v2@53aa51172d142c89 and its analysis\.$/, name);
    };
    for (const [name, files, want] of cases) {
      const msg = await pick(page, writeModel(root, `refused-${name.replace(/\W+/g, '-')}`, files));
      assert.match(msg, want, name);
      kept(msg, name);
      assert.deepEqual(await shown(page), before, `${name}: the model, its analysis and its curves are unchanged`);
      assert.equal(await page.evaluate(() => location.hash), hash, `${name}: the address bar is unchanged`);
    }
    // Two config.json in one pick (two folders' files).
    const a = writeModel(root, 'two-configs-a', good);
    const [b] = writeModel(root, 'two-configs-b', { 'config.json': config({ num_hidden_layers: 1 }) });
    const two = await pick(page, [...a, b]);
    assert.match(two, /^Your files were refused: config\.json: 2 files of that name were picked \(config\.json, config\.json\); which one the model is read from is ambiguous: pick one model folder's files\./);
    kept(two, 'two config.json');
    // A header describing 1.90 GiB of tensors (a sparse file of that size, under the 2 GiB memory
    // limit) is refused from its first bytes, naming its largest tensor, without reading the data.
    const big = 'cls.predictions.decoder.weight';
    const end = t.reduce((s, x) => s + x.data.length, 0);
    const st = serialize([...t, { name: big, shape: [1], dtype: 'F32', data: new Uint8Array(0) }], { [big]: { shape: [510027366], data_offsets: [end, end + 4 * 510027366] } });
    const over = writeModel(root, 'over-the-limit', { ...good, 'model.safetensors': st });
    truncateSync(over[0], st.length + 4 * 510027366);
    const t0 = Date.now();
    const msg = await pick(page, over);
    const ms = Date.now() - t0;
    assert.match(msg, /^Your files were refused: model\.safetensors: its header describes 1\.90 GiB of tensors, more than the 1\.75 GiB the page reads \(wasm32's 4 GiB holds the file and the weights read from it at once, with the forward's working set\); its largest tensor, `cls\.predictions\.decoder\.weight` \(F32 of shape \[510027366\]\), holds 1\.90 GiB; attn encode reads it\./);
    kept(msg, 'over the limit');
    assert.ok(ms < 10_000, `refused in ${ms} ms, before 1.9 GB were read`);
    const progress = await page.evaluate(() => document.getElementById('md-file').textContent);
    assert.doesNotMatch(progress, /model\.safetensors: [1-9]/, 'no byte of the data was read');
    assert.deepEqual(await shown(page), before, 'the analysis is unchanged');
    assert.equal(await page.evaluate(() => location.hash), hash);
    assertNoErrors(page);
    await page.close();
  });

  test('the memory limit: 1 GiB on a device of at most 4 GB, before the weights are read', { timeout: 300_000 }, async () => {
    const large = config({ hidden_size: 1024, num_attention_heads: 16, num_hidden_layers: 24, intermediate_size: 4096, vocab_size: 30522, max_position_embeddings: 512 });
    const paths = writeModel(root, 'bert-large-sized', { ...tinyFiles(7), 'config.json': large });
    for (const [gb, want] of [[4, /^Your files were refused: `model`: needs about 1\.\d+ GiB of page memory for 512 tokens .* over this device's 1 GiB\./],
      // Under the 2 GiB limit the memory check passes and the next check refuses the tiny files.
      [8, /^Your files were refused: vocab\.txt has 16 pieces but config\.json's `vocab_size` is 30522\./]]) {
      const page = await browser.newPage();
      await page.addInitScript((g) => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => g }), gb);
      await page.goto(`${ATTN_URL}#${LINK}`);
      await analysed(page, MINILM);
      assert.match(await pick(page, paths), want, `deviceMemory ${gb}`);
      await page.close();
    }
  });

  test('without a served model (a dist without --with-model) the lab says so and loads picked files', { timeout: 300_000 }, async () => {
    const page = await browser.newPage();
    await page.route('**/models/**', (r) => r.fulfill({ status: 404, body: 'not found' }));
    await page.goto(`${ATTN_URL}#lab=model`);
    await page.waitForFunction(() => document.getElementById('md-error')?.textContent, null, { timeout: 60_000 });
    const msg = await page.evaluate(() => document.getElementById('md-error').textContent);
    assert.match(msg, /^The served model all-MiniLM-L6-v2 is not available \(config\.json: HTTP 404 for .*models\/all-MiniLM-L6-v2\/config\.json\)/);
    assert.match(msg, /cargo xtask dist --with-model/);
    assert.match(msg, /Load your own BERT's files with the picker/);
    assert.equal(await page.evaluate(() => document.getElementById('md-state').textContent), 'no model');
    assert.ok(await page.isVisible('#md-files'), 'the file picker is offered');
    const paths = writeModel(root, 'no-served', tinyFiles(9));
    await page.setInputFiles('#md-files', paths);
    await analysed(page, `tiny-bert@${sha256(paths[0]).slice(0, 16)}`);
    assert.equal(await page.evaluate(() => document.getElementById('md-error').textContent), '');
    await page.close();
  });

  test('a link naming a model that is not loaded says how to load it', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, `lab=model&model=bert-base-uncased@0123456789abcdef&text=${encodeURIComponent(TEXT)}`);
    await page.waitForFunction(() => /`model`/.test(document.getElementById('md-error').textContent), null, { timeout: 240_000 });
    const msg = await page.evaluate(() => document.getElementById('md-error').textContent);
    assert.match(msg, /bert-base-uncased@0123456789abcdef/);
    assert.match(msg, /53aa51172d142c89/);
    assert.match(msg, /load bert-base-uncased's files \(model\.safetensors, config\.json, vocab\.txt\) with "Load your own BERT"/);
    // A shared link of the tiny model: refused until its files are loaded, then it opens as sent.
    const paths = writeModel(root, 'shared', tinyFiles(11));
    const id = `tiny-bert@${sha256(paths[0]).slice(0, 16)}`;
    const shared = `lab=model&model=${id}&text=${encodeURIComponent('A lazy dog, a quick fox.')}&layer=2&head=1`;
    await page.evaluate((l) => { location.hash = l; }, shared);
    await page.waitForFunction((i) => document.getElementById('md-error').textContent.includes(`load tiny-bert's files`) && document.getElementById('md-error').textContent.includes(i), id, { timeout: 60_000 });
    await page.setInputFiles('#md-files', paths);
    await analysed(page, id);
    const s = await page.evaluate(() => ({ config: window.__attnModel.configString(), strip: document.getElementById('md-tokens').textContent, error: document.getElementById('md-error').textContent }));
    assert.match(s.config, new RegExp(`model=${id}&text=A%20lazy%20dog%2C%20a%20quick%20fox\\.&layer=2&head=1$`), 'the shared link opens as it was sent');
    assert.equal(s.strip, '[CLS]alazydog,aquickfox.[SEP]');
    assert.equal(s.error, '');
    assertNoErrors(page);
    await page.close();
  });
});

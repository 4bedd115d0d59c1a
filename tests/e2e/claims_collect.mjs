// Every sentence the page shows a reader about its runs, gathered from the tables that hold
// them: the core's key tables (a field's tooltip: meaning and effect), the presets' descriptions
// and one-line captions (wasm), the labs' caption tables (CAPTIONS in each lab's captions.js),
// the tours (each lab's tour.js) and the tooltips written in the page's modules (`title`
// literals in www/**/*.js). claims.test.mjs compares the list with claims.json.

import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WWW = fileURLToPath(new URL('../../www/', import.meta.url));
export const LABS = ['particles', 'training', 'depth', 'model'];

/** The sentences of the core's tables, the caption tables and the tours, read in `page` (any
 * lab's page: the wasm module and the modules load from the served www/). */
export function collectInPage(page) {
  return page.evaluate(async (labs) => {
    const w = window.__attn.wasm;
    const out = [];
    const add = (where, text) => {
      if (text) out.push({ where, text });
    };
    const presetLists = { particles: w.presets('particles'), training: w.presets('training'), depth: w.presets('depth') };
    for (const lab of labs) {
      for (const k of w.key_table(lab)) add(`${lab} key ${k.name}`, k.effect ? `${k.meaning}; ${k.effect}` : k.meaning);
      for (const p of presetLists[lab] ?? []) {
        add(`${lab} preset ${p.name}`, p.description);
        add(`${lab} preset ${p.name} caption`, w.check_link(`lab=${lab}&preset=${p.name}`).caption);
      }
      const { CAPTIONS } = await import(new URL(`${lab}/captions.js`, location.href).href);
      for (const [name, text] of Object.entries(CAPTIONS)) add(`${lab} caption ${name}`, text);
      const { TOUR } = await import(new URL(`${lab}/tour.js`, location.href).href);
      TOUR.cards.forEach((c, i) => add(`${lab} tour ${i + 1}`, c.text));
    }
    const { defaultLink } = await import(new URL('model/texts.js', location.href).href);
    add('model caption', w.check_link(defaultLink()).caption);
    return out;
  }, LABS);
}

/** The files of `dir` ending in `.js`, recursively (www/pkg and www/bundle, the build output, left
 * out). */
async function jsFiles(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'pkg' && e.name !== 'bundle') out.push(...(await jsFiles(path)));
    else if (e.isFile() && e.name.endsWith('.js')) out.push(path);
  }
  return out.sort();
}

/**
 * The tooltips the page's modules write: every quoted string on a line that sets a `title`
 * (`title: '…'` in markup, `el.title = … '…'`), by file. A template literal (a tooltip built from
 * values, such as a token's id) is a readout, not a sentence: left out.
 */
export async function collectTitles() {
  const out = [];
  for (const file of await jsFiles(WWW)) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    for (const line of lines) {
      const texts = [...line.matchAll(/\btitle:\s*'((?:\\.|[^'\\])*)'|\btitle:\s*"((?:\\.|[^"\\])*)"/g)].map((m) => m[1] ?? m[2]);
      const set = line.match(/\.title\s*=\s*([^;]*)/);
      if (set && !/\bh\(|`/.test(set[1])) texts.push(...[...set[1].matchAll(/'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"/g)].map((m) => m[1] ?? m[2]));
      for (const text of texts) out.push({ where: `tooltip ${relative(WWW, file)}`, text: text.replace(/\\(.)/g, '$1') });
    }
  }
  return out;
}

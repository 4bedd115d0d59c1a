// The model lab's own Export group: the enlarged head's attention P and context similarity
// S = O Oᵀ as CSV (a header row of the tokens, one row per token) or JSON (`attn encode`'s
// `{ layer, head, p }` / `{ layer, head, s }` with the link and the tokens). The numbers are the
// worker's f32, written by the wasm module as `attn encode --attention L,H` / `--similarity L,H`
// writes them (the shortest decimal that reads back to the same f32). The PNGs of the canvases,
// with the link inside, and the configuration JSON are the menu's own (export/menu.js).

import { download } from '../export/download.js';

/**
 * The group's buttons for the analysis `page` shows (none before the first); `wasm`: the lab's
 * module, which writes the files.
 * @param {AttnWasm} wasm
 * @param {{ result: object|null, head: { layer: number, head: number, p: Float32Array, s: Float32Array }|null, canonical: string }} page
 * @param {{ button: Function, group: Function, say: (text: string) => void }} menu
 */
export function matrixExports(wasm, page, menu) {
  const r = page.result;
  const hd = page.head;
  if (!r || !hd) return [];
  const stem = `attn-model-l${hd.layer}-h${hd.head}`;
  const save = (which, format) => {
    const values = which === 'p' ? hd.p : hd.s;
    const name = `${stem}-${which === 'p' ? 'attention' : 'similarity'}.${format}`;
    try {
      const text = format === 'csv'
        ? wasm.model_matrix_csv(which === 'p' ? 'P_ij (row i: query, column j: key)' : 'S_ij', r.tokens, values)
        : wasm.model_matrix_json(page.canonical, r.tokens, hd.layer, hd.head, which, values);
      download(new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/json' }), name);
      menu.say(`Saved ${name} (layer ${hd.layer}, head ${hd.head}, ${r.n} tokens).`);
    } catch (e) {
      menu.say(`Could not save ${name}: ${e.message}`);
    }
  };
  const what = `layer ${hd.layer}, head ${hd.head}`;
  return [menu.group(`Matrices of the enlarged head (${what})`,
    menu.button('Attention P CSV', () => save('p', 'csv'), `P of ${what}: a header row of the tokens, one row per query token`),
    menu.button('Attention P JSON', () => save('p', 'json'), `P of ${what} as attn encode --attention ${hd.layer},${hd.head}`),
    menu.button('Similarity S CSV', () => save('s', 'csv'), `S = O Oᵀ of ${what}: a header row of the tokens, one row per token`),
    menu.button('Similarity S JSON', () => save('s', 'json'), `S of ${what} as attn encode --similarity ${hd.layer},${hd.head}`),
  )];
}

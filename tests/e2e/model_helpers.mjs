// What the model lab's browser tests share: the served model's folder, the text and link they
// open, and the wait for the page's analysis.

import { homedir } from 'node:os';
import { join } from 'node:path';

/** The folder `cargo xtask fetch-model` fills (the CLI reads the same weights). */
export const MODEL_DIR = join(homedir(), '.cache/attn/models/all-MiniLM-L6-v2');
export const TEXT = 'The quick brown fox jumps over the lazy dog. The dog does not move. Later, the fox runs back into the forest.';
export const LINK = `lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=${encodeURIComponent(TEXT)}&layer=2&head=3`;

/** Waits until the page shows an analysis of link `config` (its canonical form), or any. */
export async function analysed(page, config = null) {
  await page.waitForFunction((c) => {
    const m = window.__attnModel;
    return m && m.result() && !m.busy() && (c === null || m.configString() === c);
  }, config, { timeout: 240_000 });
}

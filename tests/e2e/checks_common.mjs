// What the claim checks share: a link opened in a fresh page, read, and closed.

import { assertNoErrors, openPage } from './helpers.mjs';

/** Every link the checks opened, in order (the tour test empties it and reads it). */
export const opened = [];

/** Runs `read(page)` on `link` opened in a fresh page, then closes it (no page errors allowed). */
export async function on(browser, link, read) {
  opened.push(link);
  const page = await openPage(browser, link);
  try {
    const out = await read(page);
    assertNoErrors(page);
    return out;
  } finally {
    await page.close();
  }
}

/** The last element of an array. */
export const last = (a) => a[a.length - 1];

// Browser tests of the guided tour (opens with the focus on its card, ←/→, "Do it" opens the
// card's link as a history entry, Escape closes, a reload resumes the card, no animation under
// reduced motion; every card's sentence holds on the lab's own numbers at the moment it shows),
// the log sliders (a release is one history entry with a value of 2 significant digits; arrows
// step them), and alerts that do not move the canvases.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, launch, openPage } from './helpers.mjs';
import { analysed } from './model_helpers.mjs';
import { readFile } from 'node:fs/promises';
import { CHECKS } from './claim_checks.mjs';
import { opened } from './checks_common.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const hashKey = (page, key) => new URL(page.url()).hash.slice(1).split('&').find((p) => p.startsWith(`${key}=`))?.slice(key.length + 1) ?? null;
const historyLength = (page) => page.evaluate(() => history.length);
const focusedId = (page) => page.evaluate(() => document.activeElement?.id ?? '');
const cardCount = (page) => page.textContent('#tour .tour-count');
const highlighted = (page) => page.evaluate(() => [...document.querySelectorAll('.tour-target')].map((e) => e.className));
/** An element's box in page coordinates (a filled field scrolls the window; that is no move). */
const box = (page, sel) => page.evaluate((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
}, sel);

describe('tour', () => {
  test('particles: opens on its card, arrows move, Do it opens the link, reload resumes, Escape closes', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope&n=12');
    try {
      assert.equal(await page.isVisible('#tour'), false, 'the tour is opt-in');
      await page.click('#tour-open');
      await page.waitForSelector('#tour', { state: 'visible' });
      assert.equal(await focusedId(page), 'tour', 'the focus is on the card');
      assert.equal(await page.getAttribute('#tour', 'role'), 'dialog');
      const labelledBy = await page.getAttribute('#tour', 'aria-labelledby');
      assert.match(await page.textContent(`#${labelledBy}`), /Tour/, 'the dialog is named by its title');
      assert.equal(await cardCount(page), '1 / 6');
      assert.deepEqual((await highlighted(page)).map((c) => c.includes('tokens-panel')), [true], 'card 1 points at the tokens');

      const step = await page.evaluate(() => window.__attn.step());
      await page.click('#play'); // pause: the → key must not step the run while on the card
      await page.focus('#tour');
      const paused = await page.evaluate(() => window.__attn.step());
      await page.keyboard.press('ArrowRight');
      assert.equal(await cardCount(page), '2 / 6');
      assert.equal(await focusedId(page), 'tour', 'the focus stays on the card');
      assert.ok((await highlighted(page))[0].includes('heatmap-panel'), 'card 2 points at the heatmap');
      assert.equal(await page.evaluate(() => window.__attn.step()), paused, '→ on the card does not step the run');
      assert.ok(paused >= step);
      await page.keyboard.press('ArrowLeft');
      assert.equal(await cardCount(page), '1 / 6');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      assert.equal(await cardCount(page), '3 / 6');
      assert.match(await page.textContent('#tour-text'), /V = −I/);

      const entries = await historyLength(page);
      await page.click('#tour-do');
      await page.waitForFunction(() => location.hash.includes('preset=collapse'));
      assert.equal(await historyLength(page), entries + 1, 'Do it is one history entry');
      assert.match(await page.evaluate(() => window.__attn.configString()), /preset=collapse/, 'the run is the card’s');
      assert.equal(await page.inputValue('#preset'), 'collapse');
      assert.equal(await focusedId(page), 'tour', 'the focus is back on the card');

      await page.reload();
      await page.waitForFunction(() => window.__attnReady === true);
      await page.waitForSelector('#tour', { state: 'visible' });
      // The card's text is filled once the lab's tour has loaded (a module import after the card shows).
      await page.waitForFunction(() => document.querySelector('#tour .tour-count')?.textContent !== '');
      assert.equal(await cardCount(page), '3 / 6', 'a reload resumes the same card');
      assert.equal(await focusedId(page), 'tour');

      await page.keyboard.press('Escape');
      assert.equal(await page.isVisible('#tour'), false, 'Escape closes the tour');
      assert.equal(await focusedId(page), 'tour-open', 'the focus goes back to the Tour button');
      assert.deepEqual(await highlighted(page), [], 'no panel stays highlighted');
      await page.reload();
      await page.waitForFunction(() => window.__attnReady === true);
      assert.equal(await page.isVisible('#tour'), false, 'a closed tour stays closed after a reload');
      await page.click('#tour-open');
      // As after the reload above: the card's text is filled once the lab's tour module loads.
      await page.waitForFunction(() => document.querySelector('#tour .tour-count')?.textContent !== '');
      assert.equal(await cardCount(page), '3 / 6', 'Tour reopens at the card it was closed on');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('depth: its own tour; Do it sets the variants', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small');
    try {
      await page.click('#tour-open');
      await page.waitForSelector('#tour', { state: 'visible' });
      assert.match(await page.textContent('#tour-title'), /depth/i);
      assert.equal(await cardCount(page), '1 / 4');
      await page.keyboard.press('ArrowRight');
      await page.click('#tour-do');
      await page.waitForFunction(() => /[#&]variants=san(&|$)/.test(location.hash));
      assert.equal(await page.inputValue('#dp-variants'), 'san');
      await page.keyboard.press('Escape');
      assert.equal(await page.isVisible('#tour'), false);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('model: its own tour; Do it opens the head it names, highlighted panels', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, 'lab=model');
    try {
      await analysed(page);
      await page.click('#tour-open');
      await page.waitForSelector('#tour', { state: 'visible' });
      assert.match(await page.textContent('#tour-title'), /trained encoder/);
      assert.equal(await cardCount(page), '1 / 4');
      await page.keyboard.press('ArrowRight');
      assert.ok((await highlighted(page)).some((c) => c.includes('panel')), 'the grid panel is highlighted');
      await page.click('#tour-do');
      await page.waitForFunction(() => /[#&]layer=2&head=3(&|$)/.test(location.hash));
      await analysed(page);
      assert.match(await page.evaluate(() => window.__attnModel.configString()), /&layer=2&head=3$/);
      await page.keyboard.press('Escape');
      assert.equal(await page.isVisible('#tour'), false);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('reduced motion: the card does not animate', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    try {
      await page.goto(`${process.env.ATTN_URL || 'http://127.0.0.1:8080/'}#version=4&preset=polytope&n=12`);
      await page.waitForFunction(() => window.__attnReady === true);
      await page.click('#tour-open');
      await page.waitForSelector('#tour', { state: 'visible' });
      assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('tour')).animationName), 'none');
    } finally {
      await page.close();
    }
  });
});

describe('log sliders', () => {
  test('β: a drag applies on release as one history entry of 2 significant digits; arrows step it', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope&n=12');
    try {
      const slider = page.locator('.field:has(#cfg-beta) input.log-slider');
      assert.match(await slider.getAttribute('aria-label'), /log scale/);
      for (const key of ['dt', 'n', 'scale']) {
        assert.equal(await page.locator(`.field:has(#cfg-${key}) input.log-slider`).count(), 1, `${key} has a slider`);
      }
      const entries = await historyLength(page);
      const b = await slider.boundingBox();
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 6; i += 1) await page.mouse.move(b.x + b.width / 2 + (i * b.width * 0.3) / 6, b.y + b.height / 2);
      assert.equal(await historyLength(page), entries, 'dragging writes no history');
      assert.equal(hashKey(page, 'beta'), null, 'dragging applies nothing');
      await page.mouse.up();
      await page.waitForFunction(() => /[#&]beta=/.test(location.hash));
      assert.equal(await historyLength(page), entries + 1, 'the release is one history entry');
      const beta = hashKey(page, 'beta');
      assert.ok(Number(beta) > 1, `β grew (${beta})`);
      assert.equal(String(Number(Number(beta).toPrecision(2))), beta, `β = ${beta} has at most 2 significant digits`);
      assert.equal(await page.inputValue('#cfg-beta'), beta, 'the number field shows it');
      assert.match(await page.evaluate(() => window.__attn.configString()), new RegExp(`beta=${beta}(&|$)`), 'the run uses it');

      await slider.focus();
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction((b0) => !location.hash.includes(`beta=${b0}`), beta);
      const lower = hashKey(page, 'beta');
      assert.ok(lower === null || Number(lower) < Number(beta), `← lowered β (${beta} → ${lower})`);
      assert.equal(await historyLength(page), entries + 2, 'each arrow press is one entry');

      // Typed into the field, a precise value stays precise; the slider shows it rounded.
      await page.fill('#cfg-beta', '1.2345');
      await page.press('#cfg-beta', 'Enter');
      await page.waitForFunction(() => location.hash.includes('beta=1.2345'));
      assert.equal(await page.textContent('.field:has(#cfg-beta) .log-slider-out'), '1.2');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('training: η_Z and the ratio have sliders; a release is one entry', async () => {
    const page = await openPage(browser, 'lab=training&preset=scan-snap');
    try {
      const slider = page.locator('.field:has(#tr-ratio) input.log-slider');
      assert.equal(await page.locator('.field:has(#tr-eta_z) input.log-slider').count(), 1);
      const entries = await historyLength(page);
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => /[#&]ratio=2(&|$)/.test(location.hash));
      assert.equal(await historyLength(page), entries + 1);
      assert.equal(await page.inputValue('#tr-ratio'), '2');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});

describe('tour links', () => {
  test('every card shows its maths typeset: subscripts as <sub>, no raw _ or ^ markup', async () => {
    for (const lab of ['particles', 'training', 'depth', 'model']) {
      const page = await openPage(browser, lab === 'particles' ? 'version=7&preset=polytope&n=12' : `lab=${lab}`);
      try {
        await page.click('#tour-open');
        await page.waitForSelector('#tour', { state: 'visible' });
        const [, total] = (await cardCount(page)).split(' / ').map(Number);
        for (let i = 1; i <= total; i++) {
          const card = await page.$eval('#tour-text', (e) => ({ text: e.textContent, subs: [...e.querySelectorAll('sub')].map((s) => s.textContent) }));
          assert.doesNotMatch(card.text, /[_^]\{|[A-Za-zα-ω]_[A-Za-z0-9]/, `${lab} card ${i}: ${card.text}`);
          if (lab === 'training' && /learning-rate ratio/.test(card.text)) assert.deepEqual(card.subs, ['Y', 'Z'], card.text);
          if (i < total) {
            await page.focus('#tour');
            await page.keyboard.press('ArrowRight');
            assert.equal(await cardCount(page), `${i + 1} / ${total}`);
          }
        }
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    }
  });

  test('every card of every lab opens a link of the current version, valid as written', async () => {
    const page = await openPage(browser, '');
    try {
      const found = await page.evaluate(async () => {
        const w = window.__attn.wasm;
        const current = window.__attn.configString().split('&')[0];
        const out = [];
        for (const lab of ['particles', 'training', 'depth', 'model']) {
          const { TOUR } = await import(new URL(`${lab}/tour.js`, location.href).href);
          for (const c of TOUR.cards) {
            const res = w.check_link(c.link);
            out.push({ lab, link: c.link, ok: res.ok, canonical: res.ok ? res.link : res.message, current });
          }
        }
        return out;
      });
      assert.ok(found.length >= 16, `${found.length} cards`);
      for (const c of found) {
        assert.ok(c.ok, `${c.lab}: ${c.link} is refused: ${c.canonical}`);
        assert.equal(c.canonical.split('&')[0], c.current, `${c.lab}: ${c.link} opens ${c.canonical}, not the current ${c.current}`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});

describe('tour claims', () => {
  // Each card's sentence is in claims.json: plain (what a panel is) or a claim whose check opens
  // the card's link and reads the lab's numbers at the moment the card describes (its t=/step=,
  // else the run's end, which playing reaches).
  test('every card is listed, and each claim holds on the lab\'s numbers', { timeout: 3_600_000 }, async (t) => {
    const listed = JSON.parse(await readFile(new URL('./claims.json', import.meta.url), 'utf8')).sentences;
    const cards = [];
    for (const lab of ['particles', 'training', 'depth', 'model']) {
      const { TOUR } = await import(new URL(`../../www/${lab}/tour.js`, import.meta.url).href);
      TOUR.cards.forEach((c, i) => cards.push({ where: `${lab} tour ${i + 1}`, ...c }));
    }
    assert.equal(cards.length, 18, 'the four tours keep their 18 cards');
    for (const card of cards) {
      const entry = listed.find((s) => s.where === card.where && s.text === card.text);
      assert.ok(entry, `${card.where} is not in claims.json: ${card.text}`);
      if (entry.kind !== 'claim') continue;
      await t.test(`${card.where}: ${entry.check}`, { timeout: 600_000 }, async () => {
        opened.length = 0;
        const said = await CHECKS[entry.check].run(browser);
        // The check read the card's own run: its link, at a moment (t= or step=) of it.
        const run = (l) => decodeURIComponent(l).split('&').filter((p) => !/^(t|step)=/.test(p)).join('&');
        assert.ok(opened.some((l) => run(l) === run(card.link)), `${entry.check} did not open ${card.link}: ${opened}`);
        t.diagnostic(`${card.where}: ${said}`);
      });
    }
  });
});

describe('alerts', () => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    test(`a refused value's alert does not move the canvases (${viewport.width}x${viewport.height})`, async () => {
      const page = await openPage(browser, 'version=4&preset=polytope&n=12', { viewport });
      try {
        const sels = ['#tokens', '#heatmap', '#chart'];
        const before = await Promise.all(sels.map((s) => box(page, s)));
        await page.fill('#cfg-beta', '-3');
        await page.press('#cfg-beta', 'Enter');
        await page.waitForSelector('#config-error:not(:empty)', { state: 'visible' });
        assert.match(await page.textContent('#config-error'), /beta/);
        const afterBoxes = await Promise.all(sels.map((s) => box(page, s)));
        sels.forEach((s, i) => assert.deepEqual(afterBoxes[i], before[i], `${s} did not move`));
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });
  }
});

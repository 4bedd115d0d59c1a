// The guided tour of a lab: opt-in (the header's Tour button) and resumable. A lab's tour is a
// small data file (its folder's tour.js: `{ title, cards: [{ text, panel, link, doIt? }] }`):
// each card is one plain sentence, highlights one panel (a selector inside the lab's <main>)
// and has a "Do it" button that opens the card's link through the page's normal link path (a
// history entry, as a pasted link). The card is a non-modal dialog that overlays the page
// (position: fixed; the highlighted panel gets an outline, which takes no space), so nothing
// under it moves; focus moves to each card; Escape closes, ←/→ go back and forth. Which card
// each lab's tour is at, and whether it was open, is kept in localStorage, so a reload resumes.

import { h } from './dom.js';
import { setMath } from './math.js';

const STORE = 'attn-tour';

function readStore() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) ?? '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

function writeStore(v) {
  try {
    localStorage.setItem(STORE, JSON.stringify(v));
  } catch {
    // storage refused (private mode): the tour still works, without resuming
  }
}

const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

export class Tour {
  /**
   * @param {object} hooks
   * @param {HTMLButtonElement} hooks.button the header's Tour button
   * @param {() => { id: string, root: HTMLElement } | null} hooks.activeLab the lab shown
   * @param {(id: string) => Promise<{ title: string, cards: object[] } | null>} hooks.load a lab's tour
   * @param {(link: string) => Promise<void>} hooks.apply opens a link as a history entry
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.data = null;
    this.labId = null;
    this.index = 0;
    this.target = null;
    this.card = this.build();
    document.body.append(this.card);
    hooks.button.setAttribute('aria-haspopup', 'dialog');
    hooks.button.setAttribute('aria-expanded', 'false');
    hooks.button.addEventListener('click', () => (this.isOpen ? this.close() : this.open()));
    document.addEventListener('keydown', (e) => {
      if (this.isOpen && e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault();
        this.close();
      }
    });
  }

  get isOpen() {
    return !this.card.hidden;
  }

  build() {
    this.title = h('h2#tour-title.tour-title');
    this.count = h('span.tour-count');
    this.text = h('p#tour-text.tour-text');
    this.doIt = h('button#tour-do.tour-do', { type: 'button' }, 'Do it');
    this.back = /** @type {HTMLButtonElement} */ (h('button#tour-back', { type: 'button', 'aria-keyshortcuts': 'ArrowLeft' }, 'Back'));
    this.next = h('button#tour-next', { type: 'button', 'aria-keyshortcuts': 'ArrowRight' }, 'Next');
    const close = h('button#tour-close.tour-close', { type: 'button', 'aria-label': 'Close the tour', title: 'Close the tour (Escape); Tour resumes at this card' }, '×');
    const card = h('div#tour.tour-card', {
      role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'tour-title', 'aria-describedby': 'tour-text', tabindex: '-1', hidden: true,
    },
    h('div.tour-head', {}, this.title, close),
    this.text,
    h('div.tour-buttons', {}, this.doIt, h('span.tour-nav', {}, this.back, this.count, this.next)));
    this.doIt.addEventListener('click', () => this.apply());
    this.back.addEventListener('click', () => this.go(this.index - 1));
    this.next.addEventListener('click', () => (this.index + 1 < this.data.cards.length ? this.go(this.index + 1) : this.finish()));
    close.addEventListener('click', () => this.close());
    card.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'ArrowRight' && this.index + 1 < this.data.cards.length) this.go(this.index + 1);
      else if (e.key === 'ArrowLeft' && this.index > 0) this.go(this.index - 1);
      else return;
      e.preventDefault(); // not the page's → (step)
    });
    return card;
  }

  /** Opens the shown lab's tour at its remembered card. */
  async open() {
    const lab = this.hooks.activeLab();
    if (!lab) return;
    const data = await this.hooks.load(lab.id);
    if (!data || !data.cards.length) return;
    this.data = data;
    this.labId = lab.id;
    this.root = lab.root;
    const card = Number(readStore().cards?.[lab.id] ?? 0);
    this.card.hidden = false;
    this.card.classList.toggle('tour-animate', !reducedMotion());
    this.hooks.button.setAttribute('aria-expanded', 'true');
    this.save({ open: lab.id });
    this.go(Number.isInteger(card) && card >= 0 && card < data.cards.length ? card : 0);
  }

  /** Shows card `i`: its text, its panel highlighted and in view, the focus on the card. */
  go(i) {
    this.index = i;
    const c = this.data.cards[i];
    const n = this.data.cards.length;
    this.title.textContent = this.data.title;
    this.count.textContent = `${i + 1} / ${n}`;
    setMath(this.text, c.text); // η_{Y}: a subscript, as in the captions
    this.doIt.textContent = c.doIt ?? 'Do it';
    this.doIt.title = `Opens ${c.link} (a history entry: Back returns)`;
    this.back.disabled = i === 0;
    this.next.textContent = i + 1 < n ? 'Next' : 'Done';
    this.highlight(this.root.querySelector(c.panel));
    this.save({ cards: { ...(readStore().cards ?? {}), [this.labId]: i } });
    this.card.focus({ preventScroll: true });
  }

  highlight(el) {
    this.target?.classList.remove('tour-target');
    this.target = el;
    if (!el) return;
    el.classList.add('tour-target');
    // Scrolled to only when its top is out of sight (a panel taller than the window keeps the
    // page where it is when its heading shows).
    const top = el.getBoundingClientRect().top;
    if (top < 0 || top > innerHeight * 0.6) el.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
  }

  /** "Do it": the card's configuration, opened as a link is. */
  async apply() {
    const c = this.data.cards[this.index];
    await this.hooks.apply(c.link);
    this.highlight(this.root.querySelector(c.panel));
    this.card.focus({ preventScroll: true });
  }

  /** The last card's Done: closed, and the next Tour starts from the first card. */
  finish() {
    this.save({ cards: { ...(readStore().cards ?? {}), [this.labId]: 0 } });
    this.close();
  }

  /** Closes the tour (it resumes at this card); the focus goes back to the Tour button. */
  close() {
    if (!this.isOpen) return;
    this.card.hidden = true;
    this.highlight(null);
    this.hooks.button.setAttribute('aria-expanded', 'false');
    this.save({ open: null });
    this.hooks.button.focus();
  }

  /** Another lab is shown: an open tour of another lab closes. */
  labShown(id) {
    if (this.isOpen && this.labId !== id) this.close();
  }

  /** At start: reopens the tour when the page was left with it open on lab `id`. */
  resume(id) {
    if (document.documentElement.classList.contains('embed')) return; // an embed has no tour
    if (readStore().open === id) this.open();
  }

  save(part) {
    writeStore({ ...readStore(), ...part });
  }
}

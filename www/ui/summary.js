// A text summary of the run for screen readers (an aria-live="polite" region), updated at most
// about once per second and only when the text changes.

export class Summary {
  /** @param {HTMLElement} el */
  constructor(el, minIntervalMs = 1000) {
    this.el = el;
    this.min = minIntervalMs;
    this.last = 0;
    this.pending = null;
    this.timer = 0;
  }

  /** Offers the latest text; it is written when the interval allows. */
  offer(text) {
    if (text === this.el.textContent) return;
    this.pending = text;
    const now = performance.now();
    const wait = this.last + this.min - now;
    if (wait <= 0) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), wait);
  }

  flush() {
    this.timer = 0;
    if (this.pending === null) return;
    this.el.textContent = this.pending;
    this.pending = null;
    this.last = performance.now();
  }
}

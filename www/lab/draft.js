// The configuration being edited: ordered [key, value] pairs as the user wrote them (from a link
// or the fields). It may be invalid; the core's check decides (config_page.js), and only a valid
// draft replaces the running configuration.

import { joinConfig, splitConfig } from './pairs.js';

export class Draft {
  /** @param {Array<[string, string|undefined]>} pairs */
  constructor(pairs = []) {
    /** @type {Array<[string, string|undefined]>} */
    this.pairs = pairs.map(([k, v]) => [k, v]);
  }

  /** A draft from a configuration string (`key=value&...`, '#' optional). */
  static fromText(text) {
    return new Draft(splitConfig(text));
  }

  /** The value written for `key`, or undefined. */
  get(key) {
    const p = this.pairs.find(([k]) => k === key);
    return p ? p[1] : undefined;
  }

  has(key) {
    return this.pairs.some(([k]) => k === key);
  }

  /** Sets `key` (replacing every earlier occurrence). */
  set(key, value) {
    const i = this.pairs.findIndex(([k]) => k === key);
    if (i < 0) {
      this.pairs.push([key, String(value)]);
    } else {
      this.pairs[i] = [key, String(value)];
      this.pairs = this.pairs.filter(([k], j) => k !== key || j === i);
    }
    return this;
  }

  delete(key) {
    this.pairs = this.pairs.filter(([k]) => k !== key);
    return this;
  }

  clone() {
    return new Draft(this.pairs);
  }

  /** The configuration string. */
  text() {
    return joinConfig(this.pairs);
  }
}

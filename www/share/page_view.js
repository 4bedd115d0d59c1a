// The page's own view keys, shared by every lab (the core's view module): `theme`, `bg`,
// `panels`, `embed` and `controls`, and a link's moment (`t=` / `step=`, kept until the next committed
// change). A link's page keys are applied before its lab shows it (route); a lab's link is
// composed here from its configuration, its own view keys and, for labs whose link carries them,
// the page's (linkOf). In the full page an absent key means its default (Back and Forward restore
// it); an embedded view stays embedded and keeps its panels, controls and theme when a link does
// not name them (a host's setConfig, a PNG import).

import { setTheme } from '../render/palette.js';
import { concatLinks, joinPairs, withoutKeys } from '../lab/pairs.js';
import { neverPush, pageUrl } from '../lab/address_bar.js';
import { enterEmbed, pauseWhenHidden, showPanels } from './embed.js';

/** The view keys that only make sense embedded (dropped from the "full playground" link). */
export const EMBED_KEYS = ['embed', 'controls'];

export class PageView {
  /** @param {AttnPageWasm} wasm the attn_web module, initialised */
  constructor(wasm) {
    this.wasm = wasm;
    this.theme = 'auto';
    this.panels = null; // panel names shown (null: all)
    this.shownPanels = null; // the panels the last link named, in every lab (null: all)
    this.embed = false;
    this.controls = null; // controls of the embedded view (null: the lab's default)
    this.moment = null; // [key, value]: the link's t= or step=, until the next committed change
    this.embedded = null; // { setHref } once in embed mode (which lasts until the page reloads)
    this.watchers = []; // the share bars show the theme and panels (share_bar.js)
  }

  /** Calls `fn` whenever a link sets the page's view keys (theme, panels). */
  watch(fn) {
    this.watchers.push(fn);
  }

  /** The link of `lab`'s state, with `extra` view pairs and without `drop` keys. */
  linkOf(lab, { moment = this.moment, extra = [], drop = [] } = {}) {
    const pairs = [...lab.viewPairs()];
    if (lab.pageViewInLink) {
      if (this.theme !== 'auto') pairs.push(['theme', this.theme]);
      if (this.panels) pairs.push(['panels', this.panels.join(',')]);
      if (this.embed) pairs.push(['embed', '1']);
      if (this.controls) pairs.push(['controls', this.controls.join(',')]);
      if (moment) pairs.push(moment);
    }
    for (const [k, v] of extra) {
      const i = pairs.findIndex(([key]) => key === k);
      if (i >= 0) pairs[i] = [k, v];
      else pairs.push([k, v]);
    }
    const kept = pairs.filter(([k]) => !drop.includes(k));
    const canonical = lab.canonical();
    const res = this.wasm.check_link(concatLinks(canonical, joinPairs(kept)));
    if (!res.ok) {
      console.warn(`view keys refused (${res.key}: ${res.message}); the link keeps the configuration only`);
      return canonical;
    }
    return res.link;
  }

  /** `lab`'s link is about to be written: a committed change (`push`) drops the moment, unless
   * the change is a new moment (`moment`: a `[key, value]` pair, the timeline's position). */
  beforeWrite(how, moment) {
    if (moment !== undefined) this.moment = moment;
    else if (how === 'push') this.moment = null;
  }

  /** After `lab`'s link was written: the embed's "full playground" link follows it (a lab whose
   * link does not carry the page's view keys gets the theme and panels the embed shows). */
  written(lab) {
    if (!this.embedded) return;
    const extra = [];
    if (!lab.pageViewInLink) {
      if (this.theme !== 'auto') extra.push(['theme', this.theme]);
      if (this.shownPanels) extra.push(['panels', this.shownPanels.join(',')]);
    }
    const link = this.linkOf(lab, { extra, drop: EMBED_KEYS });
    this.embedded.setHref(`${pageUrl()}#${link}`);
    const res = this.wasm.check_link(link);
    if (res.ok) this.embedded.setCaption(res.caption);
  }

  /** The theme chosen in the page (share bar). */
  setTheme(name) {
    this.theme = name;
    setTheme(name);
  }

  /** The panels of `lab` chosen in the page (null: all). */
  setPanels(lab, names) {
    this.panels = names;
    showPanels(lab, names);
  }

  /** Applies the page-level view keys of link `text` to the page (before `lab` shows it);
   * `res`: the core's check of `text` (check_link). */
  route(text, lab, res = this.wasm.check_link(text)) {
    if (!res.ok) return;
    const v = res.view;
    const has = (key) => res.view_pairs.some(([k]) => k === key);
    const keep = this.embed;
    if (!keep || has('theme')) {
      this.theme = v.theme;
      setTheme(v.theme);
    }
    // bg=transparent: no page background (an embedding page shows through).
    if (!keep || has('bg')) document.documentElement.classList.toggle('bg-transparent', v.bg === 'transparent');
    this.moment = res.view_pairs.find(([k]) => k === 't' || k === 'step') ?? null;
    if (!keep || has('controls')) this.controls = has('controls') ? v.controls : null;
    if (!keep || has('panels')) {
      const panels = has('panels') ? v.panels : null;
      if (lab.pageViewInLink) this.panels = panels;
      this.shownPanels = panels;
      showPanels(lab, panels);
    }
    for (const fn of this.watchers) fn();
    if (v.embed && !this.embedded) {
      this.embed = true;
      neverPush();
      this.embedded = enterEmbed(lab, v.controls, has('panels'));
      this.embedded.setHref(`${pageUrl()}#${withoutKeys(res.link, EMBED_KEYS)}`);
      this.embedded.setCaption(res.caption);
      if (lab.pausesOffscreen) {
        pauseWhenHidden({ playing: () => lab.state()?.status === 'playing', play: () => lab.play(), pause: () => lab.pause() }, lab.root);
      }
    }
  }
}

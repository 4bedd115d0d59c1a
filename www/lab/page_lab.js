// The interface to the page (lab/labs.js says what each member does) of a lab whose page is one
// object: the training, depth and model labs. Every member delegates to the page object, created
// when the lab is mounted; a lab that steps has a run loop (`page.loop`, lab/run_loop.js) for
// play, pause, step and seekTo; one that does not (depth, model) ignores them and seekTo resolves
// at once. A lab whose bare link means a default (the model lab) gives `linkFor`.

import { presetOf } from './pairs.js';
import { mountShareBar } from '../share/share_bar.js';

/**
 * @param {{ id: string, title: string, defaultLink: string, wasm: AttnPageWasm, page?: object, linkChanged?: Function }} ctx the lab's context
 * @param {object} spec
 * @param {string} spec.lab the lab's name for check_link
 * @param {Record<string, string>} spec.panels the panels' selectors (lab/labs.js)
 * @param {Record<string, string>} spec.controls the controls' selectors (lab/labs.js)
 * @param {() => Node} spec.subtitle
 * @param {() => Node} spec.citation
 * @param {(root: HTMLElement) => void} spec.buildMarkup
 * @param {{ prefix: string, what: string }} spec.share the share bar's ids' prefix and what it copies
 * @param {(ctx: object) => { show(text: string, checked?: LinkCheck): void, hide(): void, canonical: string, viewPairs(): Array<[string, string]>, reset(): void, refuse(res: object, tail: string): void, loop?: object }} spec.createPage
 * @param {(root: HTMLElement, page: object) => void} [spec.mounted] after the page and its share bar exist
 * @param {(text: string) => string} [spec.linkFor] the link shown for `text` (lab/labs.js)
 * @param {string} [spec.stem] the exported files' names' stem for a lab without presets (else
 *   the lab's id and the preset)
 * @param {(page: object, menu: object) => Array<object>} [spec.exportGroups] the Export menu's
 *   groups beyond the configuration and PNGs (lab/labs.js `exports`)
 */
export function pageLab(ctx, spec) {
  let page = null;
  const loop = () => page?.loop ?? null;
  const lab = {
    id: ctx.id,
    title: ctx.title,
    defaultLink: ctx.defaultLink,
    root: null,
    panels: spec.panels,
    controls: spec.controls,
    pageViewInLink: false,
    pausesOffscreen: false,
    subtitle: spec.subtitle,
    citation: spec.citation,
    mount(root) {
      lab.root = root;
      spec.buildMarkup(root);
      page = spec.createPage(ctx);
      mountShareBar(ctx.page, lab, { linkChanged: ctx.linkChanged }, spec.share.prefix, spec.share.what);
      spec.mounted?.(root, page);
    },
    ...(spec.linkFor ? { linkFor: spec.linkFor } : {}),
    show: (text, checked) => (spec.linkFor ? page.show(spec.linkFor(text)) : page.show(text, checked)),
    hide: () => page.hide(),
    canonical: () => page.canonical,
    viewPairs: () => page.viewPairs(),
    play: () => loop()?.play(),
    pause: () => loop()?.pause(),
    togglePlay: () => loop()?.togglePlay(),
    step: () => loop()?.step(),
    reset: () => page.reset(),
    seekTo: async (step) => (loop() ? loop().seekTo(step) : 0),
    check: (text) => ctx.wasm.check_link(text, spec.lab),
    refuse: (res, tail) => page.refuse(res, tail),
    state: () => null,
    exports: (menu) => {
      const config = page.canonical || ctx.defaultLink;
      const stem = spec.stem ?? `${ctx.id}-${presetOf(config)}`;
      return spec.exportGroups ? { config, step: null, stem, groups: () => spec.exportGroups(page, menu) } : { config, step: null, stem };
    },
  };
  return lab;
}

// The page's labs: main.js's table (id -> title, lazy import, default link), each lab loaded,
// created and mounted once, on first use, in its own <main> (the tab panel its tab controls),
// and which lab is shown. Adding a lab is a folder whose lab.js exports createLab, and one entry
// in the table.
//
// A lab module exports `createLab(ctx)`, ctx = { wasm, id, title, defaultLink, linkChanged(how),
// canonicalOf(id) }, which returns the lab:
//
//   id, title, defaultLink   from the table
//   panels                   { name: selector } the panels `panels=` names (an element of each
//                            panel's section)
//   controls                 { name: selector } the controls `controls=` puts in an embed's bar
//   pageViewInLink           its link carries the page's view keys (theme, panels, embed,
//                            controls, a moment); else the link is its configuration and viewPairs
//   pausesOffscreen          embedded, it pauses while out of sight (share/embed.js)
//   root                     its <main> (set by mount)
//   mount(root)              builds and wires its markup in `root` (once, before the first show)
//   subtitle(), citation()   its header line and footer citation (nodes, or null)
//   linkFor(text)            (optional) the link shown for `text`, e.g. a bare link's default
//                            with `text`'s page view keys (main.js routes that link)
//   show(link, checked)      shows a link of this lab (valid or refused: the lab says which);
//                            `checked`: the core's check of the link (check_link), when the
//                            caller has it (main.js checks a link once per navigation)
//   hide()                   another lab is shown: no frames, the run is kept
//   canonical()              its configuration string ('' before the first)
//   viewPairs()              its view keys that differ from their defaults, as [key, value]
//   play(), pause(), togglePlay(), step(), reset(), seekTo(step)
//                            the run (a lab that does not step: play, pause and step do nothing,
//                            reset recomputes, seekTo resolves at once)
//   check(text), refuse(res, tail)
//                            checks a configuration as the lab applies it; shows a refusal
//   state()                  the run's state for the postMessage API (null if it has none)
//   exports(menu)            what the Export menu saves: { config, step, stem, groups }
//
// ctx.linkChanged(how, moment?) is the lab telling the page its link changed: 'push' (a committed
// change: a history entry), 'replace' (dragging, loading a link) or null (keep the address bar);
// `moment`, when given, is the link's new `t=` / `step=` pair (null: none), e.g. the position a
// timeline (lab/timeline.js) was moved to.

/**
 * What a lab is created with (`createLab(ctx)`): main.js's ctxOf plus the table's id, title and
 * default link.
 * @typedef {{ wasm: AttnPageWasm, page: object, id: string, title: string, defaultLink: string,
 *   linkChanged: (how: string|null, moment?: unknown) => void, canonicalOf: (id: string) => string }} LabContext
 */

/**
 * What a lab main.js marks `full` is created with: its wasm is the module with every lab
 * (pkg/attn_web_full.js).
 * @typedef {LabContext & { wasm: AttnWasm }} FullLabContext
 */

export class Labs {
  /**
   * @param {Record<string, { title: string, load: () => Promise<object>, defaultLink: string }>} table
   *   the first entry is the default lab (links naming no known lab, the page's first lab)
   * @param {(id: string) => object | Promise<object>} ctxOf what lab `id` is created with (a
   *   promise when its wasm module is still loading)
   */
  constructor(table, ctxOf) {
    this.table = table;
    this.ids = Object.keys(table);
    this.ctxOf = ctxOf;
    this.loading = new Map();
    this.mounted = new Map();
    this.activeId = null;
    for (const id of this.ids) this.root(id); // in the table's order
  }

  /** The table's id for a lab name (unknown names: the default lab). */
  idOf(name) {
    return Object.hasOwn(this.table, name) ? name : this.ids[0];
  }

  /** The root element of lab `id` (its tab panel), made when the page has none. */
  root(id) {
    let main = document.getElementById(`lab-${id}`);
    if (!main) {
      main = document.createElement('main');
      main.id = `lab-${id}`;
      main.setAttribute('role', 'tabpanel');
      main.setAttribute('aria-labelledby', `tab-${id}`);
      main.hidden = true;
      document.querySelector('footer').before(main);
    }
    return main;
  }

  /** Lab `id`, loaded and mounted (once). */
  get(id) {
    if (!this.loading.has(id)) {
      const entry = this.table[id];
      this.loading.set(id, Promise.all([entry.load(), this.ctxOf(id)]).then(([m, ctx]) => {
        const lab = m.createLab({ ...ctx, id, title: entry.title, defaultLink: entry.defaultLink });
        lab.mount(this.root(id));
        this.texts(id, lab);
        this.mounted.set(id, lab);
        return lab;
      }));
    }
    return this.loading.get(id);
  }

  /** The header line and footer citation of lab `id` (shown with the lab: `data-for-lab`). */
  texts(id, lab) {
    const place = (el, where) => {
      if (!el) return;
      el.dataset.forLab = id;
      el.hidden = this.activeId !== id;
      where.append(el);
    };
    place(lab.subtitle(), document.querySelector('header.top'));
    place(lab.citation(), document.getElementById('citations'));
  }

  /** Lab `id` if it is mounted, else null. */
  loaded(id) {
    return this.mounted.get(id) ?? null;
  }

  /** The lab shown (null before the first). */
  get active() {
    return this.activeId === null ? null : this.loaded(this.activeId);
  }

  /** Lab `id` becomes the one shown: the others stop. */
  show(id) {
    this.activeId = id;
    for (const [other, lab] of this.mounted) if (other !== id) lab.hide();
  }
}

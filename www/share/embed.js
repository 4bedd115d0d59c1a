// Panels and embed mode (the `panels`, `embed` and `controls` view keys).
//
// `panels=` hides the panels it does not name, in the full page and embedded. `embed=1` hides
// the page chrome (header, tabs, footer, side panels, share bar, captions, and what only a
// developer reads: steps/s, the model's hash) and moves the controls named by `controls=` into
// one bar above the panels, with the preset's caption (wrapped, never cut) and an "Open in the
// full playground" link.
// An embedded view pauses while scrolled off-screen (IntersectionObserver) or while its tab is
// hidden (visibilitychange) and resumes when visible again if it was playing; under
// prefers-reduced-motion it starts paused (the lab does that). Only DOM elements are moved or
// hidden: no text from a link is ever parsed as HTML.

/** The section of panel `name` of `lab` (an element inside it names it). */
function panelSection(lab, name) {
  const el = lab.root.querySelector(lab.panels[name]);
  return el ? el.closest('section') : null;
}

/**
 * Shows the panels of `lab` named in `names` (every panel when null) and hides the others.
 * @returns {number} the number of panels shown
 */
export function showPanels(lab, names) {
  let shown = 0;
  for (const name of Object.keys(lab.panels)) {
    const section = panelSection(lab, name);
    if (!section) continue;
    section.hidden = names !== null && !names.includes(name);
    if (!section.hidden) shown += 1;
    // Its rank among the panels shown: an embed that fits its frame drops the later ones first.
    if (section.hidden) delete section.dataset.rank;
    else section.dataset.rank = String(shown);
  }
  lab.root.setAttribute('data-panel-count', String(shown));
  // Four panels or more: the frame scrolls and each panel keeps its own height (share.css).
  lab.root.toggleAttribute('data-many-panels', shown >= 4);
  return shown;
}

/** The element moved into the embed bar for a control: a field's wrapper, or a button. */
function controlElement(lab, name) {
  const el = lab.controls[name] ? lab.root.querySelector(lab.controls[name]) : null;
  if (!el) return null;
  return el.tagName === 'BUTTON' ? el : el.closest('.field') || el;
}

/**
 * Enters embed mode for `lab` (once; leaving it reloads the page): chrome hidden, the controls of
 * `controls` in a bar with the link to the full playground.
 * @param {{ root: HTMLElement, controls: Record<string, string> }} lab
 * @param {string[]} controls the control names to show
 * @param {boolean} fit the link names its panels: the frame shows those that fit it, in order,
 *   and never scrolls (share.css `embed-fit`); every panel (no `panels=`) stacks and scrolls
 *   when the frame is narrow
 * @returns {{ setHref: (href: string) => void, setCaption: (text: string) => void }}
 */
export function enterEmbed(lab, controls, fit) {
  const root = document.documentElement;
  root.classList.add('embed');
  root.classList.toggle('embed-fit', fit);
  root.classList.toggle('embed-view', controls.includes('view'));
  const bar = document.createElement('div');
  bar.className = 'embed-bar';
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', 'Embedded view controls');
  // The preset's one-line caption (core LabPreset::caption, from check_link): what the view shows.
  const caption = document.createElement('span');
  caption.className = 'embed-caption';
  bar.append(caption);
  for (const name of controls) {
    const el = controlElement(lab, name);
    if (el) bar.append(el);
  }
  const open = document.createElement('a');
  open.className = 'embed-open';
  open.target = '_blank';
  open.rel = 'noopener';
  open.textContent = 'Open in the full playground ↗';
  bar.append(open);
  const status = lab.root.querySelector('.status-area');
  if (status) status.prepend(bar);
  // Fitting its frame, the embed keeps its chrome to a few rows: the status line joins the bar.
  const line = fit ? status?.querySelector('.status-line') : null;
  if (line) bar.insertBefore(line, open);
  return {
    setHref(href) {
      open.href = href;
    },
    setCaption(text) {
      caption.textContent = text;
    },
  };
}

/**
 * Pauses the run while the page is off-screen or its tab hidden, and resumes it when visible
 * again if it was playing then.
 * @param {{ playing: () => boolean, play: () => void, pause: () => void }} run
 * @param {Element} target the element whose visibility counts (the lab's main)
 */
export function pauseWhenHidden(run, target) {
  let onScreen = true;
  let resume = false; // it was playing when it went out of sight
  const update = () => {
    const visible = onScreen && document.visibilityState !== 'hidden';
    if (!visible && run.playing()) {
      resume = true;
      run.pause();
    } else if (visible && resume) {
      resume = false;
      run.play();
    }
  };
  if ('IntersectionObserver' in window) {
    new IntersectionObserver((entries) => {
      onScreen = entries.some((e) => e.isIntersecting);
      update();
    }).observe(target);
  }
  document.addEventListener('visibilitychange', update);
  return {
    /** Whether the view is paused because it is out of sight (and will resume). */
    waiting: () => resume,
  };
}

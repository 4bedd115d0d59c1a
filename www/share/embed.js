// Panels and embed mode (the `panels`, `embed` and `controls` view keys).
//
// `panels=` hides the panels it does not name, in the full page and embedded. `embed=1` hides
// the page chrome (header, tabs, footer, side panels, share bar, captions) and moves the controls
// named by `controls=` into one bar above the panels, with an "Open in the full playground" link.
// An embedded view pauses while scrolled off-screen (IntersectionObserver) or while its tab is
// hidden (visibilitychange) and resumes when visible again if it was playing; under
// prefers-reduced-motion it starts paused (the lab does that). Only DOM elements are moved or
// hidden: no text from a link is ever parsed as HTML.

const $ = (id) => document.getElementById(id);

/** Per lab: its main element, each panel's section, and each control's element. */
export const LAB_DOM = {
  particles: {
    main: 'lab-particles',
    panels: { tokens: '.tokens-panel', heatmap: '.heatmap-panel', chart: '.chart-panel' },
    controls: {
      play: '#play', step: '#step', reset: '#reset', seed: '#new-seed',
      speed: '#speed', preset: '#preset',
      n: '#cfg-n', d: '#cfg-d', beta: '#cfg-beta', dt: '#cfg-dt', until: '#cfg-until',
      model: '#cfg-model', integrator: '#cfg-integrator',
    },
  },
  training: {
    main: 'lab-training',
    panels: { heatmap: '.cn-panel', chart: '.tchart-panel', sweep: '.sweep-panel' },
    controls: {
      play: '#tr-play', step: '#tr-step', reset: '#tr-reset', seed: '#tr-new-seed',
      speed: '#tr-speed', preset: '#tr-preset',
      eta_z: '#tr-eta_z', ratio: '#tr-ratio', momentum: '#tr-momentum', iterations: '#tr-iterations',
    },
  },
  depth: {
    main: 'lab-depth',
    panels: {
      residual: '#dp-res-heading', similarity: '#dp-grid-heading', histogram: '#dp-hist-heading',
      same_sentence: '#dp-same-heading', paths: '#dp-paths-heading', spectrum: '#dp-sv-heading',
    },
    controls: {
      preset: '#dp-preset', recompute: '#dp-run', seed: '#dp-new-seed',
      layers: '#dp-layers', heads: '#dp-heads', tokens: '#dp-tokens', variants: '#dp-variants',
    },
  },
};

/** The section of panel `name` of lab `lab` (a heading selector names its section). */
function panelSection(lab, name) {
  const el = document.querySelector(LAB_DOM[lab].panels[name]);
  return el ? el.closest('section') : null;
}

/**
 * Shows the panels of lab `lab` named in `names` (every panel when null) and hides the others.
 * @returns {number} the number of panels shown
 */
export function showPanels(lab, names) {
  const dom = LAB_DOM[lab];
  if (!dom) return 0;
  let shown = 0;
  for (const name of Object.keys(dom.panels)) {
    const section = panelSection(lab, name);
    if (!section) continue;
    section.hidden = names !== null && !names.includes(name);
    if (!section.hidden) shown += 1;
  }
  $(dom.main)?.setAttribute('data-panel-count', String(shown));
  return shown;
}

/** The element moved into the embed bar for a control: a field's wrapper, or a button. */
function controlElement(lab, name) {
  const el = document.querySelector(LAB_DOM[lab].controls[name] || '#none');
  if (!el) return null;
  return el.tagName === 'BUTTON' ? el : el.closest('.field') || el;
}

/**
 * Enters embed mode for lab `lab` (once; leaving it reloads the page): chrome hidden, the
 * controls of `controls` in a bar with the link to the full playground.
 * @param {string} lab
 * @param {string[]} controls the control names to show
 * @returns {{ setHref: (href: string) => void }}
 */
export function enterEmbed(lab, controls) {
  const root = document.documentElement;
  root.classList.add('embed');
  root.classList.toggle('embed-view', controls.includes('view'));
  const main = $(LAB_DOM[lab]?.main);
  const bar = document.createElement('div');
  bar.className = 'embed-bar';
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', 'Embedded view controls');
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
  const status = main?.querySelector('.status-area');
  if (status) status.prepend(bar);
  return {
    setHref(href) {
      open.href = href;
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

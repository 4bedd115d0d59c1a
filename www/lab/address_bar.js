// The address bar: the one module that writes `location` or `history`. The hash holds the link
// of the lab shown; a change is written as a new history entry ('push', a committed change) or
// in place ('replace', dragging a slider, loading a link). An embedded page (embed=1) only ever
// replaces its entry: its frame's history is its host's. Back and Forward (and a hash typed by
// hand) reach the page as navigations (onNavigate), which show that entry without writing.

let replaceOnly = false;

/** From now on every write replaces the current entry (the page is embedded). */
export function neverPush() {
  replaceOnly = true;
}

/** The link in the address bar's hash (without '#'). */
export function readHash() {
  return location.hash.replace(/^#/, '');
}

/**
 * Writes `text` into the hash: a new history entry (`how` 'push', unless the page is embedded)
 * or in place ('replace'); nothing when the hash already holds it.
 */
export function writeLink(text, how) {
  if (readHash() === text) return;
  const url = new URL(location.href);
  url.hash = text;
  if (how === 'push' && !replaceOnly) history.pushState(history.state, '', url.href);
  else history.replaceState(history.state, '', url.href);
}

/** The page's address without its hash. */
export function pageUrl() {
  const url = new URL(location.href);
  url.hash = '';
  return url.href.replace(/#$/, '');
}

/** Calls `fn(link)` when the hash changes from outside the page (Back, Forward, typed). */
export function onNavigate(fn) {
  window.addEventListener('hashchange', () => fn(readHash()));
}

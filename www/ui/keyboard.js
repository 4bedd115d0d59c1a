// Keyboard shortcuts of the lab shown: Space play/pause, ArrowRight step, R reset. Ignored while
// typing in a field; Space on a focused button is left to the button (it activates it), and a
// button clicked with the pointer gives the focus back to the page.

function typing(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]'));
}

/**
 * @param {{ togglePlay: () => void, step: () => void, reset: () => void }} actions
 */
export function bindKeys(actions) {
  // A button clicked with the pointer gives focus back to the page, so the keyboard shortcuts
  // (Space play/pause) work next; keyboard activation (detail 0) keeps the focus where it is.
  document.addEventListener('click', (e) => {
    const b = e.target instanceof Element ? e.target.closest('button') : null;
    if (b && e.detail > 0) b.blur();
  });
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    const onButton = e.target instanceof Element && e.target.closest('button, [role="button"], a[href]');
    if (e.key === ' ' || e.code === 'Space') {
      if (onButton) return;
      e.preventDefault();
      actions.togglePlay();
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      actions.step();
    } else if (e.key === 'r' || e.key === 'R') {
      e.preventDefault();
      actions.reset();
    }
  });
}

// A field's hint where a `title` tooltip cannot appear: a finger has no hover and a keyboard's
// focus shows no tooltip. When a control that carries a hint (its `title`, written from the key
// tables by key_hints.js, or a button's or preset's) receives the keyboard's focus or a tap, the
// hint shows in one bubble under it (`#hint-bubble`, `role="tooltip"`, tied by
// `aria-describedby`); moving the focus away, a tap elsewhere or Escape hides it. A mouse keeps
// the browser's own tooltip.

const GAP = 6; // CSS px between the control and the bubble

/** The element whose hint a tap or focus on `target` shows, or null. */
function hinted(target) {
  if (!(target instanceof Element)) return null;
  const el = /** @type {HTMLElement|null} */ (target.closest('[title]'));
  if (!el || !el.title || el.closest('#hint-bubble')) return null;
  return el;
}

/** Installs the bubble once for the whole page. */
export function setupHintBubble() {
  const bubble = document.createElement('div');
  bubble.id = 'hint-bubble';
  bubble.className = 'hint-bubble';
  bubble.setAttribute('role', 'tooltip');
  bubble.hidden = true;
  document.body.append(bubble);
  let owner = null;
  let lastPointer = '';

  const hide = () => {
    if (owner) owner.removeAttribute('aria-describedby');
    owner = null;
    bubble.hidden = true;
  };
  const show = (el) => {
    owner = el;
    bubble.textContent = el.title;
    el.setAttribute('aria-describedby', 'hint-bubble');
    bubble.hidden = false;
    const r = el.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    bubble.style.maxWidth = `${Math.max(160, Math.min(360, vw - 16))}px`;
    const w = bubble.offsetWidth;
    const left = Math.min(Math.max(8, r.left), Math.max(8, vw - w - 8));
    bubble.style.left = `${left + window.scrollX}px`;
    bubble.style.top = `${r.bottom + GAP + window.scrollY}px`;
  };

  document.addEventListener('pointerdown', (e) => {
    lastPointer = e.pointerType;
    const el = hinted(e.target);
    if (e.pointerType === 'touch' && el) show(el);
    else if (owner && !(owner.contains(e.target))) hide();
  }, true);
  document.addEventListener('focusin', (e) => {
    const el = hinted(e.target);
    if (!el) return hide();
    // The keyboard's focus, or a tap that focused a field (its label's tap included).
    if ((e.target instanceof Element && e.target.matches(':focus-visible')) || lastPointer === 'touch') show(el);
  });
  document.addEventListener('focusout', (e) => {
    if (owner && (e.target === owner || owner.contains(e.target))) hide();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && owner && !e.defaultPrevented) {
      e.preventDefault();
      hide();
    }
  });
  window.addEventListener('resize', hide);
}

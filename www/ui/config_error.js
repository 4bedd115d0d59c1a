// The "Not applied" message of a refused configuration (each lab's *config-error alert box).

/** Shows the core's refusal `res` ({key, message}) in `box`, followed by `tail`; plain text only. */
export function showRefusal(box, res, tail) {
  const lead = document.createElement('strong');
  lead.textContent = 'Not applied. ';
  const key = document.createElement('code');
  key.className = 'key';
  key.textContent = res.key;
  const msg = String(res.message);
  box.replaceChildren(lead, key, document.createTextNode(`: ${msg}${/[.!?]$/.test(msg) ? '' : '.'} ${tail}`));
}

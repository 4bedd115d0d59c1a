// Hover tooltips (the labs' `.tip` boxes): fill with lines of text and place next to the pointer.

/** Shows `tip` beside the pointer at (x, y), flipped to the left when it would pass width `w`. */
export function placeTip(tip, x, y, w) {
  tip.hidden = false;
  const width = tip.offsetWidth;
  const left = x + 14 + width > w ? Math.max(0, x - 14 - width) : x + 14;
  tip.style.left = `${left}px`;
  tip.style.top = `${Math.max(0, y + 14)}px`;
}

/** Replaces the tip's content by one line (a div, plain text) per string. */
export function tipLines(tip, lines) {
  tip.replaceChildren(...lines.map((text) => {
    const div = document.createElement('div');
    div.textContent = text;
    return div;
  }));
}

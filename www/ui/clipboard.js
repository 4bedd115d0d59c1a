// Copying a link or a snippet: the clipboard API where the page may use it (a secure context),
// else the text selected in its read-only field and the browser's copy command, else a hint to
// press Ctrl+C. Shared by the share bar (share/share_bar.js) and the model lab's share row.

/**
 * Copies `text`, shown in `field` (a read-only input), and returns one sentence saying what
 * happened (`what`: "Link", "Embed code", ...).
 * @param {HTMLInputElement} field
 * @param {string} text
 * @param {string} what
 * @returns {Promise<string>}
 */
export async function copyText(field, text, what) {
  field.value = text;
  try {
    if (!navigator.clipboard || !window.isSecureContext) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    return `${what} copied to the clipboard.`;
  } catch {
    field.focus();
    field.select();
    let done = false;
    try {
      done = document.execCommand('copy');
    } catch {
      done = false;
    }
    return done ? `${what} copied (selected above).` : `Press Ctrl+C (⌘C) to copy the selected ${what.toLowerCase()}.`;
  }
}

// Saving a file from the page: a Blob, an object URL and a temporary <a download> (no server,
// no data: URL). The URL is revoked once the browser has taken the file.

/** The last file offered (name, MIME type, size in bytes), for the page's tests. */
let last = null;

/** Offers `blob` as a download named `name`. */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  last = { name, type: blob.type, size: blob.size };
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The last file offered by `download`, or null. */
export function lastDownload() {
  return last;
}

/** A file-name-safe slug of `text` (letters, digits, '-'; at most 60 characters). */
export function slug(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'export';
}

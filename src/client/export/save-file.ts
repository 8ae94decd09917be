/** How long the file's object URL lives: the browser may read it after the click returns. */
const REVOKE_AFTER_MS = 40_000;

/** Hands a file to the browser as a download named `fileName` (the CSV export, the statements). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

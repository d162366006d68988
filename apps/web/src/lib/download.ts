/**
 * Offers `text` as a file download made in the browser (a Blob link, no server round trip),
 * e.g. a CSV template.
 */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL is released once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves `blob` as a file named `fileName` through a hidden link (the browser's download). */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
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

/**
 * Offers `text` as a file download made in the browser (a Blob link, no server round trip),
 * e.g. a CSV template.
 */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob([text], { type }), fileName);
}

/** The file name a `Content-Disposition` header gives, or `fallback`. */
export function attachmentName(header: string | null, fallback: string): string {
  const match = header && /filename="?([^";]+)"?/i.exec(header);
  return match ? match[1]!.trim() : fallback;
}

/** Saves a fetched file (an export) under the name the server gave it; answers that name. */
export async function saveResponse(response: Response, fallback: string): Promise<string> {
  const name = attachmentName(response.headers.get('content-disposition'), fallback);
  saveBlob(await response.blob(), name);
  return name;
}

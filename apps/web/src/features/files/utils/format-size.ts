const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** A size as the lists show it (fleet §9): '512 Bytes', '1.5 KB', '9.54 MB', '2 GB' (1 KB = 1024 Bytes). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const power = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** power;
  return `${power === 0 ? value : Number(value.toFixed(2))} ${UNITS[power]}`;
}

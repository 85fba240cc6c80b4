/**
 * Byte counts as people read download sizes: "0 kB", "<1 kB", "340 kB", "3.4 MB", "1.25 GB"
 * (decimal SI units). One formatter for the backend's messages and the renderer's figures, so a
 * size never reads differently in two places of one screen.
 */
export function bytesText(bytes: number): string {
  if (bytes > 0 && bytes < 500) return '<1 kB';
  if (bytes < 999_500) return `${Math.round(bytes / 1000)} kB`;
  if (bytes < 999_500_000) {
    const mb = bytes / 1_000_000;
    return `${mb < 9.95 ? mb.toFixed(1) : Math.round(mb)} MB`;
  }
  return `${(bytes / 1_000_000_000).toFixed(2)} GB`;
}

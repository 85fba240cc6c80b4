/**
 * The daily table of figures (shared/daily-figures, as the app's screen shows it) split into
 * tables narrow enough for an A4 page.
 */

/**
 * The columns split into tables of at most `max` columns, as even as can be, preferring to split
 * where the period changes ("LAeq,evening" | "LAeq,night"): indices into `labels` per table.
 */
export function splitColumns(labels: readonly string[], max: number): number[][] {
  const indices = labels.map((_, i) => i);
  const kind = (label: string) => label.slice(label.lastIndexOf(',') + 1).trim();
  const parts: number[][] = [];
  let rest = indices;
  while (rest.length > max) {
    const tables = Math.ceil(rest.length / max);
    const target = rest.length / tables;
    let best = max;
    let bestScore = Infinity;
    for (let cut = Math.max(1, rest.length - (tables - 1) * max); cut <= max; cut++) {
      const boundary = kind(labels[rest[cut - 1]!]!) !== kind(labels[rest[cut]!]!);
      const score = Math.abs(cut - target) + (boundary ? 0 : 1.5);
      if (score < bestScore) [best, bestScore] = [cut, score];
    }
    parts.push(rest.slice(0, best));
    rest = rest.slice(best);
  }
  parts.push(rest);
  return parts;
}

/** Counted nouns in English, the one way every screen writes them. */

/** "1 instrument", "3 instruments", "1,250 readings", "12 entries" (`plural` for the irregular ones). */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? noun : plural}`;
}

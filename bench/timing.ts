/** Timing helpers the benchmarks share. */
import { performance } from 'node:perf_hooks';

/** The middle of the timings (ms): one slow round on a busy machine does not move it. */
export function middleOf(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median time (ms) of `rounds` timed runs after `warmup` untimed ones. */
export async function medianMs(run: () => unknown, rounds = 30, warmup = 5): Promise<number> {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return middleOf(times);
}

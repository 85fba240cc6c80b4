/**
 * Audio downloads: a 256 MiB body from a loopback server (in a process of its own, so neither its
 * work nor its memory is counted here) to a file, as the download manager does it — a `.part` file,
 * progress events, the row in SQLite, the size check, the bytes flushed to the disk, the rename and
 * the library entry — against the least any client does: `fetch` with the body piped to a file.
 *
 * - Throughput: MB/s of each, and the subject's time as a ratio of the baseline's (rounds
 *   alternate, so a busy machine slows both alike). A third line pipes to a file with `flush` as
 *   the manager does, to show how much of the difference is the disk's, not the code's.
 * - Memory: the peak growth of RSS and of the JS heap during one download of each, sampled every
 *   10 ms: a download must stream, not hold the body.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import type { DownloadSnapshot, Recording } from '../src/shared/audio';
import { createAudioRecords } from '../src/main/backend/audio/audio-records';
import { createDownloadManager } from '../src/main/backend/audio/download-manager';
import { createAudioLibrary } from '../src/main/backend/audio/library';
import { openDatabase } from '../src/main/backend/core/database';
import { middleOf } from './timing';

const SIZE = 256 * 1024 * 1024;
const ROUNDS = 7;

const mbPerSecond = (ms: number) => `${(SIZE / 1_048_576 / (ms / 1000)).toFixed(0)} MB/s`;
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * The body server: SIZE bytes of a repeated 1 MiB random block (incompressible, like audio, without
 * holding SIZE in memory), `Content-Length`, `Accept-Ranges: bytes`, ranges honoured.
 */
const SERVER_SOURCE = `
const { createServer } = require('node:http');
const { randomBytes } = require('node:crypto');
const SIZE = ${SIZE};
const block = randomBytes(1024 * 1024);
const server = createServer(async (req, res) => {
  const match = /^bytes=(\\d+)-$/.exec(req.headers.range || '');
  const from = match ? Number(match[1]) : 0;
  const headers = { 'Content-Type': 'application/octet-stream', 'Accept-Ranges': 'bytes', 'Content-Length': String(SIZE - from) };
  if (match) res.writeHead(206, { ...headers, 'Content-Range': 'bytes ' + from + '-' + (SIZE - 1) + '/' + SIZE });
  else res.writeHead(200, headers);
  let at = from;
  while (at < SIZE && !res.destroyed) {
    const offset = at % block.length;
    const chunk = block.subarray(offset, Math.min(block.length, offset + SIZE - at));
    at += chunk.length;
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startBodyServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', SERVER_SOURCE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url: `http://127.0.0.1:${line.trim()}/v1`, child };
}

/** Runs `work`, sampling memory meanwhile; the time (ms) and the peak growth of RSS and heap. */
async function measured(work: () => Promise<void>): Promise<{ ms: number; rss: number; heap: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed);
  }, 10);
  const start = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - start;
  const after = process.memoryUsage();
  return {
    ms,
    rss: Math.max(rss, after.rss) - before.rss,
    heap: Math.max(heap, after.heapUsed) - before.heapUsed,
  };
}

export async function benchAudio(): Promise<void> {
  const { url, child } = await startBodyServer();
  const dir = mkdtempSync(join(tmpdir(), 'fielddesk-bench-audio-'));
  const database = openDatabase(join(dir, 'db'));
  try {
    const records = createAudioRecords(database.db);
    const library = createAudioLibrary(() => records, join(dir, 'library'));
    let progressEvents = 0;
    const waiting = new Map<string, (snapshot: DownloadSnapshot) => void>();
    const manager = createDownloadManager({
      records: () => records,
      library,
      serviceFor: async () => ({ baseUrl: url, apiKey: 'bench' }),
      emit: (snapshot) => {
        progressEvents++;
        if (snapshot.state === 'done' || snapshot.state === 'failed') waiting.get(snapshot.id)?.(snapshot);
      },
    });

    const plainFile = join(dir, 'plain.bin');
    const baseline = async (flush = false) => {
      const response = await fetch(`${url}/data/audio/plain`);
      if (response.body === null) throw new Error('no body');
      await pipeline(response.body, createWriteStream(plainFile, flush ? { flush: true } : {}));
      await rm(plainFile);
    };
    let round = 0;
    const subject = async () => {
      round++;
      const recording: Recording = {
        id: `bench-${round}`,
        source: 'recording',
        serial: 'QT900001',
        start: Date.UTC(2026, 10, 1) + round * 60_000,
        end: Date.UTC(2026, 10, 1) + round * 60_000 + 30_000,
        triggerStart: null,
        triggerEnd: null,
        triggerName: 'Bench',
      };
      const finished = new Promise<DownloadSnapshot>((resolve) => {
        const [queued] = manager.enqueue('bench', [recording], 'WAV');
        waiting.set(queued!.id, resolve);
      });
      const done = await finished;
      if (done.state !== 'done' || done.bytes !== SIZE)
        throw new Error(`the bench download ended ${done.state}`);
      const item = library.item(done.key);
      if (item !== null) await library.remove(item.key);
    };

    // One of each first (warm-up), then alternating rounds.
    await baseline();
    await subject();
    const baselineRuns: Array<Awaited<ReturnType<typeof measured>>> = [];
    const flushRuns: Array<Awaited<ReturnType<typeof measured>>> = [];
    const subjectRuns: Array<Awaited<ReturnType<typeof measured>>> = [];
    const eventsBefore = progressEvents;
    for (let i = 0; i < ROUNDS; i++) {
      baselineRuns.push(await measured(() => baseline()));
      subjectRuns.push(await measured(subject));
      flushRuns.push(await measured(() => baseline(true)));
    }
    await manager.close();
    const eventsPerDownload = (progressEvents - eventsBefore) / ROUNDS;

    type Runs = typeof baselineRuns;
    const median = (runs: Runs) => middleOf(runs.map((r) => r.ms));
    // Peaks move with when the garbage collector runs: the middle one says more than the highest.
    const memory = (runs: Runs) =>
      `RSS ${mb(middleOf(runs.map((r) => r.rss)))} (highest ${mb(Math.max(...runs.map((r) => r.rss)))}), ` +
      `heap ${mb(middleOf(runs.map((r) => r.heap)))}`;
    const baselineMs = median(baselineRuns);
    const subjectMs = median(subjectRuns);
    const flushMs = median(flushRuns);

    console.log(
      `\nAudio download: a ${SIZE / 1_048_576} MiB body from a loopback server (its own process) to a file, median of ${ROUNDS}`,
    );
    console.log(`  baseline   fetch, body piped to a file: ${mbPerSecond(baselineMs)} (1.00x)`);
    console.log(
      `  subject    download manager (.part, progress, SQLite row, size check, flush, rename, library): ` +
        `${mbPerSecond(subjectMs)} (${(subjectMs / baselineMs).toFixed(2)}x the baseline's time)`,
    );
    console.log(
      `  reference  fetch piped to a file with flush: ${mbPerSecond(flushMs)} ` +
        `(${(flushMs / baselineMs).toFixed(2)}x; what flushing to the disk alone adds)`,
    );
    console.log(`  peak memory growth during one download (the body is ${SIZE / 1_048_576} MiB):`);
    console.log(`    baseline   ${memory(baselineRuns)}`);
    console.log(`    subject    ${memory(subjectRuns)}`);
    console.log(`    reference  ${memory(flushRuns)}`);
    console.log(
      `  progress events per download: ${eventsPerDownload.toFixed(0)} (at most 4 a second, and each change of state)`,
    );
  } finally {
    database.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

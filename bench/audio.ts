/**
 * Audio downloads: a long recording of the demo service (WAV of at least 200 MiB, on loopback, in a
 * process of its own, so neither its work nor its memory is counted here) to a file, as the
 * download manager does it — a `.part` file, progress events, the row in SQLite, the size check,
 * the bytes flushed to the disk, the rename and the library entry — against the least any client
 * does: `fetch` of the same answer with the body piped to a file.
 *
 * - Throughput: MB/s of each, and the subject's time as a ratio of the baseline's (rounds
 *   alternate, so a busy machine slows both alike). A third line pipes to a file with `flush` as
 *   the manager does, to show how much of the difference is the disk's, not the code's.
 * - Memory: the peak growth of RSS and of the JS heap during one download of each, sampled every
 *   10 ms: a download must stream, not hold the body.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
import { UNLISTED } from '../src/main/backend/core/unfinished-files';
import { createAudioLibrary } from '../src/main/backend/audio/library';
import { openDatabase } from '../src/main/backend/core/database';
import { recordsMigrations } from '../src/main/backend/records/records-migrations';
import { middleOf } from './timing';

/** The long recording's WAV is at least this big (the issue asks for 200 MB or more). */
const LONG_RECORDING_BYTES = 210 * 1024 * 1024;
const ROUNDS = 5;
const KEY = 'bench-key';

const mbPerSecond = (bytes: number, ms: number) => `${(bytes / 1_048_576 / (ms / 1000)).toFixed(0)} MB/s`;
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

interface LongRecording {
  url: string;
  child: ChildProcess;
  recording: Recording;
  size: number;
}

/** The demo service in its own process, with its long recording found in its audio list. */
async function startDemoWithLongRecording(): Promise<LongRecording> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/simulator/cli.ts',
      '--port',
      '0',
      '--key',
      `${KEY}=*`,
      '--rate-limit',
      '100000',
      '--audio-long-recording',
      String(LONG_RECORDING_BYTES),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let url = '';
  for await (const line of createInterface({ input: child.stdout! })) {
    const found = /demo service at (\S+)/.exec(line);
    if (found) {
      url = found[1]!;
      break;
    }
  }
  const headers = { 'X-Api-Key': KEY };
  const fleet = (await (await fetch(`${url}/control/instruments`, { headers })).json()) as Array<{
    serialNumber: string;
    subscription?: { addons?: string[] };
  }>;
  const serial = fleet.find((i) => i.subscription?.addons?.includes('Audio'))!.serialNumber;
  const end = Date.now();
  const query = `instruments=${serial}&start=${new Date(end - 30 * 86_400_000).toISOString()}&end=${new Date(end).toISOString()}`;
  const list = (await (await fetch(`${url}/data/audio?${query}`, { headers })).json()) as Array<{
    id: string;
    startTime: string;
    endTime: string;
  }>;
  const longest = list.reduce((a, b) =>
    Date.parse(b.endTime) - Date.parse(b.startTime) > Date.parse(a.endTime) - Date.parse(a.startTime) ? b : a,
  );
  const head = await fetch(`${url}/data/audio/${encodeURIComponent(longest.id)}?format=WAV`, {
    method: 'HEAD',
    headers,
  });
  const size = Number(head.headers.get('Content-Length'));
  if (!(size >= 200 * 1_000_000)) throw new Error(`the long recording is only ${size} bytes`);
  return {
    url,
    child,
    size,
    recording: {
      id: longest.id,
      source: 'recording',
      serial,
      start: Date.parse(longest.startTime),
      end: Date.parse(longest.endTime),
      triggerStart: null,
      triggerEnd: null,
      triggerName: 'Manual trigger',
    },
  };
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
  const { url, child, recording, size } = await startDemoWithLongRecording();
  const dir = mkdtempSync(join(tmpdir(), 'fielddesk-bench-audio-'));
  const database = openDatabase(join(dir, 'db'), { fileName: 'records.db', migrations: recordsMigrations() });
  try {
    const records = createAudioRecords(database.db);
    const library = createAudioLibrary(() => records, join(dir, 'library'));
    let progressEvents = 0;
    const waiting = new Map<string, (snapshot: DownloadSnapshot) => void>();
    const manager = createDownloadManager({
      records: () => records,
      library,
      serviceFor: async () => ({ baseUrl: url, apiKey: KEY }),
      unfinished: UNLISTED,
      emit: (snapshot) => {
        progressEvents++;
        if (snapshot.state === 'done' || snapshot.state === 'failed') waiting.get(snapshot.id)?.(snapshot);
      },
    });

    const plainFile = join(dir, 'plain.bin');
    const baseline = async (flush = false) => {
      const response = await fetch(`${url}/data/audio/${encodeURIComponent(recording.id)}?format=WAV`, {
        headers: { 'X-Api-Key': KEY },
      });
      if (response.body === null) throw new Error('no body');
      await pipeline(response.body, createWriteStream(plainFile, flush ? { flush: true } : {}));
      await rm(plainFile);
    };
    const subject = async () => {
      const finished = new Promise<DownloadSnapshot>((resolve) => {
        const [queued] = manager.enqueue('bench', [recording], 'WAV');
        waiting.set(queued!.id, resolve);
      });
      const done = await finished;
      if (done.state !== 'done' || done.bytes !== size)
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
      `\nAudio download: the demo service's long recording, ${mb(size)} of WAV on loopback (its own process), to a file, median of ${ROUNDS}`,
    );
    console.log(`  baseline   fetch, body piped to a file: ${mbPerSecond(size, baselineMs)} (1.00x)`);
    console.log(
      `  subject    download manager (.part, progress, SQLite row, size check, flush, rename, library): ` +
        `${mbPerSecond(size, subjectMs)} (${(subjectMs / baselineMs).toFixed(2)}x the baseline's time)`,
    );
    console.log(
      `  reference  fetch piped to a file with flush: ${mbPerSecond(size, flushMs)} ` +
        `(${(flushMs / baselineMs).toFixed(2)}x; what flushing to the disk alone adds)`,
    );
    console.log(`  peak memory growth during one download (the body is ${mb(size)}):`);
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

// `npm test`: every check FieldDesk's CI runs, in stages, with each stage's time and a table of
// them at the end. The checks are independent one-thread programs, so two run at once (the build
// machines have two cores); their output is printed whole when each ends, never interleaved.
// Stops at the first stage that fails, after finishing the checks already started.
//
//   node scripts/test.mjs            everything
//   node scripts/test.mjs --help     this text
import { spawn } from 'node:child_process';

if (process.argv.includes('--help')) {
  console.log(`Usage: npm test

Runs, stopping at the first failing stage:
  checks   type checks (renderer, Node), ESLint, Prettier, knip, layer rules, security check (two at a time)
  build    the Electron bundles, the harness and the browser renderer (each once)
  unit     vitest (unit, integration and keychain tests)
  e2e      Playwright in Chromium, against the bundles just built

One file alone: npx vitest run test/unit/shared/format.test.ts
                npx playwright test test/e2e/visits.spec.ts`);
  process.exit(0);
}

const CHECKS = [
  ['types (renderer)', 'npx vue-tsc --noEmit -p tsconfig.web.json'],
  ['types (Node)', 'npx tsc --noEmit -p tsconfig.node.json'],
  ['ESLint', 'npx eslint .'],
  ['Prettier', 'npx prettier --check .'],
  ['knip', 'npx knip'],
  ['layers', 'npm run --silent layers'],
  ['security', 'npm run --silent security'],
];

const STAGES = [
  { name: 'checks', jobs: CHECKS, parallel: 2 },
  { name: 'build', jobs: [['build', 'npm run --silent build']], parallel: 1 },
  { name: 'unit', jobs: [['vitest', 'npx vitest run']], parallel: 1, live: true },
  // The bundles were just built: the end-to-end set-up need not build the browser renderer again.
  {
    name: 'e2e',
    jobs: [['playwright', 'npx playwright test']],
    parallel: 1,
    live: true,
    env: { FIELDDESK_E2E_BUILT: '1' },
  },
];

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);

/** Runs one command; live output goes straight through, else it is kept and printed whole at the end. */
function runJob([label, command], { live, env }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, {
      shell: true,
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      const text = Buffer.concat(output).toString().trimEnd();
      console.log(
        `\n-- ${label}: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(started)} s`,
      );
      if (text && (!ok || !live)) console.log(text);
      resolve({ label, ok, time: seconds(started) });
    });
  });
}

async function runStage(stage) {
  const waiting = [...stage.jobs];
  const results = [];
  const worker = async () => {
    for (let job = waiting.shift(); job; job = waiting.shift()) results.push(await runJob(job, stage));
  };
  await Promise.all(Array.from({ length: stage.parallel }, worker));
  return results;
}

const started = performance.now();
const timings = [];
let failed = null;
for (const stage of STAGES) {
  console.log(`\n== ${stage.name}`);
  const stageStarted = performance.now();
  const results = await runStage(stage);
  timings.push({ stage: stage.name, seconds: seconds(stageStarted), jobs: results });
  const failure = results.find((result) => !result.ok);
  if (failure) {
    failed = `${stage.name}: ${failure.label}`;
    break;
  }
}

console.log('\n== times');
for (const { stage, seconds: time, jobs } of timings) {
  const detail = jobs.length > 1 ? `  (${jobs.map((job) => `${job.label} ${job.time} s`).join(', ')})` : '';
  console.log(`${stage.padEnd(8)} ${time.padStart(7)} s${detail}`);
}
console.log(
  `${'total'.padEnd(8)} ${seconds(started).padStart(7)} s${failed ? `  — failed at ${failed}` : ''}`,
);
process.exit(failed ? 1 : 0);

/** Public API of the demo service. */
export { createDemoApp } from './app';
export { DEMO_CLI_USAGE, DemoCliError, parseDemoCliArgs } from './cli-args';
export { generateDemoFleet, instrumentStatus, isQuantumModel } from './fleet';
export type { DemoInstrument, InstrumentCondition } from './fleet';
export {
  DEFAULT_DEMO_KEY,
  DEFAULT_HOST,
  DEFAULT_RATE_LIMIT,
  DEFAULT_SEED,
  DEMO_BASE_PATH,
  type DemoServiceOptions,
  type RunningDemoService,
} from './options';
export { startDemoService } from './server';

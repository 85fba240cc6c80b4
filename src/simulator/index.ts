/** Public API of the demo service. */
export { createDemo, createDemoApp } from './app';
export { DEMO_CLI_USAGE, DemoCliError, parseDemoCliArgs } from './cli-args';
export { FAULT_KINDS, RATE_LIMIT_STORM_LENGTH, SLOW_ANSWER_MS, createFaultPlan } from './faults';
export type { FaultKind } from './faults';
export { generateDemoFleet, instrumentStatus, isQuantumModel } from './fleet';
export type { DemoInstrument, InstrumentCondition } from './fleet';
export {
  DEFAULT_DEMO_KEY,
  DEFAULT_HOST,
  DEFAULT_RATE_LIMIT,
  DEFAULT_SEED,
  DEMO_BASE_PATH,
  type DemoActionControl,
  type DemoFaultOptions,
  type DemoServiceOptions,
  type RunningDemoService,
} from './options';
export { startDemoService } from './server';

/** Public API of the demo service. */
export { createDemo, createDemoApp, type Demo } from './app';
export { DemoCliError, parseDemoCliArgs } from './cli-args';
export { FAULT_KINDS, RATE_LIMIT_STORM_LENGTH, SLOW_ANSWER_MS, createFaultPlan } from './faults';
export type { FaultKind } from './faults';
export { inOutageAt } from './data/availability';
export { generateDemoFleet, isQuantumModel } from './fleet';
export type { DemoInstrument } from './fleet';
export {
  DEFAULT_DEMO_KEY,
  type DemoActionControl,
  type DemoServiceOptions,
  type RunningDemoService,
} from './options';
export { startDemoService } from './server';
export { DELIVERIES_KEPT, NOT_SENT_ERROR } from './webhooks/delivery';

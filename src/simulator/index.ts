/** Public API of the demo service. */
export { createDemo, createDemoApp, type Demo } from './app';
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
  WEBHOOK_DELIVERY_MODES,
  type DemoActionControl,
  type DemoAudioOptions,
  type DemoFaultOptions,
  type DemoServiceOptions,
  type DemoWebhookControl,
  type DemoWebhookTiming,
  type RunningDemoService,
  type WebhookDeliveryMode,
} from './options';
export { startDemoService } from './server';
export { DELIVERIES_KEPT, NOT_SENT_ERROR, signBody } from './webhooks/delivery';
export { DEMO_SERVICE_NAME } from './webhooks/routes';
export { FAILED_DELIVERIES_BEFORE_REMOVAL } from './webhooks/service';

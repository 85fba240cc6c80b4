/**
 * The service client for the control endpoints: instruments, their status, renaming, and the field
 * actions with their latest results. Built on the shared requester (requester.ts); every answer is
 * validated with the shared schemas.
 */
import { z } from 'zod';
import { FieldDeskError } from '../../../shared/errors';
import {
  actionResultSchema,
  calibrationStatusSchema,
  instrumentSchema,
  instrumentStatusSchema,
  sicStatusSchema,
  type ActionResult,
  type CalibrationStatus,
  type Instrument,
  type InstrumentStatus,
  type SicStatus,
} from '../../../shared/service/schemas';
import type { ActionName } from '../../../shared/service/wire';
import { readEachItem, type Resource } from './answers';
import { createServiceRequester, type ServiceClientOptions } from './requester';
import { createWebhookClient, type WebhookClient } from './webhook-client';

export type { ServiceClientOptions, ServiceExchange } from './requester';

/** The fleet as listed: every instrument that could be read, and what was left out and why. */
export interface Fleet {
  instruments: Instrument[];
  /** One plain sentence per listed item that could not be read at all (e.g. no serial number). */
  skipped: string[];
}

export interface ServiceClient {
  readonly baseUrl: string;
  /** The fleet; one item that cannot be read never hides the others (see `Fleet.skipped`). */
  readFleet(signal?: AbortSignal): Promise<Fleet>;
  /** `readFleet` without the list of what was skipped. */
  listInstruments(signal?: AbortSignal): Promise<Instrument[]>;
  getInstrument(serial: string, signal?: AbortSignal): Promise<Instrument>;
  renameInstrument(serial: string, name: string, signal?: AbortSignal): Promise<void>;
  getInstrumentStatus(serial: string, signal?: AbortSignal): Promise<InstrumentStatus>;
  /** Starts Identify, Calibration or SIC. A POST, so never retried: a repeat could run it twice. */
  startAction(serial: string, action: ActionName, signal?: AbortSignal): Promise<ActionResult>;
  /** The latest calibration; `null` when the service has none for the instrument (404). */
  getCalibration(serial: string, signal?: AbortSignal): Promise<CalibrationStatus | null>;
  /** The latest SIC; `null` when the service has none for the instrument (404). */
  getSic(serial: string, signal?: AbortSignal): Promise<SicStatus | null>;
  /** Webhook management, and the demo service's delivery log (webhook-client.ts). */
  readonly webhooks: WebhookClient;
}

const INSTRUMENT: Resource<Instrument> = { schema: instrumentSchema, item: 'an instrument' };
/** The list itself; each item is read on its own so one bad item never hides the others. */
const INSTRUMENT_LIST: Resource<unknown[]> = { schema: z.array(z.unknown()), item: 'an instrument' };
const INSTRUMENT_STATUS: Resource<InstrumentStatus> = {
  schema: instrumentStatusSchema,
  item: 'an instrument status',
};
const ACTION_RESULT: Resource<ActionResult> = { schema: actionResultSchema, item: 'an action result' };
const CALIBRATION_STATUS: Resource<CalibrationStatus> = {
  schema: calibrationStatusSchema,
  item: 'a calibration result',
};
const SIC_STATUS: Resource<SicStatus> = { schema: sicStatusSchema, item: 'a SIC result' };

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const requester = createServiceRequester(options);
  const { baseUrl, call, parseJson, validate } = requester;

  const instrumentPath = (serial: string) => `/control/instruments/${encodeURIComponent(serial)}`;

  /** A 404 on a "latest result" endpoint means the instrument has none yet. */
  async function latestOrNull<T>(read: Promise<T>): Promise<T | null> {
    try {
      return await read;
    } catch (error) {
      if (error instanceof FieldDeskError && error.code === 'notFound') return null;
      throw error;
    }
  }

  const readFleet = (signal?: AbortSignal): Promise<Fleet> =>
    call('GET', '/control/instruments', { signal }, (text) => {
      const list = validate(
        parseJson(text, 'a list of instruments', { eachItem: true }),
        INSTRUMENT_LIST,
        true,
      );
      const { items, skipped } = readEachItem(list, (item) => validate(item, INSTRUMENT, false));
      return { instruments: items, skipped };
    });

  return {
    baseUrl,
    webhooks: createWebhookClient(requester),
    readFleet,
    listInstruments: async (signal) => (await readFleet(signal)).instruments,
    getInstrument: (serial, signal) =>
      call('GET', instrumentPath(serial), { signal }, (text) =>
        validate(parseJson(text, 'an instrument'), INSTRUMENT, false),
      ),
    renameInstrument: (serial, name, signal) =>
      // The answer is 204 without a body; any body is ignored.
      call('PUT', instrumentPath(serial), { json: { name }, signal }, () => undefined),
    getInstrumentStatus: (serial, signal) =>
      call('GET', `${instrumentPath(serial)}/status`, { signal }, (text) =>
        validate(parseJson(text, 'an instrument status'), INSTRUMENT_STATUS, false),
      ),
    startAction: (serial, action, signal) =>
      call('POST', `${instrumentPath(serial)}/action`, { query: { action }, signal }, (text) =>
        validate(parseJson(text, 'an action result'), ACTION_RESULT, false),
      ),
    getCalibration: (serial, signal) =>
      latestOrNull(
        call('GET', `${instrumentPath(serial)}/calibration`, { signal }, (text) =>
          validate(parseJson(text, 'a calibration result'), CALIBRATION_STATUS, false),
        ),
      ),
    getSic: (serial, signal) =>
      latestOrNull(
        call('GET', `${instrumentPath(serial)}/sic`, { signal }, (text) =>
          validate(parseJson(text, 'a SIC result'), SIC_STATUS, false),
        ),
      ),
  };
}

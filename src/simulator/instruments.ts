/** Instrument info and control: list, read, rename, status. */
import type { Context } from 'hono';
import { INSTRUMENT_NAME_MAX_LENGTH, SERVICE_ERROR_CODES } from '../shared/service/limits';
import type { WireInstrument } from '../shared/service/wire';
import type { DemoInstrument } from './fleet';
import { instrumentStatus } from './fleet';
import { settleActions } from './health-state';
import { errorResponse, type RouteTable } from './responses';
import type { DemoState } from './state';

const copyOf = (instrument: DemoInstrument): WireInstrument => structuredClone(instrument.wire);

function unknownSerial(c: Context, serial: string): Response {
  return errorResponse(c, 404, SERVICE_ERROR_CODES.notFound, `No instrument with serial number ${serial}.`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks a rename body; the name (trimmed) or the error answer to send. */
function readNewName(
  bodyText: string,
): { ok: true; name: string } | { ok: false; code: string; description: string } {
  const missing = (description: string) =>
    ({ ok: false, code: SERVICE_ERROR_CODES.missingParam, description }) as const;
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return missing('The body must be JSON holding the new name, e.g. {"name": "North fence"}.');
  }
  const name = isRecord(body) ? body.name : undefined;
  if (name === undefined || name === null) return missing('The body has no name.');
  if (typeof name !== 'string') {
    return { ok: false, code: SERVICE_ERROR_CODES.invalidParam, description: 'The name must be a string.' };
  }
  const trimmed = name.trim();
  if (trimmed === '') return missing('The name must not be empty.');
  // Count characters (code points), not UTF-16 units, as a person would.
  const length = [...trimmed].length;
  if (length > INSTRUMENT_NAME_MAX_LENGTH) {
    return {
      ok: false,
      code: SERVICE_ERROR_CODES.invalidParam,
      description: `The name is ${length} characters long; the limit is ${INSTRUMENT_NAME_MAX_LENGTH}.`,
    };
  }
  return { ok: true, name: trimmed };
}

export function instrumentRoutes(state: DemoState): RouteTable {
  const find = (serial: string): DemoInstrument | undefined => state.instruments.get(serial);
  return {
    'GET /control/instruments': (c) => c.json([...state.instruments.values()].map(copyOf)),

    'GET /control/instruments/:serial': (c) => {
      const serial = c.req.param('serial') ?? '';
      const instrument = find(serial);
      return instrument ? c.json(copyOf(instrument)) : unknownSerial(c, serial);
    },

    // Only `name` changes, whatever else the body holds (it may be a whole Instrument).
    'PUT /control/instruments/:serial': async (c) => {
      const serial = c.req.param('serial') ?? '';
      const instrument = find(serial);
      if (!instrument) return unknownSerial(c, serial);
      const result = readNewName(await c.req.text());
      if (!result.ok) return errorResponse(c, 400, result.code, result.description);
      instrument.wire.name = result.name;
      return c.body(null, 204);
    },

    'GET /control/instruments/:serial/status': (c) => {
      const serial = c.req.param('serial') ?? '';
      const instrument = find(serial);
      if (!instrument) return unknownSerial(c, serial);
      // A Calibration or SIC whose simulated time is up finishes now (flags and last results).
      settleActions(state);
      return c.json(instrumentStatus(instrument.condition));
    },
  };
}

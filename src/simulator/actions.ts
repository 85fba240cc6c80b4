/**
 * Instrument actions and their latest results: POST …/action, GET …/calibration, GET …/sic.
 * Identify answers at once; Calibration and SIC answer `InProgress` and finish after their
 * simulated duration (see health-state.ts).
 */
import type { Context } from 'hono';
import { SERVICE_ERROR_CODES } from '../shared/service/limits';
import { formatServiceTime } from '../shared/service/time';
import { ACTIONS, type ActionName, type WireActionResult } from '../shared/service/wire';
import type { DemoInstrument } from './fleet';
import { settleActions, startAction } from './health-state';
import { errorResponse, type RouteTable } from './responses';
import type { DemoState } from './state';

/**
 * Error codes of refused actions. Not documented for the real service (its validation errors
 * are 400 with codes such as MissingParam): the demo service's own, precise codes.
 */
export const ACTION_ERROR_CODES = {
  instrumentOffline: 'InstrumentOffline',
  actionInProgress: 'ActionInProgress',
  featureUnavailable: 'FeatureUnavailable',
} as const;

const ACTION_LIST = 'Identify, Calibration or SIC';

function unknownSerial(c: Context, serial: string): Response {
  return errorResponse(c, 404, SERVICE_ERROR_CODES.notFound, `No instrument with serial number ${serial}.`);
}

const describe = (instrument: DemoInstrument): string =>
  `${instrument.wire.serialNumber} (${instrument.wire.model})`;

/** Why the instrument cannot run the action at all, whatever its state; null when it can. */
function unavailableReason(instrument: DemoInstrument, action: ActionName): string | null {
  if (action === 'Calibration' && instrument.wire.type !== 'Noise') {
    return (
      `Calibration is for noise instruments (an acoustic calibrator on the microphone); ` +
      `${describe(instrument)} is a${instrument.wire.type === 'AirQuality' ? 'n' : ''} ${instrument.wire.type} instrument.`
    );
  }
  if (action === 'SIC' && !instrument.wire.feature.includes('SIC')) {
    return `${describe(instrument)} has no SIC feature, so it cannot run a system integrity check.`;
  }
  return null;
}

function parseAction(c: Context): { ok: true; action: ActionName } | { ok: false; response: Response } {
  const text = c.req.query('action')?.trim() ?? '';
  if (text === '') {
    return {
      ok: false,
      response: errorResponse(
        c,
        400,
        SERVICE_ERROR_CODES.missingParam,
        `The query parameter action is required: ${ACTION_LIST}.`,
      ),
    };
  }
  const exact = ACTIONS.find((action) => action === text);
  if (exact !== undefined) return { ok: true, action: exact };
  const sameLetters = ACTIONS.find((action) => action.toLowerCase() === text.toLowerCase());
  const hint =
    sameLetters === undefined ? '' : ` Action names are case-sensitive: did you mean ${sameLetters}?`;
  return {
    ok: false,
    response: errorResponse(
      c,
      400,
      SERVICE_ERROR_CODES.invalidParam,
      `Unknown action "${text.slice(0, 40)}": use ${ACTION_LIST}.${hint}`,
    ),
  };
}

export function actionRoutes(state: DemoState): RouteTable {
  const find = (c: Context): DemoInstrument | undefined => state.instruments.get(c.req.param('serial') ?? '');

  return {
    'POST /control/instruments/:serial/action': (c) => {
      const instrument = find(c);
      if (!instrument) return unknownSerial(c, c.req.param('serial') ?? '');
      const serial = instrument.wire.serialNumber;
      settleActions(state);
      const parsed = parseAction(c);
      if (!parsed.ok) return parsed.response;
      const { action } = parsed;

      const unavailable = unavailableReason(instrument, action);
      if (unavailable !== null) {
        return errorResponse(c, 400, ACTION_ERROR_CODES.featureUnavailable, unavailable);
      }
      if (!instrument.condition.online) {
        return errorResponse(
          c,
          400,
          ACTION_ERROR_CODES.instrumentOffline,
          `${serial} is offline: ${action} needs the instrument to be online and connected to the service.`,
        );
      }
      const running = state.health.running.get(serial);
      if (running !== undefined) {
        const leftSeconds = Math.max(1, Math.ceil((running.finishesMs - state.now()) / 1000));
        return errorResponse(
          c,
          400,
          ACTION_ERROR_CODES.actionInProgress,
          `${serial} is already running a ${running.action} (started ${formatServiceTime(running.startedMs)}, ` +
            `about ${leftSeconds} s left); try ${action} again when it has finished.`,
        );
      }

      if (action === 'Identify') {
        // The instrument flashes its LED; nothing else changes.
        return c.json({ action, status: 'Success' } satisfies WireActionResult);
      }
      startAction(state, serial, action);
      return c.json({ action, status: 'InProgress' } satisfies WireActionResult);
    },

    'GET /control/instruments/:serial/calibration': (c) => {
      const instrument = find(c);
      if (!instrument) return unknownSerial(c, c.req.param('serial') ?? '');
      settleActions(state);
      const reason = unavailableReason(instrument, 'Calibration');
      const latest = instrument.condition.lastCalibration;
      if (reason !== null || latest === null) {
        return errorResponse(
          c,
          404,
          SERVICE_ERROR_CODES.notFound,
          reason === null
            ? `${instrument.wire.serialNumber} has not been calibrated yet.`
            : `${instrument.wire.serialNumber} has no calibration: ${reason}`,
        );
      }
      return c.json({ ...latest });
    },

    'GET /control/instruments/:serial/sic': (c) => {
      const instrument = find(c);
      if (!instrument) return unknownSerial(c, c.req.param('serial') ?? '');
      settleActions(state);
      const latest = instrument.condition.lastSic;
      if (!instrument.wire.feature.includes('SIC') || latest === null) {
        return errorResponse(
          c,
          404,
          SERVICE_ERROR_CODES.notFound,
          instrument.wire.feature.includes('SIC')
            ? `${instrument.wire.serialNumber} has not run a system integrity check yet.`
            : `${describe(instrument)} has no SIC feature, so it has no system integrity check results.`,
        );
      }
      return c.json({ ...latest });
    },
  };
}

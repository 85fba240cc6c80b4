/**
 * The one description of every request (argument schema, result type) and every pushed
 * event (payload type). The Electron adapter, the preload facade and the browser harness are
 * all built from it, so adding a feature means: a contract entry, a backend method, a store
 * action and a view.
 */
import { z } from 'zod';
import { REQUEST_CHANNELS, type EventChannel, type RequestChannel } from './channels';
import { noArgs, request, serialSchema, type RequestSpec } from './request-spec';
import { WEBHOOK_REQUESTS } from './webhook-requests';
import { SYNC_REQUESTS } from './sync-requests';
import { DATA_REQUESTS, epochMsSchema } from './data-requests';
import { AUDIO_REQUESTS } from './audio-requests';
import { ASSESSMENT_REQUESTS } from './assessment-requests';
import { VISIT_REQUESTS } from './visit-requests';
import { CALIBRATOR_REQUESTS, calibratorIdSchema } from './calibrator-requests';
import { TEAM_REQUESTS } from './team-requests';
import { SETTINGS_REQUESTS } from './settings-requests';
import type { TeamStatus } from '../team';
import type { AssessmentProgress, ReportProgress } from '../assessment';
import { type InstrumentHealth } from '../attention';
import type { DownloadSnapshot } from '../audio';
import type { AccountCheck, AccountSummary, AccountsState } from '../accounts';
import type { DamagedRecords, DiagnosticsResult } from '../diagnostics';
import { APP_REQUESTS, type AppInfo, type AppNotice } from './app-requests';
import type { FieldDeskLastResults } from '../check-record';
import { accountNameSchema, apiKeySchema, baseUrlSchema } from '../accounts';
import { FieldDeskError, toErrorData, type FieldDeskErrorData } from '../errors';
import type { Instrument, InstrumentStatus } from '../service/schemas';
import { INSTRUMENT_NAME_MAX_LENGTH } from '../service/limits';
import { ACTIONS } from '../service/wire';
import { type CacheSummary, type DataExportProgress, type HistoryRead, type SyncSnapshot } from '../data';
import {
  HISTORY_MAX_SPAN_MS,
  type ActionRecord,
  type CalibrationLogEntry,
  type CalibrationRecord,
  type OperationSnapshot,
  type SicRecord,
} from '../operations';

export { serialSchema };

export const accountIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown account.');

export const instrumentNameSchema = z
  .string()
  .trim()
  .min(1, 'The name cannot be empty.')
  .max(INSTRUMENT_NAME_MAX_LENGTH, `Keep the name to ${INSTRUMENT_NAME_MAX_LENGTH} characters or fewer.`);

export const actionNameSchema = z.enum(ACTIONS, {
  error: 'Choose one of the actions Identify, Calibration or SIC.',
});

export const operationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown operation.');

/** `{ serial, start, end }` of a history read: epoch ms, start before end, at most ten years. */
export const historyRangeSchema = z
  .object({ serial: serialSchema, start: epochMsSchema, end: epochMsSchema })
  .strict()
  .refine((range) => range.start < range.end, {
    message: 'The start of the range must be before its end.',
    path: ['end'],
  })
  .refine((range) => range.end - range.start <= HISTORY_MAX_SPAN_MS, {
    message: 'Ask for ten years or less at a time.',
    path: ['start'],
  });

export type { AppInfo, AppNotice };

export interface InstrumentEntry {
  instrument: Instrument;
  /** `null` when the status could not be read (`statusError` says why) or was not read yet. */
  status: InstrumentStatus | null;
  statusError: FieldDeskErrorData | null;
  /**
   * True when the status was not read with the list (a fleet too large to read every status at
   * once): the list view asks `instruments.statuses` for the rows on screen.
   */
  statusPending?: true;
}

/** Statuses read for some instruments of the active account (`instruments.statuses`). */
export interface InstrumentStatuses {
  accountId: string;
  entries: Array<{ serial: string; status: InstrumentStatus | null; statusError: FieldDeskErrorData | null }>;
  fetchedAt: number;
}

/** Fleets up to this size get every status with the list; larger ones per screen (`instruments.statuses`). */
export const STATUS_EAGER_LIMIT = 200;
/** The most statuses one `instruments.statuses` request reads. */
export const STATUS_BATCH_MAX = 100;

/** The most instruments one `instruments.health` request reads: a few requests each, so a small batch. */
export const HEALTH_BATCH_MAX = 25;

/** Instruments' health for fleet attention (`instruments.health`, `instruments.knownHealth`). */
export interface InstrumentHealthRead {
  accountId: string;
  entries: InstrumentHealth[];
  /** Present when the service could not be reached: the entries are the last known ones (each with its `readAt`). */
  lastKnown?: { reason: FieldDeskErrorData };
}

export interface InstrumentList {
  accountId: string;
  entries: InstrumentEntry[];
  fetchedAt: number;
  /** Listed items that could not be read at all, one plain sentence each (the others are shown). */
  skipped: string[];
  /**
   * Present when the service could not be reached: the list is the last one that was (fetched at
   * `fetchedAt`), its states as they were then, and this is why it is not live.
   */
  lastKnown?: { reason: FieldDeskErrorData };
}

/** `instruments.image`: the picture as a `data:` URL (the renderer's CSP allows no other). */
export interface InstrumentImage {
  serial: string;
  dataUrl: string;
  bytes: number;
}

export interface InstrumentDetail extends InstrumentEntry {
  accountId: string;
  fetchedAt: number;
  /** As in `InstrumentList`: the instrument as last listed, when the service cannot be reached. */
  lastKnown?: { reason: FieldDeskErrorData };
}

export type ConnectivityState = 'online' | 'offline' | 'unknown';

export interface Connectivity {
  state: ConnectivityState;
  accountId: string | null;
  /** When the state last changed (epoch ms). */
  since: number;
  /** Why the service cannot be reached, in plain words. */
  message: string | null;
}

const byAccountId = z.object({ id: accountIdSchema }).strict();

export const REQUESTS = {
  ...APP_REQUESTS,
  'accounts.getState': request<AccountsState>()(noArgs),
  'accounts.add': request<AccountCheck>()(
    z.object({ name: accountNameSchema, baseUrl: baseUrlSchema, apiKey: apiKeySchema }).strict(),
  ),
  'accounts.check': request<AccountCheck>()(byAccountId),
  'accounts.rename': request<AccountSummary>()(
    z.object({ id: accountIdSchema, name: accountNameSchema }).strict(),
  ),
  'accounts.replaceKey': request<AccountCheck>()(
    z.object({ id: accountIdSchema, apiKey: apiKeySchema }).strict(),
  ),
  'accounts.remove': request<AccountsState>()(byAccountId),
  'accounts.activate': request<AccountsState>()(byAccountId),
  'accounts.tryDemo': request<AccountCheck>()(noArgs),
  'instruments.list': request<InstrumentList>()(noArgs),
  'instruments.get': request<InstrumentDetail>()(z.object({ serial: serialSchema }).strict()),
  /** The statuses of some instruments (the rows on screen of a large fleet), read now. */
  'instruments.statuses': request<InstrumentStatuses>()(
    z
      .object({
        serials: z
          .array(serialSchema)
          .min(1, 'Name at least one instrument.')
          .max(STATUS_BATCH_MAX, `Ask for at most ${STATUS_BATCH_MAX} statuses at a time.`),
      })
      .strict(),
  ),
  'instruments.rename': request<Instrument>()(
    z.object({ serial: serialSchema, name: instrumentNameSchema }).strict(),
  ),
  /**
   * The instrument's image, fetched by the backend from the address the service gave for it (never
   * one the renderer names) and answered as a `data:` URL: https only, no credentials, at most
   * 2 MB, a PNG, JPEG, GIF or WebP by its bytes (instruments/instrument-image.ts).
   */
  'instruments.image': request<InstrumentImage>()(z.object({ serial: serialSchema }).strict()),
  'instruments.health': request<InstrumentHealthRead>()(
    z
      .object({
        serials: z
          .array(serialSchema)
          .min(1, 'Name at least one instrument.')
          .max(HEALTH_BATCH_MAX, `Ask for the health of at most ${HEALTH_BATCH_MAX} instruments at a time.`),
      })
      .strict(),
  ),
  'instruments.knownHealth': request<InstrumentHealthRead>()(noArgs),
  /**
   * A new urgent attention reason the renderer judged (shared/attention.ts), to be told on the
   * desktop while FieldDesk's window is in the background (the user opted in; the renderer tells
   * each instrument's reason once). Passed on as `instruments.urgent`.
   */
  'instruments.tellUrgent': request<{ passedOn: true }>()(
    z
      .object({
        serial: serialSchema,
        name: z.string().max(200),
        reason: z.string().min(1).max(300),
      })
      .strict(),
  ),
  /** Starts an action on an instrument of the active account; answers at once (state `starting`). */
  'actions.start': request<OperationSnapshot>()(
    z
      .object({
        serial: serialSchema,
        action: actionNameSchema,
        /** Calibration only: the register's calibrator fitted (absent: none or not listed). */
        calibratorId: calibratorIdSchema.optional(),
      })
      .strict()
      .refine((start) => start.calibratorId === undefined || start.action === 'Calibration', {
        message: 'A calibrator is named only for a calibration.',
        path: ['calibratorId'],
      }),
  ),
  /** Finished actions on an instrument of the active account, newest first, from the local history. */
  'actions.history': request<ActionRecord[]>()(z.object({ serial: serialSchema }).strict()),
  /**
   * FieldDesk's newest Calibration and SIC outcome on each instrument of the active account, so the
   * list, the card and Needs attention put FieldDesk's verdict beside the instrument's status.
   */
  'actions.lastResults': request<FieldDeskLastResults[]>()(noArgs),
  /** Running and recently finished operations, newest first (a reloaded window re-attaches). */
  'operations.list': request<OperationSnapshot[]>()(noArgs),
  /** Stops watching an operation; the instrument is told nothing (the service has no cancel). */
  'operations.cancel': request<OperationSnapshot>()(z.object({ id: operationIdSchema }).strict()),
  /** An instrument's service history over a range, read through the cache (offline too). */
  'history.calibrations': request<HistoryRead<CalibrationRecord>>()(historyRangeSchema),
  'history.calibrationLog': request<HistoryRead<CalibrationLogEntry>>()(historyRangeSchema),
  'history.sic': request<HistoryRead<SicRecord>>()(historyRangeSchema),
  ...SETTINGS_REQUESTS,
  ...DATA_REQUESTS,
  ...SYNC_REQUESTS,
  'sync.list': request<SyncSnapshot[]>()(noArgs),
  'sync.cancel': request<SyncSnapshot>()(z.object({ id: operationIdSchema }).strict()),
  'sync.resume': request<SyncSnapshot>()(z.object({ id: operationIdSchema }).strict()),
  'cache.summary': request<CacheSummary>()(noArgs),
  'cache.clear': request<CacheSummary>()(z.object({ serial: serialSchema.optional() }).strict()),
  /** Whether the active account's service can be reached, as the backend last saw it. */
  'connectivity.get': request<Connectivity>()(noArgs),
  /**
   * Writes a zip for support where the user chooses: the log files, versions, settings and the data
   * folder's file list — every text redacted, never a key, a secret or cached data.
   */
  'diagnostics.save': request<DiagnosticsResult>()(noArgs),
  /**
   * The stored records found damaged since FieldDesk started and left out (or a damaged value of
   * them read as none), counted by table; each is named in the log. Said in words by
   * `damagedRecordsText` (shared/diagnostics.ts).
   */
  'diagnostics.damagedRecords': request<DamagedRecords>()(noArgs),
  ...WEBHOOK_REQUESTS,
  ...AUDIO_REQUESTS,
  ...ASSESSMENT_REQUESTS,
  ...VISIT_REQUESTS,
  ...CALIBRATOR_REQUESTS,
  ...TEAM_REQUESTS,
} satisfies Record<RequestChannel, RequestSpec<z.ZodType, unknown>>;

export interface EventPayloads {
  /** The notices not yet dismissed, after every change. */
  'app.noticesChanged': AppNotice[];
  'accounts.changed': AccountsState;
  'connectivity.changed': Connectivity;
  /** Every change of an operation (state, phase, message, result). */
  'operations.progress': OperationSnapshot;
  /** Every change of a site sync (requests done, bytes, time left, failures). */
  'sync.progress': SyncSnapshot;
  /** How far a data export is, after each chunk written. */
  'data.exportProgress': DataExportProgress;
  /** Every change of an audio download (state, bytes, rate, time left), at most a few times a second. */
  'audio.progress': DownloadSnapshot;
  /** How far a report is (stage and fraction), while it is written. */
  'assessment.reportProgress': ReportProgress;
  'assessment.progress': AssessmentProgress;
  /** A new urgent attention reason, for the desktop notice while the window is in the background. */
  'instruments.urgent': UrgentReason;
  /** The team replication's state, after every change (waiting count, reachability, conflicts). */
  'team.changed': TeamStatus;
}

export interface UrgentReason {
  serial: string;
  name: string;
  /** In plain words with its figures: "Battery nearly flat: 11.4 V (urgent below 11.5 V)". */
  reason: string;
}

export type RequestArg<C extends RequestChannel> = z.input<(typeof REQUESTS)[C]['arg']>;
export type ParsedRequestArg<C extends RequestChannel> = z.output<(typeof REQUESTS)[C]['arg']>;
export type RequestResult<C extends RequestChannel> = (typeof REQUESTS)[C]['result'];

/** The backend implements exactly the contract: one method per request channel. */
export type BackendHandlers = {
  [C in RequestChannel]: (arg: ParsedRequestArg<C>) => Promise<RequestResult<C>>;
};

/** Emits pushed events; the transports forward them to the renderer. */
export type EventSink = <E extends EventChannel>(channel: E, payload: EventPayloads[E]) => void;

type Namespaces = RequestChannel extends `${infer N}.${string}` ? N : never;
type EventNamespaces = EventChannel extends `${infer N}.${string}` ? N : never;

type RequestMethods<N extends string> = {
  [C in RequestChannel as C extends `${N}.${infer M}` ? M : never]: Record<
    string,
    never
  > extends RequestArg<C>
    ? (arg?: RequestArg<C>) => Promise<RequestResult<C>>
    : (arg: RequestArg<C>) => Promise<RequestResult<C>>;
};

type EventMethods<N extends string> = {
  [E in EventChannel as E extends `${N}.${infer T}` ? `on${Capitalize<T>}` : never]: (
    listener: (payload: EventPayloads[E]) => void,
  ) => () => void;
};

/** What the renderer sees as `window.fielddesk`. */
export type FieldDeskApi = {
  [N in Namespaces | EventNamespaces]: RequestMethods<N> & EventMethods<N>;
};

/** Every answer crosses a transport as an envelope, so errors keep their code. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: FieldDeskErrorData };

type BridgeRequestMethods<N extends string> = {
  [C in RequestChannel as C extends `${N}.${infer M}` ? M : never]: Record<
    string,
    never
  > extends RequestArg<C>
    ? (arg?: RequestArg<C>) => Promise<Envelope<RequestResult<C>>>
    : (arg: RequestArg<C>) => Promise<Envelope<RequestResult<C>>>;
};

/**
 * What a transport exposes (the preload's `window.fielddesk`, or the harness's HTTP facade):
 * the same methods, answering envelopes. The renderer unwraps them into `FieldDeskApi`,
 * rebuilding `FieldDeskError`s (an Error thrown across contextBridge would lose its code).
 */
export type FieldDeskBridge = {
  [N in Namespaces | EventNamespaces]: BridgeRequestMethods<N> & EventMethods<N>;
};

/**
 * The one request path of every transport: check the channel, validate the argument, call the
 * backend, and turn any failure into plain error data.
 */
export async function dispatchRequest(
  handlers: BackendHandlers,
  channel: string,
  arg: unknown,
): Promise<Envelope<unknown>> {
  if (!(REQUEST_CHANNELS as readonly string[]).includes(channel)) {
    return { ok: false, error: { code: 'invalidInput', message: 'Unknown request.', retryable: false } };
  }
  const known = channel as RequestChannel;
  try {
    const parsed = parseRequestArg(known, arg);
    const handler = handlers[known] as (a: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed) };
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}

/** Validates a request's argument; throws `invalidInput` naming the first problem in plain words. */
export function parseRequestArg<C extends RequestChannel>(channel: C, arg: unknown): ParsedRequestArg<C> {
  const result = REQUESTS[channel].arg.safeParse(arg ?? {});
  if (result.success) return result.data as ParsedRequestArg<C>;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  throw new FieldDeskError('invalidInput', issue?.message ?? 'The request was not valid.', {
    ...(field === undefined ? {} : { field }),
  });
}

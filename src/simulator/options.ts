/** Options and handle of the demo service: the API other layers (tests, harness, CLI) code against. */
import type { Scope } from '../shared/service/scopes';
import type { WireDemoDelivery } from '../shared/service/webhooks';

export interface DemoServiceOptions {
  /** Interface to listen on; default '127.0.0.1' (loopback only). */
  host?: string;
  /** Default 0: a random free port. */
  port?: number;
  /** API key value -> scopes (`'*'` = every scope). Default: one all-scopes key, `DEFAULT_DEMO_KEY`. */
  keys?: Record<string, readonly Scope[] | '*'>;
  /** Requests per second per key (token bucket, burst = rateLimit); default 50. */
  rateLimit?: number;
  /** Seed of the demo fleet; default 1. */
  seed?: number;
  /**
   * Instruments in the fleet (default 10, at most 100,000): more make a fleet the size of a large
   * company's, for benchmarks; the first ten are the same as the default fleet's.
   */
  fleetSize?: number;
  /** Clock in epoch milliseconds, for tests; default `Date.now`. */
  now?: () => number;
  /**
   * Multiplies every simulated duration (Calibration 30–45 s, SIC 20–30 s); default 1, must be
   * greater than 0. End-to-end tests use e.g. 0.01 to finish a calibration in well under a second.
   */
  timeScale?: number;
  /** Faults on a share of `/v1/data/*` requests (faults.ts); default none. */
  faults?: DemoFaultOptions;
  /**
   * Hold every Calibration and SIC started until a test releases it (`actions.release`), so a
   * test that needs an action "still running" never races the clock. Default false.
   */
  holdActions?: boolean;
  /**
   * API key -> account name. Webhooks belong to an account: every key of the account lists,
   * removes and tests them, no other key sees them. Default: every key is an account of its own.
   * Every key named here must be one of `keys` (or `DEFAULT_DEMO_KEY` when no keys are given).
   */
  keyAccounts?: Record<string, string>;
  /**
   * Also accept webhook addresses `http://127.0.0.1:PORT/…`, `http://localhost:PORT/…` and
   * `http://[::1]:PORT/…`, so tests can receive deliveries without a certificate. Default false:
   * `https:` only, as the real service.
   */
  allowLoopbackWebhooks?: boolean;
  /**
   * Where deliveries may go. `'any'` (default): to the webhook's address. `'loopbackOnly'`: only to
   * this computer (127.0.0.1, localhost, [::1]); a delivery to any other host is never sent and is
   * recorded as a failed attempt, for machines without a network (tests, the browser harness).
   */
  webhookDelivery?: WebhookDeliveryMode;
  /** Delivery and trigger timing; by default the interface's, multiplied by `timeScale`. */
  webhookTiming?: DemoWebhookTiming;
  /** Audio downloads: byte ranges, interrupted downloads, a long recording (see DemoAudioOptions). */
  audio?: DemoAudioOptions;
  /**
   * Receives what the demo service would tell a person: the e-mails the real service sends to
   * the owner of a failing webhook. Default: nowhere (tests read them with `webhooks.emails()`);
   * the CLI prints them.
   */
  log?: (line: string) => void;
}

/**
 * How the audio endpoints (`/data/audio/{id}`, `/data/events/audio/{id}`) answer, for testing
 * downloads. By default they answer byte ranges and never fail.
 */
export interface DemoAudioOptions {
  /**
   * Answer `Range: bytes=…` requests: `Accept-Ranges: bytes` on every answer, 206 with
   * `Content-Range` for one satisfiable range (`a-b`, `a-`, `-n`; `If-Range` with the answer's
   * `ETag`), 416 past the end. Default true. False: `Range` is ignored, every answer is 200 with
   * the whole file and no `Accept-Ranges`, as a server that cannot resume.
   */
  ranges?: boolean;
  /**
   * Close the connection after sending this many body bytes of each audio answer (200 or 206)
   * that is longer, as a download interrupted by the network. Default: never.
   */
  cutAfterBytes?: number;
  /**
   * With `cutAfterBytes`: cut only the first answer for each recording and format; later ones
   * (a resume, a retry) arrive whole. Default false: every answer longer than the limit is cut.
   */
  cutOnce?: boolean;
  /**
   * Add one long recording, for download benchmarks: its WAV is at least this many bytes
   * (16 kHz 16-bit mono: 200 MB is about 1 h 44 min; at most a WAV file's 4 GiB). It belongs to
   * the fleet's first instrument with the Audio add-on, ends at the start of the hour the
   * service started in, and is listed by `GET /data/audio` as a manual trigger (5 s in from each
   * end). It is no event's audio. Default: none.
   */
  longRecordingBytes?: number;
  /**
   * Pause every audio answer after this many body bytes until the test calls
   * `audio.release()`, so a test that looks at a download "under way" never races the clock.
   * Default: never.
   */
  holdAfterBytes?: number;
}

/** Releasing audio answers held by `audio.holdAfterBytes`, for tests. */
export interface DemoAudioControl {
  /** Lets every held answer, and every later one, go on to the end. */
  release(): void;
}

export type WebhookDeliveryMode = 'any' | 'loopbackOnly';
export const WEBHOOK_DELIVERY_MODES: readonly WebhookDeliveryMode[] = ['any', 'loopbackOnly'];

/** Webhook timing in milliseconds of real time; each defaults to the interface's × `timeScale`. */
export interface DemoWebhookTiming {
  /** How long a receiver has to answer; default 5 s × timeScale, but at least 500 ms. */
  timeoutMs?: number;
  /** Wait before the first retry, doubled for each later one; default 1 s × timeScale (1, 2, 4, 8, 16 s). */
  retryDelayMs?: number;
  /**
   * How often the triggers are checked while any webhook exists; default 1 s × timeScale, but at
   * least 50 ms. 0: only when a test calls `webhooks.tick()`.
   */
  checkIntervalMs?: number;
}

/** A test's hand on the demo service's webhooks (never exposed over HTTP). */
export interface DemoWebhookControl {
  /**
   * Checks every trigger now, as the periodic check does (finished actions, online changes, new
   * measurements and events), and starts the deliveries due. Resolves once they have started:
   * await `settled()` for their outcome.
   */
  tick(): Promise<void>;
  /** Deliveries with their attempts, newest first: of one webhook (also a removed one), or of all. */
  deliveries(webhookId?: string): WireDemoDelivery[];
  /** The e-mails the real service would have sent to webhook owners, oldest first. */
  emails(): string[];
  /**
   * Takes an instrument online or offline (the demo has no spontaneous changes). The status
   * endpoint follows at once, recording stops or resumes, and the next check sends
   * InstrumentStatus messages. Throws on an unknown serial.
   */
  setOnline(serial: string, online: boolean): void;
  /** Resolves when no delivery is pending, retries and their waits included. */
  settled(): Promise<void>;
}

/** A test's hand on the demo service's actions (never exposed over HTTP). */
export interface DemoActionControl {
  /** Whether Calibrations and SICs started from now on are held until released. */
  hold(on: boolean): void;
  /** The actions held now. */
  held(): Array<{ serial: string; action: 'Calibration' | 'SIC' }>;
  /** Lets held actions finish — all, or the one on `serial`; returns how many. */
  release(serial?: string): number;
}

/** Fault injection for testing clients against a struggling service. */
export interface DemoFaultOptions {
  /**
   * Share of data requests that get a fault, from 0 (none) to 1 (every one): in turn a 500, a
   * dropped connection, cut-off JSON, a slow answer, or a storm of 429s.
   */
  rate: number;
  /** Seed of which requests get which fault; default the service's `seed`. */
  seed?: number;
}

export interface RunningDemoService {
  /** e.g. 'http://127.0.0.1:43127/v1' */
  baseUrl: string;
  port: number;
  /** The keys the service accepts, with `'*'` resolved to the scope list. */
  keys: Record<string, readonly Scope[]>;
  /** The generated all-scopes key when no keys were given, else null. */
  defaultKey: string | null;
  /** Holding and releasing actions, for tests. */
  actions: DemoActionControl;
  /** Triggers, deliveries and e-mails of webhooks, for tests. */
  webhooks: DemoWebhookControl;
  /** Releasing held audio answers, for tests. */
  audio: DemoAudioControl;
  /**
   * Stops listening, closes open (including keep-alive) connections, and stops every webhook
   * check, delivery and pending retry.
   */
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_RATE_LIMIT = 50;
export const DEFAULT_SEED = 1;
/** The default demo fleet: ten instruments of every kind. */
export const DEFAULT_FLEET_SIZE = 10;
export const MAX_FLEET_SIZE = 100_000;
/** The key the demo service accepts when started without keys; it holds every scope. */
export const DEFAULT_DEMO_KEY = 'demo-key-all-scopes';
/** Where the interface lives on the demo service, like the real service's `/v1`. */
export const DEMO_BASE_PATH = '/v1';

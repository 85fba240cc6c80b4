/** Options and handle of the demo service: the API other layers (tests, harness, CLI) code against. */
import type { Scope } from '../shared/service/scopes';

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
  /** Stops listening and closes open (including keep-alive) connections. */
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

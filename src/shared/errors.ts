/**
 * One typed error family shared by the backend, the IPC layer and the renderer.
 * Errors cross IPC as plain `FieldDeskErrorData` objects (Electron keeps only `message`
 * of a thrown Error), and are rebuilt as `FieldDeskError` on the other side.
 */
export const ERROR_CODES = [
  'offline',
  'unauthorized',
  'forbidden',
  'notFound',
  'rateLimited',
  'invalidRequest',
  'serverError',
  'timeout',
  'badResponse',
  'keychainUnavailable',
  'cancelled',
  'invalidInput',
  'conflict',
  /** The disk refused a write (full, read-only, not allowed): see core/disk-errors.ts. */
  'diskError',
  'noAccount',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldDeskErrorData {
  code: ErrorCode;
  /** Plain-language message for the user. Never a stack trace or a bare status code. */
  message: string;
  retryable: boolean;
  /** HTTP status of the service answer, when there was one. */
  status?: number;
  /** The service's own `error` code, e.g. `AccessDenied`. */
  serverCode?: string;
  /** The scope the key lacks, when the service answered 403 for a known endpoint. */
  missingScope?: string;
  /** Which field of the user's input was wrong (for `invalidInput`). */
  field?: string;
  /** How long the service asked to be left alone (`Retry-After` of a 429), when it said. */
  retryAfterMs?: number;
}

const RETRYABLE_BY_DEFAULT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'offline',
  'rateLimited',
  'serverError',
  'timeout',
]);

export class FieldDeskError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly status?: number;
  readonly serverCode?: string;
  readonly missingScope?: string;
  readonly field?: string;
  readonly retryAfterMs?: number;

  constructor(
    code: ErrorCode,
    message: string,
    extra: Partial<Omit<FieldDeskErrorData, 'code' | 'message'>> & { cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'FieldDeskError';
    this.code = code;
    this.retryable = extra.retryable ?? RETRYABLE_BY_DEFAULT.has(code);
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.serverCode !== undefined) this.serverCode = extra.serverCode;
    if (extra.missingScope !== undefined) this.missingScope = extra.missingScope;
    if (extra.field !== undefined) this.field = extra.field;
    if (extra.retryAfterMs !== undefined) this.retryAfterMs = extra.retryAfterMs;
  }

  toData(): FieldDeskErrorData {
    const data: FieldDeskErrorData = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.status !== undefined) data.status = this.status;
    if (this.serverCode !== undefined) data.serverCode = this.serverCode;
    if (this.missingScope !== undefined) data.missingScope = this.missingScope;
    if (this.field !== undefined) data.field = this.field;
    if (this.retryAfterMs !== undefined) data.retryAfterMs = this.retryAfterMs;
    return data;
  }

  static fromData(data: FieldDeskErrorData): FieldDeskError {
    return new FieldDeskError(data.code, data.message, data);
  }
}

/**
 * Whether an error means the service cannot be reached at all (no connection, no answer in time),
 * as opposed to an answer that refused or failed: the one rule for "offline" everywhere.
 */
export function isUnreachable(error: Pick<FieldDeskErrorData, 'code'>): boolean {
  return error.code === 'offline' || error.code === 'timeout';
}

export function isFieldDeskError(value: unknown): value is FieldDeskError {
  return value instanceof FieldDeskError;
}

/** Turns anything thrown into plain error data without leaking stacks or internals. */
export function toErrorData(error: unknown): FieldDeskErrorData {
  if (error instanceof FieldDeskError) return error.toData();
  return {
    code: 'internal',
    message: 'Something went wrong inside FieldDesk. Try again; if it keeps happening, restart the app.',
    retryable: false,
  };
}

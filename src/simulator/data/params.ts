/**
 * The common query parameters of the data endpoints (`instruments`, `start`, `end`, `period`),
 * checked against the endpoint's limits. Every refusal names the parameter at fault.
 */
import type { Context } from 'hono';
import {
  checkPeriod,
  SERVICE_ERROR_CODES,
  type DataEndpointLimit,
  type InstrumentPeriods,
} from '../../shared/service/limits';
import { formatServiceTime, parseServiceTime } from '../../shared/service/time';
import type { DemoInstrument } from '../fleet';
import { errorResponse } from '../responses';
import type { DemoState } from '../state';
import { describeDuration } from '../../shared/service/duration';

export interface Failure {
  ok: false;
  status: 400 | 404;
  error: string;
  description: string;
}
export type Parsed<T> = { ok: true; value: T } | Failure;

export const invalid = (description: string): Failure => ({
  ok: false,
  status: 400,
  error: SERVICE_ERROR_CODES.invalidParam,
  description,
});
const missing = (name: string, example: string): Failure => ({
  ok: false,
  status: 400,
  error: SERVICE_ERROR_CODES.missingParam,
  description: `The query parameter ${name} is required, e.g. ${example}.`,
});

export function failureResponse(c: Context, failure: Failure): Response {
  return errorResponse(c, failure.status, failure.error, failure.description);
}

/**
 * A list parameter sent repeated (`?values=a&values=b`) or comma-joined (`?values=a,b`), or
 * both; blanks dropped. Undefined when the parameter is absent or holds nothing.
 */
export function listParam(c: Context, name: string): string[] | undefined {
  const raw = c.req.queries(name) ?? [];
  const items = raw
    .flatMap((value) => value.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length === 0 ? undefined : items;
}

/** The selected instruments in the order given, each once; 404 naming every unknown serial. */
export function parseInstruments(c: Context, state: DemoState): Parsed<DemoInstrument[]> {
  const serials = listParam(c, 'instruments');
  if (serials === undefined) return missing('instruments', 'instruments=QT123456,QT654321');
  const unknown = serials.filter((serial) => !state.instruments.has(serial));
  if (unknown.length > 0) {
    const plural = unknown.length > 1;
    return {
      ok: false,
      status: 404,
      error: SERVICE_ERROR_CODES.notFound,
      description: `No instrument${plural ? 's' : ''} with serial number${plural ? 's' : ''} ${unknown.join(', ')}.`,
    };
  }
  const unique = [...new Set(serials)];
  return { ok: true, value: unique.map((serial) => state.instruments.get(serial) as DemoInstrument) };
}

export interface TimeRange {
  startMs: number;
  endMs: number;
}

function parseTimeParam(c: Context, name: 'start' | 'end'): Parsed<number> {
  const text = c.req.query(name);
  if (text === undefined || text.trim() === '') return missing(name, `${name}=2025-06-01T00:00:00Z`);
  const epoch = parseServiceTime(text);
  if (epoch === null) {
    return invalid(
      `The query parameter ${name} ("${text.slice(0, 40)}") is not an ISO 8601 date-time such as 2025-06-01T00:00:00Z.`,
    );
  }
  return { ok: true, value: epoch };
}

/** `start` and `end`: both required, start not after end, the range within the endpoint maximum. */
export function parseRange(c: Context, limit: DataEndpointLimit): Parsed<TimeRange> {
  const start = parseTimeParam(c, 'start');
  if (!start.ok) return start;
  const end = parseTimeParam(c, 'end');
  if (!end.ok) return end;
  if (start.value > end.value) {
    return invalid(
      `The query parameter start (${formatServiceTime(start.value)}) is after end (${formatServiceTime(end.value)}).`,
    );
  }
  if (end.value - start.value > limit.maxRangeMs) {
    return invalid(
      `The range from start to end is longer than ${describeDuration(limit.maxRangeMs)}, the maximum of ${limit.path}.`,
    );
  }
  return { ok: true, value: { startMs: start.value, endMs: end.value } };
}

export interface PeriodChoice {
  periodMs: number;
  /** True when the request named a period (statistical levels are then refused). */
  given: boolean;
}

/** `period`, by the rule the client checks too (`checkPeriod`). */
export function parsePeriod(
  c: Context,
  limit: DataEndpointLimit,
  periods: InstrumentPeriods,
): Parsed<PeriodChoice> {
  const period = checkPeriod(c.req.query('period'), limit, periods);
  return period.ok
    ? { ok: true, value: { periodMs: period.periodMs, given: period.given } }
    : invalid(period.message);
}

export interface DataQuery extends TimeRange {
  instruments: DemoInstrument[];
}

/** `instruments`, `start` and `end`, in the order a person would fix them. */
export function parseDataQuery(c: Context, state: DemoState, limit: DataEndpointLimit): Parsed<DataQuery> {
  // Missing parameters first, so one answer names what is absent before judging values.
  if (listParam(c, 'instruments') === undefined) return missing('instruments', 'instruments=QT123456');
  const range = parseRange(c, limit);
  if (!range.ok) return range;
  const instruments = parseInstruments(c, state);
  if (!instruments.ok) return instruments;
  return { ok: true, value: { ...range.value, instruments: instruments.value } };
}

/** A choice among `allowed`, letter case forgiven; `fallback` when absent or blank. */
export function parseChoice<T extends string>(
  c: Context,
  name: string,
  allowed: readonly T[],
  fallback: T,
): Parsed<T> {
  const text = c.req.query(name);
  if (text === undefined || text.trim() === '') return { ok: true, value: fallback };
  const match = allowed.find((option) => option.toLowerCase() === text.trim().toLowerCase());
  if (match === undefined) {
    return invalid(
      `The query parameter ${name} ("${text.slice(0, 40)}") must be one of ${allowed.join(', ')}.`,
    );
  }
  return { ok: true, value: match };
}

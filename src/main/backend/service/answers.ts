/**
 * Reading the service's answers: JSON that may be cut off on the way, checked against the shared
 * schemas with a message naming the item and field that did not fit, and the service's error bodies.
 */
import { isUtf8 } from 'node:buffer';
import type { z } from 'zod';
import { FieldDeskError } from '../../../shared/errors';
import { errorBodySchema } from '../../../shared/service/schemas';
import { isScope, type Scope } from '../../../shared/service/scopes';
import { findGarbledParts, isJsonPrefix } from './json-text';
import { kindOf } from './wire-kind';

export interface Resource<T> {
  schema: z.ZodType<T>;
  /** "an instrument": used in messages about what was wrong. */
  item: string;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      current = current[Number(key)];
      continue;
    }
    // Field names match case-insensitively (as in the schemas).
    const wanted = String(key).toLowerCase();
    const entry = Object.entries(current).find(([name]) => name.toLowerCase() === wanted);
    current = entry?.[1];
  }
  return current;
}

const EXPECTED_KIND: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** "The service sent an instrument without a serialNumber." and friends. */
export function describeSchemaProblem(
  item: string,
  isList: boolean,
  issue: z.core.$ZodIssue,
  data: unknown,
): string {
  const fieldPath = issue.path.filter((key) => typeof key !== 'number').map(String);
  const actual = valueAt(data, issue.path);
  if (fieldPath.length === 0) {
    const what = isList && issue.path.length === 0 ? `a list of ${item.replace(/^an? /, '')}s` : item;
    return `The service sent ${kindOf(actual)} where FieldDesk expected ${what}.`;
  }
  const field = fieldPath.join('.');
  if (issue.code === 'invalid_type' && actual === undefined) {
    return `The service sent ${item} without ${/^[aeiou]/i.test(field) ? 'an' : 'a'} ${field}.`;
  }
  if (issue.code === 'invalid_type') {
    const expected = EXPECTED_KIND[issue.expected] ?? issue.expected;
    return `The service sent ${item} whose ${field} is ${kindOf(actual)} instead of ${expected}.`;
  }
  return `The service sent ${item} with an unusable ${field}: ${issue.message}.`;
}

export function readErrorBody(data: unknown): { error?: string; description?: string } {
  let body = data;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return {};
    }
  }
  const parsed = errorBodySchema.safeParse(body);
  return parsed.success ? parsed.data : {};
}

/** The scopes named in a 403 description such as "The API key lacks the required scope: a, b." */
export function scopesInDescription(description: string | undefined): Scope[] {
  if (description === undefined) return [];
  const afterLabel = /scopes?\s*:\s*([^]*)$/i.exec(description)?.[1] ?? description;
  const words = afterLabel.split(/[\s,;]+|\band\b/).map((word) => word.replace(/^["'`(]+|["'`).]+$/g, ''));
  return [...new Set(words.filter(isScope))];
}

/**
 * An answer that could not be read as JSON. `cutOff` when it evidently ended early (worth asking a
 * GET again, like a dropped connection); otherwise it may still be a one-off garbling on the way
 * (`retryable` says whether asking again later may help).
 */
export class UnreadableAnswer extends FieldDeskError {
  constructor(
    message: string,
    readonly cutOff: boolean,
    retryable: boolean = cutOff,
  ) {
    super('badResponse', message, { retryable });
  }
}

/**
 * A list item that JSON.parse read but that cannot be what the service sent (a field twice, a text
 * longer than any field: see `findGarbledParts`). It stands where the item was, so a reader that
 * reads items one by one leaves it out and says why, and never takes it for data.
 */
export class UnreadableItem {
  constructor(readonly problem: string) {}
}

/** A body that ended before its end: worth asking again, unlike an answer that is wrong. */
export function cutOffAnswer(resource: string): UnreadableAnswer {
  return new UnreadableAnswer(
    `The service's answer was cut off before the end (expected ${resource}). Try again.`,
    true,
  );
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An answer's bytes as text. Bytes that are not UTF-8 were garbled on the way (the service sends
 * UTF-8 JSON): the answer is unreadable and asked again, never read with replacement characters
 * that would turn a serial number or a name into another one.
 */
export function decodeAnswer(bytes: Uint8Array, resource: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    // A body that ends inside a character was cut there, not garbled: asked again as cut off.
    const whole = wholeCharactersLength(bytes);
    if (whole < bytes.length && isUtf8(bytes.subarray(0, whole))) throw cutOffAnswer(resource);
    throw new UnreadableAnswer(
      `The service's answer arrived garbled: it is not UTF-8 text (expected ${resource}). Try again.`,
      false,
      true,
    );
  }
}

/**
 * How many bytes of `bytes` end with a whole character: all of them, or fewer when the last
 * character's bytes stop short of the length its first byte announces (a cut inside a character).
 */
function wholeCharactersLength(bytes: Uint8Array): number {
  let start = bytes.length - 1;
  // Back over at most three continuation bytes (10xxxxxx) to the character's first byte.
  while (start >= 0 && bytes.length - start <= 3 && (bytes[start]! & 0xc0) === 0x80) start--;
  if (start < 0) return bytes.length;
  const lead = bytes[start]!;
  // The lengths UTF-8 allows (C2–DF two bytes, E0–EF three, F0–F4 four); any other byte is no cut.
  const length =
    lead >= 0xc2 && lead <= 0xdf
      ? 2
      : lead >= 0xe0 && lead <= 0xef
        ? 3
        : lead >= 0xf0 && lead <= 0xf4
          ? 4
          : 1;
  return bytes.length - start < length ? start : bytes.length;
}

export interface ParseOptions {
  /**
   * The caller reads the items of a top-level list one by one: an item with a garbled part becomes
   * an `UnreadableItem` in its place instead of failing the whole answer.
   */
  eachItem?: boolean;
}

/**
 * JSON.parse with plain messages for empty, cut-off and HTML answers, and what JSON.parse lets
 * through refused: a field twice in one object, a text longer than any field (`findGarbledParts`).
 */
export function parseJson(text: string, resource: string, options: ParseOptions = {}): unknown {
  if (text.trim() === '') {
    throw new FieldDeskError(
      'badResponse',
      `The service sent an empty answer where FieldDesk expected ${resource}.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // No `cause`: a JSON.parse error quotes the answer, which is not ours to log.
    if (/^\s*</.test(text)) {
      throw new FieldDeskError(
        'badResponse',
        `The service sent a web page where FieldDesk expected ${resource}. Check the account's address: it should end in /v1.`,
      );
    }
    // Whatever JSON.parse's wording, an answer right in every character up to where it stops was
    // cut off on the way: asked again, never called "not valid JSON".
    if (isJsonPrefix(text)) throw cutOffAnswer(resource);
    throw new UnreadableAnswer(
      `The service sent something that is not valid JSON where FieldDesk expected ${resource}.`,
      false,
    );
  }
  const garbled = findGarbledParts(text);
  if (garbled.length === 0) return data;
  const whole = garbled.find((part) => part.item === null || !options.eachItem || !Array.isArray(data));
  if (whole !== undefined) {
    throw new UnreadableAnswer(
      `The service's answer could not be read (expected ${resource}): ${whole.problem}. Try again.`,
      false,
      true,
    );
  }
  // Counting objects as the scan did, put a placeholder where each garbled item was.
  const problems = new Map(garbled.map((part) => [part.item, part.problem]));
  const items = data as unknown[];
  let objects = -1;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const problem = problems.get(++objects);
    if (problem !== undefined) items[i] = new UnreadableItem(problem);
  }
  return items;
}

/** Checks an answer against a schema; `badResponse` naming the item and field when it does not fit. */
export function validateAnswer<T>(
  data: unknown,
  resource: Resource<T>,
  isList: boolean,
  redact: (text: string) => string,
): T {
  if (data instanceof UnreadableItem) {
    throw new FieldDeskError(
      'badResponse',
      redact(`The service sent ${resource.item} that could not be read: ${data.problem}.`),
    );
  }
  const parsed = resource.schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const message =
    issue === undefined
      ? `The service sent ${resource.item} FieldDesk could not read.`
      : describeSchemaProblem(resource.item, isList, issue, data);
  throw new FieldDeskError('badResponse', redact(message));
}

/**
 * Reads every item of a list on its own, so one item that cannot be read never hides the others:
 * the items read, and one plain sentence per item left out ("… (item 3 of 7).").
 */
export function readEachItem<T>(
  items: readonly unknown[],
  read: (item: unknown) => T,
): { items: T[]; skipped: string[] } {
  const result: { items: T[]; skipped: string[] } = { items: [], skipped: [] };
  items.forEach((item, index) => {
    try {
      result.items.push(read(item));
    } catch (error) {
      if (!(error instanceof FieldDeskError)) throw error;
      result.skipped.push(`${error.message.replace(/\.$/, '')} (item ${index + 1} of ${items.length}).`);
    }
  });
  return result;
}

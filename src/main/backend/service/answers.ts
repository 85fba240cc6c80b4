/**
 * Reading the service's answers: JSON that may be cut off on the way, checked against the shared
 * schemas with a message naming the item and field that did not fit, and the service's error bodies.
 */
import type { z } from 'zod';
import { FieldDeskError } from '../../../shared/errors';
import { errorBodySchema } from '../../../shared/service/schemas';
import { isScope, type Scope } from '../../../shared/service/scopes';
import { isJsonPrefix } from './json-text';
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
 * GET again, like a dropped connection); otherwise it may still be a one-off garbling on the way.
 */
export class UnreadableAnswer extends FieldDeskError {
  constructor(
    message: string,
    readonly cutOff: boolean,
  ) {
    super('badResponse', message, { retryable: cutOff });
  }
}

/** A body that ended before its end: worth asking again, unlike an answer that is wrong. */
export function cutOffAnswer(resource: string): UnreadableAnswer {
  return new UnreadableAnswer(
    `The service's answer was cut off before the end (expected ${resource}). Try again.`,
    true,
  );
}

/** JSON.parse with plain messages for empty, cut-off and HTML answers. */
export function parseJson(text: string, resource: string): unknown {
  if (text.trim() === '') {
    throw new FieldDeskError(
      'badResponse',
      `The service sent an empty answer where FieldDesk expected ${resource}.`,
    );
  }
  try {
    return JSON.parse(text);
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
}

/** Checks an answer against a schema; `badResponse` naming the item and field when it does not fit. */
export function validateAnswer<T>(
  data: unknown,
  resource: Resource<T>,
  isList: boolean,
  redact: (text: string) => string,
): T {
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

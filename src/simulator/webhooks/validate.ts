/**
 * Checks the body of `POST /webhooks` and webhook addresses: which field is wrong and what is
 * allowed, in words a person understands.
 */
import { SERVICE_ERROR_CODES } from '../../shared/service/limits';
import {
  WEBHOOK_SECRET_MAX_LENGTH,
  WEBHOOK_TYPES,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookType,
} from '../../shared/service/webhooks';

export type Checked<T> = { ok: true; value: T } | { ok: false; code: string; description: string };

export interface WebhookRequest {
  type: WebhookType;
  instrument: string;
  url: string;
  /** Null when none (or a blank one) was given: the service generates one. */
  secret: string | null;
}

export interface RequestRules {
  isKnownSerial(serial: string): boolean;
  /** Whether `http://` addresses on this computer are accepted too (`allowLoopbackWebhooks`). */
  allowLoopback: boolean;
}

const EXAMPLE_URL = 'https://example.com/fielddesk-hook';
const TYPE_LIST = WEBHOOK_TYPES.join(', ');

const missing = (description: string): Checked<never> => ({
  ok: false,
  code: SERVICE_ERROR_CODES.missingParam,
  description,
});
const invalid = (description: string): Checked<never> => ({
  ok: false,
  code: SERVICE_ERROR_CODES.invalidParam,
  description,
});

/** At most `max` characters of what the client sent, for quoting it back. */
const quote = (text: string, max = 60): string =>
  JSON.stringify([...text].length > max ? `${[...text].slice(0, max).join('')}…` : text);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Host names that are this computer, as the WHATWG URL parser writes them. */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Whether a delivery to `url` stays on this computer. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHostname(new URL(url).hostname);
  } catch {
    return false;
  }
}

function checkType(value: unknown): Checked<WebhookType> {
  if (value === undefined || value === null || value === '') {
    return missing(`The body has no type: the kind of message to receive, one of ${TYPE_LIST}.`);
  }
  if (typeof value !== 'string') return invalid(`The type must be a string, one of ${TYPE_LIST}.`);
  const exact = WEBHOOK_TYPES.find((type) => type === value.trim());
  if (exact !== undefined) return { ok: true, value: exact };
  const sameLetters = WEBHOOK_TYPES.find((type) => type.toLowerCase() === value.trim().toLowerCase());
  const hint = sameLetters === undefined ? '' : ` Types are case-sensitive: did you mean ${sameLetters}?`;
  return invalid(`The type ${quote(value, 40)} is not a kind of message; use one of ${TYPE_LIST}.${hint}`);
}

function checkInstrument(value: unknown, rules: RequestRules): Checked<string> {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return missing(
      'The body has no instrument: the serial number of the instrument to watch, e.g. QT123456.',
    );
  }
  if (typeof value !== 'string') {
    return invalid('The instrument must be a string: one serial number, e.g. QT123456.');
  }
  const serial = value.trim();
  if (!rules.isKnownSerial(serial)) {
    return invalid(
      `There is no instrument with serial number ${quote(serial, 40)} among this key's instruments.`,
    );
  }
  return { ok: true, value: serial };
}

export function checkUrl(value: unknown, allowLoopback: boolean): Checked<string> {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return missing(`The body has no url: the https address that receives the messages, e.g. ${EXAMPLE_URL}.`);
  }
  if (typeof value !== 'string')
    return invalid(`The url must be a string, an https address such as ${EXAMPLE_URL}.`);
  const text = value.trim();
  const length = [...text].length;
  if (length > WEBHOOK_URL_MAX_LENGTH) {
    return invalid(`The url is ${length} characters long; the limit is ${WEBHOOK_URL_MAX_LENGTH}.`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid(`The url ${quote(text)} is not a web address; give one such as ${EXAMPLE_URL}.`);
  }
  const loopbackHttp = allowLoopback && url.protocol === 'http:' && isLoopbackHostname(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    return invalid(
      `The url ${quote(text)} must start with https://: messages travel only over encrypted connections` +
        (allowLoopback ? ' (this demo service also accepts http:// to 127.0.0.1, localhost or [::1]).' : '.'),
    );
  }
  if (url.hostname === '')
    return invalid(`The url ${quote(text)} has no host name; give one such as ${EXAMPLE_URL}.`);
  if (url.username !== '' || url.password !== '') {
    return invalid(
      'The url must not hold a user name or password; receivers check where a message comes from with the secret.',
    );
  }
  return { ok: true, value: text };
}

function checkSecret(value: unknown): Checked<string | null> {
  if (value === undefined || value === null) return { ok: true, value: null };
  if (typeof value !== 'string') {
    return invalid('The secret must be a string, or left out to have the service generate one.');
  }
  if (value.trim() === '') return { ok: true, value: null };
  const length = [...value].length;
  if (length > WEBHOOK_SECRET_MAX_LENGTH) {
    return invalid(`The secret is ${length} characters long; the limit is ${WEBHOOK_SECRET_MAX_LENGTH}.`);
  }
  if (/\p{Cc}/u.test(value)) {
    return invalid(
      'The secret may hold only printable characters: no line breaks, tabs or other control characters.',
    );
  }
  return { ok: true, value };
}

/** Reads the body of `POST /webhooks`; the first problem found, or the request. */
export function parseWebhookRequest(bodyText: string, rules: RequestRules): Checked<WebhookRequest> {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  if (!isRecord(body)) {
    return missing(
      `The body must be a JSON object such as {"type": "NewEvent", "instrument": "QT123456", "url": "${EXAMPLE_URL}"}.`,
    );
  }
  const type = checkType(body.type);
  if (!type.ok) return type;
  const instrument = checkInstrument(body.instrument, rules);
  if (!instrument.ok) return instrument;
  const url = checkUrl(body.url, rules.allowLoopback);
  if (!url.ok) return url;
  const secret = checkSecret(body.secret);
  if (!secret.ok) return secret;
  return {
    ok: true,
    value: { type: type.value, instrument: instrument.value, url: url.value, secret: secret.value },
  };
}

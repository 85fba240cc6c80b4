/** Limits and constants both the demo service and the client agree on. */

/** The real service's production address (service-facts.md). */
export const PRODUCTION_BASE_URL = 'https://api.mycirrus.cloud/v1';

/**
 * The interface does not state a maximum instrument name length; the web console refuses
 * long names, and 64 characters fits every list and heading FieldDesk shows.
 */
export const INSTRUMENT_NAME_MAX_LENGTH = 64;

/** Error codes of the service's `{ error, description }` bodies (service-facts.md). */
export const SERVICE_ERROR_CODES = {
  missingParam: 'MissingParam',
  notFound: 'NotFound',
  tokenExpired: 'TokenExpired',
  accessDenied: 'AccessDenied',
  tooManyRequests: 'TooManyRequests',
  /** Not documented for the real service: the demo service's answer to a well-formed but bad value. */
  invalidParam: 'InvalidParam',
  /** Not documented for the real service: the demo service's 501 for an endpoint it does not serve yet. */
  notImplemented: 'NotImplemented',
} as const;

/** The header that carries the API key. */
export const API_KEY_HEADER = 'X-Api-Key';

/** How the contract describes one request; shared by contract.ts and the per-domain request tables. */
import { z } from 'zod';

/** A request: its runtime-checked argument and the (trusted, backend-produced) result type. */
export interface RequestSpec<Arg extends z.ZodType, Result> {
  arg: Arg;
  result: Result;
}

/** `request<Result>()(argSchema)`: curried so the argument schema's type is inferred. */
export function request<Result>() {
  return <Arg extends z.ZodType>(arg: Arg): RequestSpec<Arg, Result> =>
    // `result` only carries the type; results come from our own backend and are not re-validated.
    ({ arg, result: undefined as unknown as Result });
}

export const noArgs = z.object({}).strict();

/** An instrument's serial number as a request argument. */
export const serialSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'That is not a valid serial number.');

/** A character that base64 text never holds (padding is checked apart: only at the end). */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/**
 * Base64 text of at most `maxChars` characters. Checked with a scan for a stray character rather
 * than one anchored pattern over the whole text: V8 may compile such a pattern to native code that
 * keeps a backtracking entry per character on the machine stack, and a photo's 44 million
 * characters then overflow it ("Maximum call stack size exceeded" answered as an internal error).
 */
export function base64TextSchema(maxChars: number, messages: { tooLarge: string; notBase64: string }) {
  return z
    .string()
    .max(maxChars, messages.tooLarge)
    .refine((text) => {
      const padding = text.indexOf('=');
      const padded = padding === -1 || (padding >= text.length - 2 && /^=+$/.test(text.slice(padding)));
      return text.length > 0 && padded && !NOT_BASE64.test(text);
    }, messages.notBase64);
}

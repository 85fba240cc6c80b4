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

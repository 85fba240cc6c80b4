/** Checking a form field with the same schema the backend enforces. */
import type { z } from 'zod';

/** The first problem with a field, or `null` when it is fine. */
export function fieldError(schema: z.ZodType, value: string): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Check this field.');
}

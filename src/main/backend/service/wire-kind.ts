/**
 * How a value the service sent is named in `badResponse` messages ("The service sent text where
 * FieldDesk expected a list …"). The schema-checked answers (`client.ts`) and the data answers
 * (`data-parse.ts`) share it so both say the same thing about the same value.
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

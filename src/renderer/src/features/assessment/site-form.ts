/**
 * What the site form holds of a site's report as typed, and how it is checked: the cover's text
 * fields and each instrument's measurement position (its height as typed, read as a number only
 * when saved). The checks are the schemas the backend enforces, so the form says a problem before
 * the save would be refused.
 */
import type { MeasurementPosition, PositionKind, SiteCover } from '../../../../shared/assessment';
import {
  measurementPositionSchema,
  positionHeightSchema,
  siteCoverSchema,
} from '../../../../shared/ipc/assessment-requests';
import { fieldError } from '../../ui/forms';

/** The cover's text fields, as the form asks for them (the status is a choice of its own). */
export type CoverText = Exclude<keyof SiteCover, 'status'>;
export const COVER_FIELDS: ReadonlyArray<{ key: CoverText; label: string; hint: string }> = [
  { key: 'client', label: 'Client', hint: 'Who the report is for, e.g. “Thames Water Utilities Ltd”.' },
  { key: 'project', label: 'Project', hint: 'The project or scheme, e.g. “Mogden sludge dryer”.' },
  { key: 'reference', label: 'Reference', hint: 'Your report reference, e.g. “AC-2026-114”.' },
  { key: 'revision', label: 'Revision', hint: 'Which issue this is, e.g. “R01”.' },
  { key: 'author', label: 'Prepared by', hint: 'The author the cover names, e.g. “J. Smith MIOA”.' },
  { key: 'approver', label: 'Approved by', hint: 'Who checked and approved it, e.g. “A. Patel MIOA”.' },
  { key: 'company', label: 'Issued by', hint: 'Your company, e.g. “Acme Acoustics Ltd”.' },
];

/** The cover before Save is asked for: nothing is said about it yet. */
export const NO_COVER_PROBLEMS = Object.fromEntries(COVER_FIELDS.map((f) => [f.key, null])) as Record<
  CoverText,
  null
>;

/** Each cover text field's problem, or `null`. */
export function coverProblems(cover: SiteCover): Record<CoverText, string | null> {
  return Object.fromEntries(
    COVER_FIELDS.map((f) => [f.key, fieldError(siteCoverSchema.shape[f.key], cover[f.key])]),
  ) as Record<CoverText, string | null>;
}

/** A measurement position as the form holds it: the height as typed, checked when saved. */
export interface PositionRow {
  description: string;
  height: string;
  kind: PositionKind;
}

export const positionRow = (position: MeasurementPosition): PositionRow => ({
  description: position.description,
  height: position.height === null ? '' : String(position.height),
  kind: position.kind,
});

/** A typed height: '' is "not stated"; anything else must read as a number ("1,5" as 1.5). */
const typedHeight = (text: string): number | null =>
  text.trim() === '' ? null : Number(text.trim().replace(',', '.'));

/** The position as saved, from the row as typed (checked first with `positionProblems`). */
export const measurementPosition = (row: PositionRow): MeasurementPosition => ({
  description: row.description,
  height: typedHeight(row.height),
  kind: row.kind,
});

/** What is wrong with a position row's fields, each `null` when nothing is. */
export interface PositionProblems {
  description: string | null;
  height: string | null;
}

export const NO_POSITION_PROBLEMS: PositionProblems = { description: null, height: null };

export function positionProblems(row: PositionRow): PositionProblems {
  // A height is not text: its schema is asked directly, with the height read as a number.
  const height = positionHeightSchema.safeParse(typedHeight(row.height));
  return {
    description: fieldError(measurementPositionSchema.shape.description, row.description),
    height: height.success ? null : (height.error.issues[0]?.message ?? 'Check this field.'),
  };
}

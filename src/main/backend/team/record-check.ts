/**
 * A colleague's record is checked before this laptop keeps it: its id is one FieldDesk gives (a
 * record id names folders, a visit's photos among them), and its content fits the schema records.db
 * reads with — a record that does not is left out and logged, never kept half-understood.
 */
import { z } from 'zod';
import { storedSiteSchema } from '../assessment/site-store';
import { storedCalibratorSchema } from '../calibrators/calibrator-store';
import { storedVisitSchema } from '../visits/visit-store';
import type { JsonRecord, TeamKind } from './team-documents';

/** The ids FieldDesk gives records (UUIDs) and a checklist's kind of instrument. */
export const SAFE_RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

const checklistSchema = z.object({ items: z.array(z.string().max(500)).max(200) });

/** Why a received record cannot be kept, or null when it fits. */
export function recordProblem(kind: TeamKind, recordId: string, record: JsonRecord): string | null {
  const schema: z.ZodType = {
    site: storedSiteSchema,
    visit: storedVisitSchema,
    calibrator: storedCalibratorSchema,
    checklist: checklistSchema,
  }[kind];
  const parsed = schema.safeParse(
    kind === 'site' || kind === 'visit' ? { ...record, accountId: '' } : record,
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue?.path.join('.') || 'the record'}: ${issue?.message ?? 'does not fit'}`;
  }
  if (kind !== 'checklist' && record['id'] !== recordId) return 'its id is not the document’s';
  return null;
}

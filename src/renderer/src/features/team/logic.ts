/** What the team screen says of its state and of a conflict: titles, tones and the fields that differ. */
import {
  teamRecordTitle,
  type TeamConflict,
  type TeamPhase,
  type TeamVersion,
} from '../../../../shared/team';
import type { IconName } from '../../ui/Icon.vue';
import type { Tone } from '../../ui/tone';

export const PHASE_LOOK: Record<TeamPhase, { tone: Tone; icon: IconName; label: string }> = {
  upToDate: { tone: 'ok', icon: 'check', label: 'Up to date' },
  sending: { tone: 'info', icon: 'send', label: 'Sending' },
  connecting: { tone: 'neutral', icon: 'refresh', label: 'Connecting' },
  unreachable: { tone: 'warning', icon: 'cloud-off', label: 'Unreachable' },
  refused: { tone: 'danger', icon: 'error', label: 'Refused' },
  local: { tone: 'neutral', icon: 'idle', label: 'Not replicating' },
};

/** The record a conflict is about, named as its screens name it. */
export function conflictTitle(conflict: TeamConflict): string {
  const record = conflict.versions.find((v) => v.record !== null)?.record ?? {};
  return teamRecordTitle(conflict.kind, conflict.recordId, record);
}

/** "Edited on two laptops" or "Deleted by Bob Meter while Ann Field edited it". */
export function conflictSummary(conflict: TeamConflict): string {
  if (conflict.type === 'edited')
    return `Edited differently by ${[...new Set(conflict.versions.map((v) => v.changedBy))].join(' and ')}`;
  const deletedBy = conflict.versions.filter((v) => v.deleted).map((v) => v.changedBy);
  const editedBy = conflict.versions.filter((v) => !v.deleted).map((v) => v.changedBy);
  return `Deleted by ${[...new Set(deletedBy)].join(' and ')} while ${[...new Set(editedBy)].join(' and ')} edited it`;
}

/** Bookkeeping every version differs in; not what the user chooses between. */
const IGNORED = new Set(['updatedAt', 'createdAt', 'id']);

const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  timeZone: 'Time zone',
  serials: 'Instruments',
  exclusions: 'Exclusions',
  limits: 'Limits',
  rules: 'Exclusion rules',
  notes: 'Notes',
  checklist: 'Checklist',
  photos: 'Photos',
  leftAt: 'Left',
  dueDate: 'Due date',
  certificateDate: 'Certificate date',
  levelsDb: 'Nominal levels',
  retired: 'Retired',
  model: 'Model',
  serial: 'Serial',
};

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value))
    return value.every((v) => typeof v !== 'object') ? value.join(', ') : `${value.length} item(s)`;
  if (typeof value === 'object') return 'changed';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** The fields whose values differ between the versions, each with its value per version. */
export function differingFields(
  versions: readonly TeamVersion[],
): Array<{ label: string; values: string[] }> {
  const live = versions.filter((v) => v.record !== null);
  const keys = new Set(live.flatMap((v) => Object.keys(v.record ?? {})));
  const rows: Array<{ label: string; values: string[] }> = [];
  for (const key of keys) {
    if (IGNORED.has(key)) continue;
    const shown = versions.map((v) =>
      v.record === null ? 'Deleted' : JSON.stringify(v.record[key] ?? null),
    );
    if (new Set(shown).size <= 1) continue;
    rows.push({
      label: FIELD_LABELS[key] ?? key,
      values: versions.map((v) => (v.record === null ? 'Deleted' : valueText(v.record[key]))),
    });
  }
  return rows;
}

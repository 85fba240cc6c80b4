/**
 * What the report says of a noise event beyond what the assessment keeps: the levels the instrument
 * measured over it (the service's `overall` list, kept as the list text "71.2, 78.4, 92.1" in the
 * records; its meaning is not documented, so it is shown as the list it is) and its recording as
 * the file FieldDesk saves it under (audio/library.ts), never the service's opaque id. The trigger
 * level an event record carries is the threshold that started it, not a measurement: it is said
 * as the trigger, never as the event's level.
 */
import type { AssessmentResult, NoiseEventRef } from '../../../../shared/assessment';
import type { Recording } from '../../../../shared/audio';
import type { AssessmentInputs } from '../assessment-inputs';
import { libraryFileName } from '../../audio/library';

/** The numbers of a list cell ("71.2, 78.4, –"): a missing item ("–") left out. */
function listNumbers(cell: unknown): number[] {
  if (typeof cell !== 'string') return [];
  return cell
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '' && item !== '–')
    .map(Number)
    .filter(Number.isFinite);
}

/**
 * The assessment's events with their measured levels and recording start, read from the event
 * records the assessment was formed from (matched by instrument and start).
 */
export function withEventDetails(result: AssessmentResult, inputs: AssessmentInputs): AssessmentResult {
  const rows = new Map<string, Record<string, unknown>>();
  for (const instrument of inputs.instruments) {
    for (const row of instrument.reads.events?.records?.rows ?? []) {
      if (typeof row.startTime === 'number')
        rows.set(`${instrument.instrument.serial}|${row.startTime}`, row);
    }
  }
  return {
    ...result,
    events: result.events.map((event) => {
      const row = rows.get(`${event.serial}|${event.start}`);
      if (row === undefined) return event;
      const measured = listNumbers(row.overall);
      return {
        ...event,
        ...(measured.length > 0 ? { measured } : {}),
        ...(typeof row.audioTime === 'number' ? { audioStart: row.audioTime } : {}),
      };
    }),
  };
}

/**
 * The file an event's recording is saved as when downloaded (FLAC, the service's default):
 * "NM-1043 2026-11-24 011700 LAFMax above 65 dB.flac"; null without a recording.
 */
export function recordingFileName(event: NoiseEventRef): string | null {
  if (event.audioId === null) return null;
  const start = event.audioStart ?? event.start;
  const recording: Recording = {
    id: event.audioId,
    source: 'event',
    serial: event.serial,
    start,
    end: event.end ?? start,
    triggerStart: event.start,
    triggerEnd: event.end,
    triggerName: event.trigger,
  };
  return libraryFileName(recording, 'FLAC');
}

/** "71.2, 78.4, 92.1" (dB, to 0.1), or "not reported". */
export const measuredText = (event: NoiseEventRef): string =>
  event.measured && event.measured.length > 0
    ? event.measured.map((level) => level.toFixed(1)).join(', ')
    : 'not reported';

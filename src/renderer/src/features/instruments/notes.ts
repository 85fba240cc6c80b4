/**
 * The notes of tolerant reading (`notes` on an instrument, its status and its last calibration
 * and SIC): which fact each note is about, so the detail page shows it next to that fact and says
 * "Not shown — see note" where a value was left out, instead of passing a fallback off as a fact.
 *
 * The notes are plain sentences written by src/shared/service/schemas.ts; the patterns below
 * follow its wording (tests read real answers through those schemas to keep the two in step). A
 * note no pattern knows is still shown, with the other notes of its part.
 */
import type { InstrumentEntry } from '../../../../shared/ipc/contract';
import type { InstrumentStatus } from '../../../../shared/service/schemas';

/** A value that a note can explain the absence of. */
export type NotedFact =
  | 'measuring'
  | 'calibrating'
  | 'sicRunning'
  | 'lastCalibration'
  | 'lastSic'
  | 'calibrationLevel'
  | 'calibrationOffset'
  | 'sic500Hz'
  | 'sic1kHz'
  | 'sic8kHz'
  | 'image'
  | 'subscription'
  | 'position'
  | 'features';

/** The part of the detail page a note is shown in. */
export type NoteSection = 'status' | 'calibration' | 'sic' | 'instrument' | 'subscription';

export interface EntryNote {
  /** As a sentence: capital first letter, full stop. */
  text: string;
  fact: NotedFact | null;
  section: NoteSection;
}

type Pattern = [RegExp, NotedFact];

// Anchored at the start of the note, so a quoted value inside it cannot be taken for the subject.
const INSTRUMENT_PATTERNS: Pattern[] = [
  [/^the subscription/i, 'subscription'],
  [/^the (reported )?position/i, 'position'],
  [/^the feature list/i, 'features'],
  // The image address is the instrument's only free-text field that is read tolerantly.
  [/^a text field/i, 'image'],
];
const STATUS_PATTERNS: Pattern[] = [
  [/^whether it is measuring/i, 'measuring'],
  [/^whether a calibration is running/i, 'calibrating'],
  [/^whether a SIC is running/i, 'sicRunning'],
  [/^the last calibration/i, 'lastCalibration'],
  [/^the last SIC/i, 'lastSic'],
];
const CALIBRATION_PATTERNS: Pattern[] = [
  [/^the (reported )?calibration level/i, 'calibrationLevel'],
  [/^the (reported )?calibration offset/i, 'calibrationOffset'],
];
const SIC_PATTERNS: Pattern[] = [
  [/^the (reported )?500 Hz level/i, 'sic500Hz'],
  [/^the (reported )?1 kHz level/i, 'sic1kHz'],
  [/^the (reported )?8 kHz level/i, 'sic8kHz'],
];

const SECTION_OF_FACT: Record<NotedFact, NoteSection> = {
  measuring: 'status',
  calibrating: 'status',
  sicRunning: 'status',
  lastCalibration: 'calibration',
  lastSic: 'sic',
  calibrationLevel: 'calibration',
  calibrationOffset: 'calibration',
  sic500Hz: 'sic',
  sic1kHz: 'sic',
  sic8kHz: 'sic',
  image: 'instrument',
  subscription: 'subscription',
  position: 'instrument',
  features: 'instrument',
};

/** "the reported level … is not shown" → "The reported level … is not shown." */
export function noteSentence(note: string): string {
  const text = note.trim();
  if (text === '') return text;
  const sentence = text[0]!.toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

function attribute(
  notes: readonly string[] | undefined,
  patterns: Pattern[],
  fallback: NoteSection,
): EntryNote[] {
  return (notes ?? []).map((note) => {
    const fact = patterns.find(([pattern]) => pattern.test(note))?.[1] ?? null;
    return { text: noteSentence(note), fact, section: fact === null ? fallback : SECTION_OF_FACT[fact] };
  });
}

/** Every note about an entry, each with the fact it explains (if known) and where it is shown. */
export function entryNotes(entry: InstrumentEntry): EntryNote[] {
  const status = entry.status;
  return [
    ...attribute(entry.instrument.notes, INSTRUMENT_PATTERNS, 'instrument'),
    ...attribute(status?.notes, STATUS_PATTERNS, 'status'),
    ...attribute(status?.lastCalibration?.notes, CALIBRATION_PATTERNS, 'calibration'),
    ...attribute(status?.lastSic?.notes, SIC_PATTERNS, 'sic'),
  ];
}

/** How many notes an entry has (for the list row's marker). */
export function noteCount(entry: InstrumentEntry): number {
  const status = entry.status;
  return (
    (entry.instrument.notes?.length ?? 0) +
    (status?.notes?.length ?? 0) +
    (status?.lastCalibration?.notes?.length ?? 0) +
    (status?.lastSic?.notes?.length ?? 0)
  );
}

/** What a left-out value reads where a note explains it. */
export const LEFT_OUT_TEXT = 'Not shown — see note';

/** The notes of one section, and which facts in it were left out. */
export interface SectionNotes {
  notes: EntryNote[];
  leftOut: ReadonlySet<NotedFact>;
}

export function sectionNotes(notes: readonly EntryNote[], section: NoteSection): SectionNotes {
  const mine = notes.filter((note) => note.section === section);
  return {
    notes: mine,
    leftOut: new Set(mine.flatMap((note) => (note.fact === null ? [] : [note.fact]))),
  };
}

/** The fact's text, or "Not shown — see note" when a note says it was left out. */
export function factText(section: SectionNotes, fact: NotedFact, text: string): string {
  return section.leftOut.has(fact) ? LEFT_OUT_TEXT : text;
}

/** The facts of an entry that notes say were left out. */
export function leftOutFacts(entry: InstrumentEntry): ReadonlySet<NotedFact> {
  if (noteCount(entry) === 0) return new Set();
  return new Set(entryNotes(entry).flatMap((note) => (note.fact === null ? [] : [note.fact])));
}

const ACTIVITY_FACTS: ReadonlySet<NotedFact> = new Set(['measuring', 'calibrating', 'sicRunning']);

/** Whether a status's measuring, calibrating or SIC flag could not be read (so it reads `false`). */
export function activityUnreadable(status: InstrumentStatus): boolean {
  return attribute(status.notes, STATUS_PATTERNS, 'status').some(
    (note) => note.fact !== null && ACTIVITY_FACTS.has(note.fact),
  );
}

/**
 * Site visits: the engineer's own record of a visit to a site or instrument — arrival, engineer, a
 * checklist per instrument, notes and photos — kept in the user's records (records.db), never sent
 * to the service. The actions run on the visited instruments while the visit was open are linked to
 * it by time, so a visit sheet names them with their verdicts.
 */
import { bytesText } from './format';
import { checkOfOutcome, checkVerdictsText, type CheckRecord } from './check-record';
import type { ActionRecord, CalibrationOutcome, SicOutcome } from './operations';

export const INSTRUMENT_KINDS = ['Noise', 'AirQuality', 'Vibration'] as const;
export type VisitInstrumentKind = (typeof INSTRUMENT_KINDS)[number];

/** What the engineer found for one checklist item: done/fine, an issue (with a note), or not applicable. */
export const CHECK_STATES = ['ok', 'issue', 'na'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

export const CHECK_STATE_LABELS: Readonly<Record<CheckState, string>> = {
  ok: 'Done',
  issue: 'Issue',
  na: 'Not applicable',
};

export const VISIT_ENGINEER_MAX = 80;
export const VISIT_NOTES_MAX = 8_000;
export const CHECK_LABEL_MAX = 120;
export const CHECK_NOTE_MAX = 500;
export const CHECKLIST_MAX_ITEMS = 40;
export const PHOTO_CAPTION_MAX = 200;
/** Photos one visit holds at most: a visit sheet shows them, not an album. */
export const VISIT_PHOTOS_MAX = 24;
/** A phone's photo is a few MB; a file past this is not a site photo. */
export const PHOTO_MAX_BYTES = 25 * 1024 * 1024;

/** Why a file past PHOTO_MAX_BYTES is not added, in one wording wherever it is found. */
export const photoTooLargeText = (name: string): string =>
  `“${name}” is larger than FieldDesk keeps for a photo (${bytesText(PHOTO_MAX_BYTES)} at most). Export a smaller copy from the phone or camera.`;
/** The thumbnail the backend makes of each photo: its longer side (px), a JPEG. */
export const THUMBNAIL_EDGE_PX = 480;
/** A reduced copy's longer side (px): sharp on a laptop's screen and on the sheet, a megabyte or two. */
export const REDUCED_EDGE_PX = 2560;

/** A photo chosen in the system's dialog: its path stays in the main process, named by `token`. */
export interface ChosenPhoto {
  token: string;
  fileName: string;
  bytes: number;
}

/**
 * The checklist a new visit starts with, per kind of instrument (the user may edit each list in
 * Settings, and any visit's own items).
 */
export const DEFAULT_CHECKLISTS: Readonly<Record<VisitInstrumentKind, readonly string[]>> = {
  Noise: [
    'State on arrival',
    'Calibration before',
    'SIC',
    'Windshield and microphone inspected',
    'Battery or power',
    'Mast and cables',
    'Calibration after',
  ],
  AirQuality: ['State on arrival', 'Inlet and filter inspected', 'Battery or power', 'Mast and cables'],
  Vibration: ['State on arrival', 'Sensor mounting inspected', 'Battery or power', 'Cables'],
};

export interface ChecklistItem {
  id: string;
  /** The instrument the item is about. */
  serial: string;
  label: string;
  /** Null until the engineer says. */
  state: CheckState | null;
  note: string;
}

export interface VisitPhoto {
  id: string;
  /** The name of the file the engineer chose (shown, and on the sheet). */
  fileName: string;
  caption: string;
  /** The copy's file name in the visit's folder of the data folder. */
  storedName: string;
  bytes: number;
  addedAt: number;
}

export interface VisitInstrument {
  serial: string;
  /** As last known when the visit started (the sheet is read offline). */
  name: string;
  model: string;
  type: string;
}

export interface SiteVisit {
  id: string;
  accountId: string;
  /** The assessment site visited, when the visit was started for one. */
  site: { id: string; name: string } | null;
  instruments: VisitInstrument[];
  engineer: string;
  arrivedAt: number;
  /** Null while the visit is open. */
  leftAt: number | null;
  /**
   * A reopened visit's departure before it was reopened, kept (and offered) until it is finished
   * again; absent or null otherwise.
   */
  keptLeftAt?: number | null;
  checklist: ChecklistItem[];
  notes: string;
  photos: VisitPhoto[];
  createdAt: number;
  updatedAt: number;
}

/** A visit with the actions run on its instruments while it was open (newest first). */
export interface VisitDetail {
  visit: SiteVisit;
  actions: ActionRecord[];
}

/** A visit in a list: enough to name it and say what was found. */
export interface VisitSummary {
  id: string;
  site: { id: string; name: string } | null;
  serials: string[];
  engineer: string;
  arrivedAt: number;
  leftAt: number | null;
  /** Checklist items marked as an issue. */
  issues: number;
  /** Items not yet answered. */
  open: number;
  photos: number;
}

export interface VisitList {
  visits: VisitSummary[];
  /** Visits whose stored record could not be read (left out, counted). */
  unreadable: number;
}

export interface VisitSheetResult {
  saved: boolean;
  path?: string;
  fileName?: string;
  bytes?: number;
  pages?: number;
}

/** The instrument kind whose checklist applies to a service type word. */
export function visitKind(type: string): VisitInstrumentKind {
  const lower = type.toLowerCase();
  if (lower.startsWith('air')) return 'AirQuality';
  if (lower.startsWith('vib')) return 'Vibration';
  return 'Noise';
}

/** Whether an action belongs to a visit: on one of its instruments, started while it was open. */
export function actionDuringVisit(
  visit: Pick<SiteVisit, 'instruments' | 'arrivedAt' | 'leftAt'>,
  action: Pick<ActionRecord, 'serial' | 'startedAt'>,
  now: number,
): boolean {
  const end = visit.leftAt ?? now;
  return (
    visit.instruments.some((i) => i.serial === action.serial) &&
    action.startedAt >= visit.arrivedAt &&
    action.startedAt <= end
  );
}

export function summariseVisit(visit: SiteVisit): VisitSummary {
  return {
    id: visit.id,
    site: visit.site,
    serials: visit.instruments.map((i) => i.serial),
    engineer: visit.engineer,
    arrivedAt: visit.arrivedAt,
    leftAt: visit.leftAt,
    issues: visit.checklist.filter((c) => c.state === 'issue').length,
    open: visit.checklist.filter((c) => c.state === null).length,
    photos: visit.photos.length,
  };
}

// ---- checklist items filled from the linked actions ------------------------------------------------

/** Which check a checklist item is about, from its words (the templates are the user's own). */
function itemCheck(label: string): { kind: 'calibration' | 'sic'; when: 'before' | 'after' | 'last' } | null {
  const words = label.toLowerCase();
  if (/\bsic\b|integrity/.test(words)) return { kind: 'sic', when: 'last' };
  if (!/calibrat/.test(words)) return null;
  return {
    kind: 'calibration',
    when: /before|arriv/.test(words) ? 'before' : /after|leav/.test(words) ? 'after' : 'last',
  };
}

/** An item's answer from one run: Done for a pass, Issue for a fail, the verdict and figures as the note. */
function answerOf(kind: 'calibration' | 'sic', run: CheckRecord): Pick<ChecklistItem, 'state' | 'note'> {
  const what = kind === 'sic' ? 'SIC' : 'calibration';
  return {
    state: run.passed ? 'ok' : 'issue',
    note: `From the ${what} run from FieldDesk: ${checkVerdictsText(run)}`.slice(0, CHECK_NOTE_MAX),
  };
}

/**
 * The checklist with its calibration and SIC items answered from the actions run on their
 * instrument during the visit (`actions` newest first): Done for a pass, Issue for a fail, the
 * verdict and figures as the note (shared/check-record.ts, as every output writes a check).
 * "Calibration before" takes the first calibration, "Calibration after" the last one of two or more.
 * Only an item nobody answered or wrote on is filled, and one FieldDesk filled follows a newer run
 * until the engineer changes it (its answer or note then differ from every run's): the engineer's
 * own answer or note is never replaced. Null when nothing changed.
 */
export function checklistFromActions(
  checklist: readonly ChecklistItem[],
  actions: readonly ActionRecord[],
): ChecklistItem[] | null {
  let changed = false;
  const filled = checklist.map((item) => {
    const check = itemCheck(item.label);
    if (check === null) return item;
    // Oldest first, only those with a verdict.
    const runs = actions
      .filter((a) => a.serial === item.serial && a.result?.kind === check.kind)
      .map((a) => checkOfOutcome(a.result as CalibrationOutcome | SicOutcome))
      .filter((c) => c.passed !== null)
      .sort((a, b) => a.time - b.time);
    const run =
      check.when === 'before'
        ? runs[0]
        : check.when === 'after'
          ? runs.length > 1
            ? runs.at(-1)
            : undefined
          : runs.at(-1);
    if (run === undefined) return item;
    const untouched = item.state === null && item.note.trim() === '';
    const filledByFieldDesk = runs.some((r) => {
      const answer = answerOf(check.kind, r);
      return answer.state === item.state && answer.note === item.note;
    });
    if (!untouched && !filledByFieldDesk) return item;
    const answer = answerOf(check.kind, run);
    if (answer.state === item.state && answer.note === item.note) return item;
    changed = true;
    return { ...item, ...answer };
  });
  return changed ? filled : null;
}

/**
 * The detail page's notes, read from answers passed through the real schemas of
 * src/shared/service/schemas.ts: if their wording changes, these tests say which note lost its fact.
 */
import { describe, expect, it } from 'vitest';
import type { InstrumentEntry } from '../../../src/shared/ipc/contract';
import { instrumentSchema, instrumentStatusSchema } from '../../../src/shared/service/schemas';
import {
  entryNotes,
  factText,
  LEFT_OUT_TEXT,
  leftOutFacts,
  noteCount,
  noteSentence,
  sectionNotes,
} from '../../../src/renderer/src/features/instruments/notes';
import {
  entryState,
  filterEntries,
  instrumentState,
  rowKeyTarget,
  EMPTY_FILTER,
} from '../../../src/renderer/src/features/instruments/logic';
import { entry } from './fixtures';

const goodStatus = {
  online: true,
  measuring: true,
  calibrationInProgress: false,
  sicInProgress: false,
  lastCalibration: { time: '2026-03-01T08:00:00Z', status: 'Success', level: 94.1, offset: 0.1 },
  lastSic: { time: '2026-03-01T09:00:00Z', status: 'Success', _500Hz: 80, _1KHz: 85, _8KHz: 75 },
};

/** An entry whose instrument and status are read from wire answers by the real schemas. */
function readEntry(wireInstrument: object, wireStatus: object): InstrumentEntry {
  return {
    instrument: instrumentSchema.parse({ type: 'Noise', serialNumber: 'QT1', ...wireInstrument }),
    status: instrumentStatusSchema.parse(wireStatus),
    statusError: null,
  };
}

describe('notes of tolerant reading', () => {
  it('puts each note beside the fact it explains and says that fact is not shown', () => {
    const read = readEntry(
      { position: { lat: 0, long: 0 }, subscription: 'gold', feature: 'SIC', image: { url: 'x' } },
      {
        ...goodStatus,
        measuring: 'maybe',
        lastCalibration: { ...goodStatus.lastCalibration, level: 1e29, offset: 'high' },
        lastSic: { ...goodStatus.lastSic, _500Hz: -4, _1KHz: 'loud', _8KHz: 1e9 },
      },
    );
    const notes = entryNotes(read);
    expect(notes.every((note) => note.fact !== null)).toBe(true);
    expect(noteCount(read)).toBe(notes.length);
    expect([...leftOutFacts(read)].sort()).toEqual(
      [
        'calibrationLevel',
        'calibrationOffset',
        'features',
        'image',
        'measuring',
        'position',
        'sic1kHz',
        'sic500Hz',
        'sic8kHz',
        'subscription',
      ].sort(),
    );

    const calibration = sectionNotes(notes, 'calibration');
    expect(calibration.notes.map((n) => n.text)).toContain(
      'The reported calibration level of 1e+29 dB cannot be right, so it is not shown.',
    );
    expect(factText(calibration, 'calibrationLevel', '—')).toBe(LEFT_OUT_TEXT);
    expect(sectionNotes(notes, 'status').notes.map((n) => n.text)).toEqual([
      'Whether it is measuring could not be read.',
    ]);
    expect(sectionNotes(notes, 'subscription').leftOut.has('subscription')).toBe(true);
    expect(sectionNotes(notes, 'instrument').leftOut).toEqual(new Set(['position', 'features', 'image']));
  });

  it('tells a last calibration that could not be read from one that never happened', () => {
    const unreadable = readEntry({}, { ...goodStatus, lastCalibration: { time: 'soon' }, lastSic: 7 });
    expect(unreadable.status?.lastCalibration).toBeNull();
    const notes = sectionNotes(entryNotes(unreadable), 'calibration');
    expect(factText(notes, 'lastCalibration', 'Never calibrated')).toBe(LEFT_OUT_TEXT);
    expect(factText(sectionNotes(entryNotes(unreadable), 'sic'), 'lastSic', 'Never run')).toBe(LEFT_OUT_TEXT);

    const never = readEntry({}, { ...goodStatus, lastCalibration: {} });
    expect(never.status?.lastCalibration).toBeNull();
    expect(noteCount(never)).toBe(0);
    expect(
      factText(sectionNotes(entryNotes(never), 'calibration'), 'lastCalibration', 'Never calibrated'),
    ).toBe('Never calibrated');
  });

  it('keeps a note it cannot place with the other notes of its part', () => {
    const odd: InstrumentEntry = {
      ...entry('QT1', 'Gate'),
      instrument: { ...entry('QT1', 'Gate').instrument },
    };
    odd.instrument.notes = ['the moon was in the wrong phase'];
    const [note] = entryNotes(odd);
    expect(note).toEqual({ text: 'The moon was in the wrong phase.', fact: null, section: 'instrument' });
    expect(leftOutFacts(odd).size).toBe(0);
  });

  it('writes notes as sentences', () => {
    expect(noteSentence('the position could not be read')).toBe('The position could not be read.');
    expect(noteSentence('Already a sentence.')).toBe('Already a sentence.');
  });
});

describe('states that are not facts', () => {
  it('says "Online", not "Idle", when whether it is measuring could not be read', () => {
    const read = readEntry({}, { ...goodStatus, measuring: 'perhaps' });
    expect(read.status?.measuring).toBe(false);
    expect(instrumentState(read.status)).toBe('online');
    expect(instrumentState(readEntry({}, { ...goodStatus, measuring: false }).status)).toBe('idle');
  });

  it('says a large fleet’s status is loading, and only "All states" shows those rows', () => {
    const pending: InstrumentEntry = { ...entry('QT9', 'Far away', { status: null }), statusPending: true };
    expect(entryState(pending)).toBe('pending');
    expect(filterEntries([pending], EMPTY_FILTER)).toHaveLength(1);
    expect(filterEntries([pending], { ...EMPTY_FILTER, state: 'unknown' })).toHaveLength(0);
    expect(filterEntries([pending], { ...EMPTY_FILTER, state: 'online' })).toHaveLength(0);
  });
});

describe('moving between rows with the keyboard', () => {
  it('moves by one, by a page, to either end, and stays inside the list', () => {
    expect(rowKeyTarget('ArrowDown', 0, 1000, 15)).toBe(1);
    expect(rowKeyTarget('ArrowUp', 0, 1000, 15)).toBe(0);
    expect(rowKeyTarget('PageDown', 10, 1000, 15)).toBe(24);
    expect(rowKeyTarget('PageUp', 10, 1000, 15)).toBe(0);
    expect(rowKeyTarget('End', 10, 1000, 15)).toBe(999);
    expect(rowKeyTarget('Home', 500, 1000, 15)).toBe(0);
    expect(rowKeyTarget('ArrowDown', 999, 1000, 15)).toBe(999);
    expect(rowKeyTarget('Enter', 3, 1000, 15)).toBeNull();
    expect(rowKeyTarget('ArrowDown', 0, 0, 15)).toBeNull();
  });
});

/**
 * Nothing typed is lost (ui/autosave.ts): text saved once typing stops and at once when the field
 * is left or another change is made — in that order, so a change never overtakes the text typed
 * before it; a draft that brings typed text back after a reload and saves it; a failed save that
 * keeps the text and tries again; a record changed elsewhere never overwriting text being typed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAutosave } from '../../../src/renderer/src/ui/autosave';
import { FieldDeskError } from '../../../src/shared/errors';

/** Local storage as a map, readable by the test. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

/** A record of fields, saved with a delay the test controls; every save and change logged in order. */
function record() {
  const stored = { notes: '', note1: '' };
  const log: string[] = [];
  let failNext: string | null = null;
  const saver = (field: keyof typeof stored) => async (text: string) => {
    await Promise.resolve();
    if (failNext !== null) {
      const message = failNext;
      failNext = null;
      throw new FieldDeskError('diskError', message);
    }
    stored[field] = text;
    log.push(`${field}=${text}`);
  };
  return {
    stored,
    log,
    saver,
    failOnce: (message: string) => (failNext = message),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('autosave', () => {
  it('saves the text once typing stops, once, with the last text typed', async () => {
    const storage = memoryStorage();
    const { stored, log, saver } = record();
    const editor = createAutosave('visit:1', { storage, delayMs: 800 });
    const notes = editor.text('notes', { stored: () => stored.notes, save: saver('notes') });
    notes.input('Mast');
    notes.input('Mast leaning');
    expect(editor.state.value).toBe('unsaved');
    // Kept as a draft from the first keystroke.
    expect(storage.items.get('fielddesk.draft.visit:1.notes')).toContain('Mast leaning');
    await vi.advanceTimersByTimeAsync(799);
    expect(log).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await editor.flush();
    expect(log).toEqual(['notes=Mast leaning']);
    expect(editor.state.value).toBe('saved');
    expect(storage.items.size).toBe(0);
  });

  it('saves a note typed before the next answer first, when the answer is given at once', async () => {
    const { stored, log, saver } = record();
    const editor = createAutosave('visit:1', { storage: memoryStorage() });
    const note = editor.text('note1', { stored: () => stored.note1, save: saver('note1') });
    note.input('Windshield torn');
    // No blur, no pause: the next item answered at once.
    const answered = editor.change(async () => {
      log.push(`answer: sees note "${stored.note1}"`);
    });
    await expect(answered).resolves.toBe(true);
    expect(log).toEqual(['note1=Windshield torn', 'answer: sees note "Windshield torn"']);
  });

  it('brings back a draft typed before a reload, shows it and saves it', async () => {
    const storage = memoryStorage();
    const { stored, log, saver } = record();
    const before = createAutosave('visit:1', { storage });
    before.text('notes', { stored: () => stored.notes, save: saver('notes') }).input('Guy rope re-tensioned');
    // The page goes away before the save (reload, close, crash): only the draft is left.
    expect(log).toEqual([]);

    const after = createAutosave('visit:1', { storage });
    const notes = after.text('notes', { stored: () => stored.notes, save: saver('notes') });
    expect(notes.text.value).toBe('Guy rope re-tensioned');
    await after.flush();
    expect(log).toEqual(['notes=Guy rope re-tensioned']);
    expect(storage.items.size).toBe(0);
    // Another record's fields are not touched by it.
    const other = createAutosave('visit:2', { storage });
    expect(other.text('notes', { stored: () => 'theirs', save: saver('notes') }).text.value).toBe('theirs');
  });

  it('keeps the text and its draft when a save fails, says why, and saves it on the next try', async () => {
    const storage = memoryStorage();
    const { stored, log, saver, failOnce } = record();
    const editor = createAutosave('visit:1', { storage });
    const notes = editor.text('notes', { stored: () => stored.notes, save: saver('notes') });
    failOnce('The disk is full.');
    notes.input('Replaced the battery');
    notes.blur();
    await vi.waitFor(() => expect(editor.state.value).toBe('failed'));
    expect(editor.textError.value).toBe('The disk is full.');
    expect(notes.problem.value).toBe('The disk is full.');
    expect(notes.text.value).toBe('Replaced the battery');
    expect(storage.items.size).toBe(1);
    // Another change of the page tries the text first, and both are saved.
    await editor.change(async () => void log.push('finished'));
    expect(log).toEqual(['notes=Replaced the battery', 'finished']);
    expect(editor.state.value).toBe('saved');
    expect(editor.textError.value).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('keeps text that cannot be saved as it is, saying why, until it can', async () => {
    const { stored, log, saver } = record();
    stored.notes = 'Asha Patel';
    const editor = createAutosave('visit:1', { storage: memoryStorage() });
    const engineer = editor.text('notes', {
      stored: () => stored.notes,
      save: saver('notes'),
      check: (text) => (text.trim() === '' ? 'Name the engineer.' : null),
    });
    engineer.input('');
    engineer.blur();
    await editor.flush();
    expect(engineer.problem.value).toBe('Name the engineer.');
    expect(log).toEqual([]);
    engineer.input('Tom Reyes');
    engineer.blur();
    await editor.flush();
    expect(log).toEqual(['notes=Tom Reyes']);
    expect(engineer.problem.value).toBeNull();
  });

  it('shows the record’s text when it changes, but never over text still being typed', async () => {
    const { stored, saver } = record();
    const editor = createAutosave('visit:1', { storage: memoryStorage() });
    const notes = editor.text('notes', { stored: () => stored.notes, save: saver('notes') });
    stored.notes = 'From the record';
    notes.refresh();
    expect(notes.text.value).toBe('From the record');
    notes.input('Typed here');
    stored.notes = 'Changed meanwhile';
    notes.refresh();
    expect(notes.text.value).toBe('Typed here');
  });

  it('drops what was typed into a deleted record, drafts too', async () => {
    const storage = memoryStorage();
    const { stored, log, saver } = record();
    const editor = createAutosave('visit:1', { storage });
    editor.text('notes', { stored: () => stored.notes, save: saver('notes') }).input('Gone with it');
    editor.discard();
    await vi.advanceTimersByTimeAsync(5_000);
    await editor.flush();
    expect(log).toEqual([]);
    expect(storage.items.size).toBe(0);
    expect(editor.state.value).toBe('saved');
  });
});

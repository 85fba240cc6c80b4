/** "Save diagnostics…" (features/diagnostics): busy while it runs, then where it went or why not. */
import { beforeEach, describe, expect, it } from 'vitest';
import { FieldDeskError } from '../../../src/shared/errors';
import type { DiagnosticsResult } from '../../../src/shared/diagnostics';
import { deferred } from './fixtures';
import { createFakeBackend, fakePinia } from './fake-api';
import { useDiagnosticsStore } from '../../../src/renderer/src/features/diagnostics/store';

const backend = createFakeBackend();
const fake = backend.api;

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
});

describe('saving diagnostics', () => {
  it('is busy until the backend answers, then says where the zip went and how big it is', async () => {
    const answer = deferred<DiagnosticsResult>();
    fake.diagnostics.save.mockReturnValue(answer.promise);
    const diagnostics = useDiagnosticsStore();
    const saving = diagnostics.save();
    expect(diagnostics.saving).toBe(true);
    answer.resolve({ saved: true, path: '/home/ann/FieldDesk diagnostics.zip', bytes: 2048 });
    await saving;
    expect(diagnostics.saving).toBe(false);
    expect(diagnostics.saved).toEqual({
      saved: true,
      path: '/home/ann/FieldDesk diagnostics.zip',
      bytes: 2048,
    });
    expect(diagnostics.error).toBeNull();
  });

  it('says nothing when the user cancelled the save dialog, and clears what an earlier save said', async () => {
    const diagnostics = useDiagnosticsStore();
    fake.diagnostics.save.mockResolvedValueOnce({ saved: true, path: '/tmp/a.zip', bytes: 10 });
    await diagnostics.save();
    fake.diagnostics.save.mockResolvedValueOnce({ saved: false });
    await diagnostics.save();
    expect(diagnostics.saved).toBeNull();
    expect(diagnostics.error).toBeNull();
  });

  it('shows the backend’s own words when the zip could not be written', async () => {
    const diagnostics = useDiagnosticsStore();
    const full =
      'The disk holding /media/usb is full, so the diagnostics could not be saved. Free some space and try again.';
    fake.diagnostics.save.mockRejectedValue(new FieldDeskError('diskError', full));
    await diagnostics.save();
    expect(diagnostics.error).toBe(full);
    expect(diagnostics.saved).toBeNull();
    expect(diagnostics.saving).toBe(false);
  });
});

describe('damaged records left out', () => {
  it('are said in the one wording when the backend counted some, and not at all when none', async () => {
    const diagnostics = useDiagnosticsStore();
    fake.diagnostics.damagedRecords.mockResolvedValueOnce({
      tables: [
        { table: 'assessment_sites', count: 2, more: false },
        { table: 'action_history', count: 1, more: false },
      ],
    });
    await diagnostics.loadDamaged();
    expect(diagnostics.damaged).toBe(
      'Damaged records left out since FieldDesk started: 2 sites and 1 action result — the log names each one.',
    );
    fake.diagnostics.damagedRecords.mockResolvedValueOnce({ tables: [] });
    await diagnostics.loadDamaged();
    expect(diagnostics.damaged).toBeNull();
    expect(diagnostics.error).toBeNull();
  });
});

/** One way to show a button's work: busy while it runs, the reason in words when it fails. */
import { describe, expect, it } from 'vitest';
import { useUserAction } from '../../../src/renderer/src/ui/user-action';
import { FieldDeskError } from '../../../src/shared/errors';

describe('useUserAction', () => {
  it('is busy while the work runs, clears the last error, and turns a failure into its message', async () => {
    const action = useUserAction();
    let finish!: (value: number) => void;
    const running = action.run(() => new Promise<number>((resolve) => (finish = resolve)));
    expect(action.busy.value).toBe(true);
    finish(7);
    expect(await running).toBe(7);
    expect(action.busy.value).toBe(false);
    expect(
      await action.run(() => Promise.reject(new FieldDeskError('offline', 'Cannot reach it.'))),
    ).toBeUndefined();
    expect(action.error.value).toBe('Cannot reach it.');
    await action.run(async () => 1);
    expect(action.error.value).toBeNull();
  });
});

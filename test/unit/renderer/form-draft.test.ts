/**
 * A form's typed values kept as a draft until saved or cancelled: back in the form when it opens
 * again, dropped when saved, put back to the saved values on request, and a draft of another
 * shape (an earlier version, a hand edit) never put into the form.
 */
import { nextTick, reactive } from 'vue';
import { describe, expect, it } from 'vitest';
import { sameShape, useFormDraft } from '../../../src/renderer/src/ui/form-draft';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const opened = () => reactive({ name: 'Sizewell C', cover: { client: '', reference: '' }, serials: ['QT1'] });
const KEY = 'fielddesk.form.site:1';

describe('a form draft', () => {
  it('keeps what is typed, and brings it back when the form opens again', async () => {
    const storage = memoryStorage();
    const form = opened();
    useFormDraft(
      'site:1',
      () => form,
      (v) => Object.assign(form, v),
      { storage, now: () => 1000 },
    );
    form.cover.client = 'Thames Water';
    await nextTick();
    expect(JSON.parse(storage.items.get(KEY)!)).toMatchObject({
      keptAt: 1000,
      values: { cover: { client: 'Thames Water' } },
    });

    const again = opened();
    const draft = useFormDraft(
      'site:1',
      () => again,
      (v) => Object.assign(again, v),
      { storage },
    );
    expect(again.cover.client).toBe('Thames Water');
    expect(draft.restoredAt.value).toBe(1000);

    // Put back what is saved: the draft goes.
    draft.discard();
    expect(again.cover.client).toBe('');
    await nextTick();
    expect(storage.items.has(KEY)).toBe(false);
  });

  it('is dropped once saved; typed back to the saved values, no draft is kept', async () => {
    const storage = memoryStorage();
    const form = opened();
    const draft = useFormDraft(
      'site:1',
      () => form,
      (v) => Object.assign(form, v),
      { storage },
    );
    form.name = 'Sizewell C – north';
    await nextTick();
    expect(storage.items.has(KEY)).toBe(true);
    draft.clear();
    expect(storage.items.has(KEY)).toBe(false);
    form.name = 'Sizewell C – north ';
    await nextTick();
    form.name = 'Sizewell C – north';
    await nextTick();
    expect(storage.items.has(KEY)).toBe(false);
  });

  it('never puts a draft of another shape into the form', () => {
    const storage = memoryStorage();
    storage.setItem(KEY, JSON.stringify({ keptAt: 1, values: { name: 42, cover: {}, serials: [] } }));
    const form = opened();
    const draft = useFormDraft(
      'site:1',
      () => form,
      (v) => Object.assign(form, v),
      { storage },
    );
    expect(form.name).toBe('Sizewell C');
    expect(draft.restoredAt.value).toBeNull();
    expect(storage.items.has(KEY)).toBe(false);
    expect(sameShape({ a: { x: 1 } }, { a: {} })).toBe(true);
    expect(sameShape({ a: [] }, { a: {} })).toBe(false);
    expect(sameShape({ a: 1, b: 2 }, { a: 1 })).toBe(false);
  });
});

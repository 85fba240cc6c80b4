/**
 * A zoom step is drawn at once from the points held and sharpened by its answer: the charts' range
 * is the view asked for until the answer (or a failed read) comes, then the answer's own.
 */
import { describe, expect, it } from 'vitest';
import { nextTick, ref, shallowRef } from 'vue';
import { usePendingView } from '../../../src/renderer/src/features/data/pending-view';
import type { TimeInterval } from '../../../src/shared/data';

const HOUR = 3_600_000;
const week: TimeInterval = { start: 0, end: 168 * HOUR };
const zoomed: TimeInterval = { start: 42 * HOUR, end: 126 * HOUR };

function setUp() {
  const answered = shallowRef<TimeInterval>(week);
  const answer = shallowRef<object>({ range: week });
  const loading = ref(false);
  const view = usePendingView(
    () => answered.value,
    () => answer.value,
    () => loading.value,
  );
  return { answered, answer, loading, view };
}

describe('a zoom step waiting for its answer', () => {
  it('is drawn at once, before any read answers', () => {
    const { view, loading } = setUp();
    expect(view.shown.value).toEqual(week);
    view.ask(zoomed, () => (loading.value = true));
    // Synchronously: the charts take the new range in the same tick as the click.
    expect(view.shown.value).toEqual(zoomed);
    expect(view.pending.value).toEqual(zoomed);
  });

  it('gives way to the answer read for it', async () => {
    const { answered, answer, loading, view } = setUp();
    view.ask(zoomed, () => (loading.value = true));
    await nextTick();
    expect(view.shown.value).toEqual(zoomed);
    const sharpened = { start: zoomed.start, end: zoomed.end };
    answered.value = sharpened;
    answer.value = { range: sharpened };
    loading.value = false;
    await nextTick();
    expect(view.pending.value).toBeNull();
    expect(view.shown.value).toBe(sharpened);
  });

  it('ends when the read fails, back to the answer on screen', async () => {
    const { loading, view } = setUp();
    view.ask(zoomed, () => (loading.value = true));
    await nextTick();
    loading.value = false;
    await nextTick();
    expect(view.pending.value).toBeNull();
    expect(view.shown.value).toEqual(week);
  });

  it('is not kept when no read started for it (the question not ready)', async () => {
    const { view } = setUp();
    let asked: unknown = null;
    view.ask(zoomed, (next) => (asked = next));
    expect(asked).toEqual(zoomed);
    expect(view.pending.value).toBeNull();
    expect(view.shown.value).toEqual(week);
  });

  it('gives way to the answer alone, the loading flag unchanged (an answer that came with another read going)', async () => {
    const { answered, loading, view } = setUp();
    loading.value = true;
    view.ask(zoomed, () => {});
    await nextTick();
    expect(view.shown.value).toEqual(zoomed);
    answered.value = { ...zoomed };
    await nextTick();
    expect(view.pending.value).toBeNull();
  });
});

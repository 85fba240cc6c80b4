/**
 * Arrows, Page Up/Down, Home and End between the virtualized list's rows: the target row is
 * scrolled into view (it may not be rendered yet), then its link takes the focus.
 */
import { nextTick, type Ref } from 'vue';
import { rowKeyTarget } from './logic';

interface Scrolls {
  scrollToIndex(index: number, options: { align: 'auto' }): void;
}

export function useRowKeyboard(options: {
  virtualizer: Ref<Scrolls>;
  scroller: Ref<HTMLElement | null>;
  rowHeight: Ref<number>;
  count: () => number;
}) {
  const { virtualizer, scroller, rowHeight, count } = options;

  /** Moves the focus to a row's link, scrolling it into view first. */
  async function focusRow(index: number): Promise<void> {
    virtualizer.value.scrollToIndex(index, { align: 'auto' });
    // The row appears once the virtualizer has seen the scroll: a few frames at most.
    for (let frame = 0; frame < 30; frame++) {
      await nextTick();
      const link = scroller.value?.querySelector<HTMLElement>(`tr[data-index="${index}"] a`);
      if (link) {
        link.focus();
        return;
      }
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  }

  /** The first row's link, for the search box's Arrow Down. */
  function focusFirstRow(): void {
    if (count() > 0) void focusRow(0);
  }

  function onKeydown(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const row = (event.target as HTMLElement).closest<HTMLElement>('tr[data-index]');
    if (row === null) return;
    const pageRows = Math.floor((scroller.value?.clientHeight ?? 0) / rowHeight.value);
    const target = rowKeyTarget(event.key, Number(row.dataset['index']), count(), pageRows);
    if (target === null) return;
    event.preventDefault();
    void focusRow(target);
  }

  return { focusFirstRow, onKeydown };
}

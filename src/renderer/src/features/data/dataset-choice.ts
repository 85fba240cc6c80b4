/**
 * Choosing a dataset from the list without loading every dataset passed on the way. A closed
 * list's arrow keys (and type-ahead) change its value at each key press: those changes only move
 * the choice, and the dataset loads once the choice is made — Enter, leaving the list, or a pick
 * with the mouse (or from the opened list, which the user closes on purpose). Escape goes back to
 * the dataset shown. Nothing loads on a timer, so a screen reader user can listen to every name.
 */
export type DatasetChoiceEvent<T> =
  /** The list's value changed; `byKey` when it changed under a key press on the closed list. */
  { kind: 'change'; value: T; byKey: boolean } | { kind: 'enter' } | { kind: 'leave' } | { kind: 'escape' };

export interface DatasetChoiceStep<T> {
  /** The choice moved to but not yet loaded; null when the list shows the dataset on screen. */
  pending: T | null;
  /** The dataset to load now, or null. */
  load: T | null;
}

export function datasetChoiceStep<T>(
  shown: T | null,
  pending: T | null,
  event: DatasetChoiceEvent<T>,
): DatasetChoiceStep<T> {
  switch (event.kind) {
    case 'change':
      if (event.value === shown) return { pending: null, load: null };
      return event.byKey ? { pending: event.value, load: null } : { pending: null, load: event.value };
    case 'enter':
    case 'leave':
      return { pending: null, load: pending };
    case 'escape':
      return { pending: null, load: null };
  }
}

/**
 * Nothing typed into a form is lost: what a form with a Save button holds (a site, its rules, a
 * calibrator) is kept as a draft in local storage while it differs from what the form opened with,
 * so a reload, a closed window or a navigation away brings it back into the form — said, with a
 * way to drop it — until it is saved or the form is cancelled. The visit's own texts save as typed
 * instead (autosave.ts); a form is saved whole, when its values are checked together.
 */
import { ref, watch, type Ref } from 'vue';

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const PREFIX = 'fielddesk.form.';

export interface FormDraft {
  /** When the draft brought back into the form was kept (epoch ms); null when it opened as saved. */
  readonly restoredAt: Readonly<Ref<number | null>>;
  /** The form was saved or cancelled: the draft is dropped, and what it holds now counts as saved. */
  clear(): void;
  /** Puts back what the form opened with and drops the draft. */
  discard(): void;
}

export interface FormDraftOptions {
  storage?: DraftStorage | null;
  now?: () => number;
}

function defaultStorage(): DraftStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage refused: the form still works, only not kept over a reload
  }
}

/**
 * Whether a kept value has the shape of the form's: the same fields, each of the same kind (a
 * draft of an earlier version, or one edited by hand, is dropped rather than put into the form).
 * Inside a field only the kind is compared: a site's positions are keyed by its chosen instruments.
 */
export function sameShape(value: unknown, template: unknown): boolean {
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
  if (kind(template) !== 'object') return kind(value) === kind(template);
  if (kind(value) !== 'object') return false;
  const fields = Object.keys(template as object);
  const record = value as Record<string, unknown>;
  return (
    Object.keys(record).length === fields.length &&
    fields.every((field) => kind(record[field]) === kind((template as Record<string, unknown>)[field]))
  );
}

/**
 * Keeps the form's values (`read`, plain data) as a draft under `scope` (e.g. "site:1234") and
 * puts a kept draft back (`write`) when the form opens.
 */
export function useFormDraft<T>(
  scope: string,
  read: () => T,
  write: (values: T) => void,
  options: FormDraftOptions = {},
): FormDraft {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const now = options.now ?? Date.now;
  const key = PREFIX + scope;
  let saved = JSON.stringify(read());
  const restoredAt = ref<number | null>(null);

  const remove = () => {
    try {
      storage?.removeItem(key);
    } catch {
      // Nothing to drop where storage is refused.
    }
  };

  try {
    const text = storage?.getItem(key);
    if (text != null) {
      const kept = JSON.parse(text) as { keptAt?: unknown; values?: unknown };
      if (
        typeof kept.keptAt === 'number' &&
        sameShape(kept.values, JSON.parse(saved)) &&
        JSON.stringify(kept.values) !== saved
      ) {
        write(kept.values as T);
        restoredAt.value = kept.keptAt;
      } else remove();
    }
  } catch {
    remove(); // unreadable: the form opens as saved
  }

  watch(
    () => JSON.stringify(read()),
    (values) => {
      if (values === saved) return remove();
      try {
        storage?.setItem(key, JSON.stringify({ keptAt: now(), values: JSON.parse(values) }));
      } catch {
        // Full or refused storage: the form still holds it for this run.
      }
    },
  );

  return {
    restoredAt,
    clear() {
      saved = JSON.stringify(read());
      restoredAt.value = null;
      remove();
    },
    discard() {
      write(JSON.parse(saved) as T);
      restoredAt.value = null;
      remove();
    },
  };
}

/**
 * Nothing the user types is lost: the one way every page saves what is written in it.
 *
 * A page makes one `Autosave` for the record it edits (a visit, a site). Each text on it — a note,
 * a caption, a name — is a `TextField`: saved a moment after typing stops, at once when the field
 * is left, and before any other change of the page (`change`) or a navigation away, one save at a
 * time and in order, so an answer given the instant after typing never overtakes the note typed
 * before it. Until its save is confirmed, typed text is also kept as a draft in local storage, so a
 * reload, a closed window or a crash brings it back and saves it then. A failed save keeps the text
 * and its draft and says why; the next save of the page tries it again.
 */
import {
  computed,
  inject,
  onBeforeUnmount,
  provide,
  ref,
  shallowRef,
  watch,
  type ComputedRef,
  type InjectionKey,
  type Ref,
} from 'vue';
import { onBeforeRouteLeave, onBeforeRouteUpdate } from 'vue-router';
import { errorMessage } from '../errors';

/** What the page says of its saving. */
export type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed';

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface AutosaveOptions {
  /** Where typed text waits until it is saved; the window's local storage by default. */
  storage?: DraftStorage | null;
  /** Quiet time after the last keystroke before a text is saved (ms). */
  delayMs?: number;
}

export interface TextFieldOptions {
  /** The text as saved in the record (re-read when the record changes). */
  stored: () => string;
  /** Saves the text; throws a FieldDeskError to say why it was not saved. */
  save: (text: string) => Promise<unknown>;
  /** Why a text cannot be saved as it is (e.g. empty where a name is needed); null when it can. */
  check?: (text: string) => string | null;
}

export interface TextField {
  /** The text as typed (what the input shows). */
  readonly text: Readonly<Ref<string>>;
  /** Why the text as typed is not saved: `check`'s words, or the save's failure. */
  readonly problem: Readonly<Ref<string | null>>;
  /** Typed: shown at once, kept as a draft, saved when typing stops. */
  input(text: string): void;
  /** The field was left: saved now. */
  blur(): void;
  /** The record changed: the stored text is shown unless the user's own is still waiting. */
  refresh(): void;
  /** The field went away (its item removed): its pending text saved first, then forgotten. */
  dispose(): Promise<void>;
}

export interface Autosave {
  readonly state: ComputedRef<SaveState>;
  /** Why typed text could not be saved, while it is not (it stays as typed, with its draft). */
  readonly textError: ComputedRef<string | null>;
  /** Why the last other change could not be saved, until the next one is. */
  readonly changeError: ComputedRef<string | null>;
  text(key: string, options: TextFieldOptions): TextField;
  /** Any other change: made after every text typed so far is saved; false when it failed (said in `error`). */
  change(work: () => Promise<unknown>): Promise<boolean>;
  /** Saves every text typed so far; resolves once everything asked before it is done. */
  flush(): Promise<void>;
  /** Whether any typed text is not saved yet. */
  readonly pending: ComputedRef<boolean>;
  /** The record is gone (deleted): what was typed into it is dropped, drafts too. */
  discard(): void;
}

const DRAFT_PREFIX = 'fielddesk.draft.';
/** The failure key of changes other than typed text. */
const CHANGE = '\u0000change';

function defaultStorage(): DraftStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage refused (a sandboxed page): typed text is still saved, only not kept over a reload
  }
}

/** `scope` names the record (e.g. "visit:1234"): drafts are kept per record and field. */
export function createAutosave(scope: string, options: AutosaveOptions = {}): Autosave {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const delayMs = options.delayMs ?? 800;
  const draftKey = (key: string) => `${DRAFT_PREFIX}${scope}.${key}`;

  /** Saves asked and not yet done. */
  const running = ref(0);
  /** Why each failed save (by field key, or "change") failed, until it succeeds. */
  const failures = shallowRef<ReadonlyMap<string, string>>(new Map());
  /** The fields with text not yet saved. */
  const dirty = shallowRef<ReadonlySet<string>>(new Set());
  const fields = new Map<string, { flushNow: () => void; discard: () => void }>();
  let tail: Promise<void> = Promise.resolve();

  const setFailure = (key: string, message: string | null) => {
    const next = new Map(failures.value);
    if (message === null) next.delete(key);
    else next.set(key, message);
    failures.value = next;
  };
  const setDirty = (key: string, isDirty: boolean) => {
    if (dirty.value.has(key) === isDirty) return;
    const next = new Set(dirty.value);
    if (isDirty) next.add(key);
    else next.delete(key);
    dirty.value = next;
  };

  /** Runs `work` after everything asked before it; never rejects (its failure is `key`'s). */
  function enqueue(key: string, work: () => Promise<void>): Promise<boolean> {
    running.value += 1;
    const done = tail.then(async () => {
      try {
        await work();
        setFailure(key, null);
        return true;
      } catch (error) {
        setFailure(key, errorMessage(error));
        return false;
      } finally {
        running.value -= 1;
      }
    });
    tail = done.then(() => undefined);
    return done;
  }

  const readDraft = (key: string): string | null => {
    try {
      const raw = storage?.getItem(draftKey(key));
      if (raw === null || raw === undefined) return null;
      const parsed: unknown = JSON.parse(raw);
      return typeof parsed === 'object' &&
        parsed !== null &&
        typeof (parsed as { text?: unknown }).text === 'string'
        ? (parsed as { text: string }).text
        : null;
    } catch {
      return null; // a damaged draft is dropped: the saved text stands
    }
  };
  const writeDraft = (key: string, text: string) => {
    try {
      storage?.setItem(draftKey(key), JSON.stringify({ text, at: Date.now() }));
    } catch {
      // Storage full or refused: the text is still saved as typed, only not kept over a reload.
    }
  };
  const dropDraft = (key: string) => {
    try {
      storage?.removeItem(draftKey(key));
    } catch {
      // As above: nothing else to do.
    }
  };

  function text(key: string, field: TextFieldOptions): TextField {
    const shown = ref(field.stored());
    const problem = ref<string | null>(null);
    /** The text the record holds, as far as this field knows. */
    let saved = shown.value;
    let timer: ReturnType<typeof setTimeout> | null = null;

    const stopTimer = () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    };

    /** Asks a save of the text as it is now (after what is asked before it). */
    const flushNow = (): void => {
      stopTimer();
      if (!dirty.value.has(key)) return;
      void enqueue(key, async () => {
        const typed = shown.value;
        if (typed === saved) {
          dropDraft(key);
          setDirty(key, false);
          return;
        }
        const why = field.check?.(typed) ?? null;
        problem.value = why;
        if (why !== null) return; // kept as typed, with its draft, until it can be saved
        try {
          await field.save(typed);
        } catch (error) {
          problem.value = errorMessage(error);
          throw error;
        }
        saved = typed;
        // Typed on while it was saved: that text waits for its own save.
        if (shown.value === typed) {
          dropDraft(key);
          setDirty(key, false);
        }
      });
    };

    // A draft from before a reload, a close or a crash: shown and saved now.
    const draft = readDraft(key);
    if (draft !== null && draft !== saved) {
      shown.value = draft;
      setDirty(key, true);
      flushNow();
    } else if (draft !== null) dropDraft(key);

    fields.set(key, {
      flushNow,
      discard() {
        stopTimer();
        dropDraft(key);
        setDirty(key, false);
        setFailure(key, null);
      },
    });
    return {
      text: shown,
      problem,
      input(value) {
        shown.value = value;
        problem.value = null;
        writeDraft(key, value);
        setDirty(key, true);
        stopTimer();
        timer = setTimeout(flushNow, delayMs);
      },
      blur: flushNow,
      refresh() {
        const stored = field.stored();
        if (dirty.value.has(key)) return;
        saved = stored;
        shown.value = stored;
      },
      async dispose() {
        flushNow();
        await tail;
        fields.delete(key);
        setDirty(key, false);
        setFailure(key, null);
      },
    };
  }

  async function flush(): Promise<void> {
    for (const field of fields.values()) field.flushNow();
    await tail;
  }

  return {
    state: computed(() =>
      failures.value.size > 0
        ? 'failed'
        : running.value > 0
          ? 'saving'
          : dirty.value.size > 0
            ? 'unsaved'
            : 'saved',
    ),
    textError: computed(() => [...failures.value].find(([key]) => key !== CHANGE)?.[1] ?? null),
    changeError: computed(() => failures.value.get(CHANGE) ?? null),
    pending: computed(() => dirty.value.size > 0),
    text,
    async change(work) {
      for (const field of fields.values()) field.flushNow();
      return enqueue(CHANGE, async () => {
        await work();
      });
    },
    flush,
    discard() {
      for (const field of fields.values()) field.discard();
      fields.clear();
    },
  };
}

/** The page's autosave, for the text fields within it. */
const AUTOSAVE: InjectionKey<() => Autosave> = Symbol('autosave');

/**
 * Makes the page's autosave for the record `scope()` names (a new one when it names another) and
 * holds navigation until what was typed is saved: leaving the page, another record on it, closing
 * or reloading the window (where the drafts carry whatever the save could not finish).
 */
export function provideAutosave(scope: () => string): Readonly<Ref<Autosave>> {
  const editor = shallowRef(createAutosave(scope()));
  watch(scope, (next) => {
    void editor.value.flush();
    editor.value = createAutosave(next);
  });
  provide(AUTOSAVE, () => editor.value);
  onBeforeRouteLeave(() => editor.value.flush());
  onBeforeRouteUpdate(() => editor.value.flush());
  const unloading = () => void editor.value.flush();
  window.addEventListener('pagehide', unloading);
  onBeforeUnmount(() => {
    window.removeEventListener('pagehide', unloading);
    void editor.value.flush();
  });
  return editor;
}

/** The autosave of the page a text field is on. */
export function injectAutosave(): Autosave {
  const editor = inject(AUTOSAVE, null);
  if (editor === null) throw new Error('A saved-as-typed field needs a page that provides its autosave.');
  return editor();
}

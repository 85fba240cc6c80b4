/**
 * A preference kept between runs in the window's localStorage (the app's own profile folder in
 * Electron): read once, checked, written on change. A saved value that fails the check — an old
 * format, a hand edit — is dropped for the default, never used as it is.
 */
import { ref, watch, type Ref } from 'vue';

const PREFIX = 'fielddesk.';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage switched off: preferences last for this run only
  }
}

export function savedPreference<T>(
  key: string,
  fallback: T,
  isValid: (value: unknown) => value is T,
): Ref<T> {
  const store = storage();
  let initial = fallback;
  try {
    const text = store?.getItem(PREFIX + key);
    if (text != null) {
      const parsed: unknown = JSON.parse(text);
      if (isValid(parsed)) initial = parsed;
    }
  } catch {
    // Unreadable JSON: the default applies and the next change overwrites it.
  }
  const value = ref(initial) as Ref<T>;
  watch(
    value,
    (next) => {
      try {
        store?.setItem(PREFIX + key, JSON.stringify(next));
      } catch {
        // Full or blocked storage: the choice still holds for this run.
      }
    },
    { deep: true },
  );
  return value;
}

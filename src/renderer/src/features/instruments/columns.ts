/**
 * The instrument list's columns: what each is called, whether the user may hide it, and which are
 * shown until the user chooses (remembered in the window's storage). On a laptop's 1280–1366 px the
 * default set fits with no sideways scroll and no cell cut: the model is left to the chooser (the
 * name's hover and the search still find it) and the type shows as the serial's icon.
 */
import { computed, onBeforeUnmount, onMounted, ref } from 'vue';
import { savedPreference } from '../../ui/saved-preference';
import type { SortKey } from './logic';

export interface ListColumn {
  key: SortKey;
  label: string;
  /** What the header's hover and the chooser name it by, when the label alone is not enough. */
  description?: string;
  /** Its width (px, padding included); the name takes what the others leave, at least NAME_MIN_PX. */
  width: number;
}

/** Every column in the order shown. The serial and the name are always there: a row is an instrument. */
export const LIST_COLUMNS: readonly ListColumn[] = [
  // Each wide enough for its header with the sort mark and its widest value in the demo fleet
  // ("Measuring", "Pass · 13 d", "13.8 V 13 % −92 dBm", "Active · Standard").
  { key: 'type', label: 'Type', width: 136 },
  { key: 'serial', label: 'Serial', width: 124 },
  { key: 'name', label: 'Name', width: 0 },
  { key: 'model', label: 'Model', width: 170 },
  { key: 'state', label: 'State', width: 150 },
  { key: 'contact', label: 'Contact', description: 'Last contact', width: 100 },
  { key: 'calibration', label: 'Calibration', description: 'Last calibration', width: 142 },
  { key: 'sic', label: 'SIC', description: 'Last system integrity check', width: 142 },
  { key: 'monitor', label: 'Monitor', description: 'Battery, storage and signal', width: 248 },
  { key: 'subscription', label: 'Subscription', width: 156 },
];

/** The name is never narrower than this: more columns than fit scroll sideways rather than hide it. */
export const NAME_MIN_PX = 200;

/** The narrowest the table may be with `columns`: below it, it scrolls sideways. */
export const tableMinWidth = (columns: readonly ListColumn[]): number =>
  columns.reduce((sum, c) => sum + c.width, NAME_MIN_PX);

export const FIXED_COLUMNS: ReadonlySet<SortKey> = new Set(['serial', 'name']);

/** From this window width every column fits; narrower, the default leaves out the type and the model. */
export const WIDE_LIST_PX = 1560;

/**
 * Narrower than this the default also leaves out the subscription, so the name keeps its room beside
 * a check's age in minutes ("Pass · 15 min"); the Columns menu shows it on request.
 */
export const SUBSCRIPTION_LIST_PX = 1320;

/** The columns shown until the user chooses, for a window `width` px wide. */
export function defaultColumns(width: number): SortKey[] {
  return LIST_COLUMNS.map((c) => c.key).filter(
    (key) =>
      width >= WIDE_LIST_PX ||
      (key !== 'type' && key !== 'model' && (key !== 'subscription' || width >= SUBSCRIPTION_LIST_PX)),
  );
}

/** A saved choice as it must be: known keys, each once, the fixed ones included. */
export function isColumnChoice(value: unknown): value is SortKey[] {
  if (!Array.isArray(value)) return false;
  const known = new Set(LIST_COLUMNS.map((c) => c.key));
  return (
    value.every((key) => known.has(key as SortKey)) &&
    new Set(value).size === value.length &&
    [...FIXED_COLUMNS].every((key) => value.includes(key))
  );
}

/** The columns to show in their order: the chosen ones, else the default for the window's width. */
export function shownColumns(chosen: readonly SortKey[] | null, width: number): ListColumn[] {
  const keys = new Set(chosen ?? defaultColumns(width));
  return LIST_COLUMNS.filter((c) => keys.has(c.key));
}

/**
 * The list's columns for this window: the user's choice (remembered) or the default for the
 * window's width, which follows a resize until the user chooses.
 */
export function useListColumns() {
  const chosen = savedPreference<SortKey[] | null>(
    'instrumentColumns',
    null,
    (value): value is SortKey[] | null => value === null || isColumnChoice(value),
  );
  const width = ref(typeof window === 'undefined' ? WIDE_LIST_PX : window.innerWidth);
  const onResize = () => (width.value = window.innerWidth);
  onMounted(() => window.addEventListener('resize', onResize));
  onBeforeUnmount(() => window.removeEventListener('resize', onResize));
  const shown = computed(() => shownColumns(chosen.value, width.value));

  function setShown(key: SortKey, show: boolean): void {
    if (FIXED_COLUMNS.has(key)) return;
    const keys = new Set(shown.value.map((c) => c.key));
    if (show) keys.add(key);
    else keys.delete(key);
    chosen.value = LIST_COLUMNS.map((c) => c.key).filter((k) => keys.has(k));
  }
  return { shown, chosen, setShown, useDefault: () => (chosen.value = null) };
}

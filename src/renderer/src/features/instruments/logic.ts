/**
 * Pure functions behind the instrument list: labels, state derivation, filtering, sorting.
 * Stores and views call these; tests exercise them directly.
 */
import { subscriptionLapsed } from '../../../../shared/attention';
import type { InstrumentEntry } from '../../../../shared/ipc/contract';
import type { InstrumentStatus } from '../../../../shared/service/schemas';
import type { Tone } from '../../ui/tone';
import { countOf } from '../../ui/words';
import { activityUnreadable } from './notes';

export type InstrumentKind = 'Noise' | 'AirQuality' | 'Vibration' | 'Other';

const TYPE_LABELS: Record<InstrumentKind, string> = {
  Noise: 'Noise',
  AirQuality: 'Air quality',
  Vibration: 'Vibration',
  Other: 'Other',
};

export function instrumentKind(type: string): InstrumentKind {
  const lower = type.toLowerCase();
  if (lower === 'noise') return 'Noise';
  if (lower === 'airquality') return 'AirQuality';
  if (lower === 'vibration') return 'Vibration';
  return 'Other';
}

/** "Air quality" for `AirQuality`; an unknown type is shown as the service sent it. */
export function typeLabel(type: string): string {
  const kind = instrumentKind(type);
  return kind === 'Other' ? type || 'Other' : TYPE_LABELS[kind];
}

/**
 * The one state an instrument is shown in; more urgent states win. `pending`: a large fleet's
 * status not read yet (its row asks when it comes on screen). `online`: online, but whether it
 * is measuring (or calibrating, or running a SIC) could not be read, so "Idle" would be a guess.
 */
export type InstrumentState =
  'unknown' | 'offline' | 'calibrating' | 'sic' | 'measuring' | 'online' | 'idle' | 'pending';

export const STATE_LABELS: Record<InstrumentState, string> = {
  pending: 'Loading status',
  unknown: 'Status unknown',
  offline: 'Offline',
  calibrating: 'Calibrating',
  sic: 'SIC running',
  measuring: 'Measuring',
  online: 'Online',
  idle: 'Idle',
};

export function instrumentState(status: InstrumentStatus | null): InstrumentState {
  if (status === null) return 'unknown';
  if (!status.online) return 'offline';
  if (status.calibrationInProgress) return 'calibrating';
  if (status.sicInProgress) return 'sic';
  if (status.measuring) return 'measuring';
  if (activityUnreadable(status)) return 'online';
  return 'idle';
}

/** The state of a list entry, `pending` while its status was not read yet. */
export function entryState(entry: InstrumentEntry): InstrumentState {
  return entry.statusPending ? 'pending' : instrumentState(entry.status);
}

export function stateLabel(status: InstrumentStatus | null): string {
  return STATE_LABELS[instrumentState(status)];
}

export const STATE_TONES: Record<InstrumentState, Tone> = {
  pending: 'neutral',
  unknown: 'neutral',
  offline: 'danger',
  calibrating: 'info',
  sic: 'info',
  measuring: 'ok',
  online: 'neutral',
  idle: 'neutral',
};

/** "Active · Premium", or "No subscription". */
export function subscriptionText(entry: InstrumentEntry): string {
  const subscription = entry.instrument.subscription;
  const parts = [subscription?.status, subscription?.tier].filter((p): p is string => !!p && p.trim() !== '');
  return parts.length === 0 ? 'No subscription' : parts.join(' · ');
}

export function subscriptionTone(entry: InstrumentEntry): Tone {
  const status = entry.instrument.subscription?.status?.toLowerCase() ?? '';
  if (status === '') return 'neutral';
  if (status === 'active') return 'ok';
  if (subscriptionLapsed(status)) return 'warning';
  return 'neutral';
}

export type StateFilter = 'all' | 'online' | InstrumentState;
export type TypeFilter = 'all' | InstrumentKind;

export interface ListFilter {
  text: string;
  type: TypeFilter;
  state: StateFilter;
}

export const EMPTY_FILTER: ListFilter = { text: '', type: 'all', state: 'all' };

/** A status not read yet matches no state: only "All states" shows it. */
function matchesState(entry: InstrumentEntry, filter: StateFilter): boolean {
  if (filter === 'all') return true;
  const state = entryState(entry);
  if (filter === 'online') return state !== 'offline' && state !== 'unknown' && state !== 'pending';
  return state === filter;
}

/** Every word typed must appear in the serial, name, model or type (in any order). */
function matchesText(entry: InstrumentEntry, text: string): boolean {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const { instrument } = entry;
  const haystack = [instrument.serialNumber, instrument.name, instrument.model, typeLabel(instrument.type)]
    .join(' ')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export function filterEntries(entries: readonly InstrumentEntry[], filter: ListFilter): InstrumentEntry[] {
  return entries.filter(
    (entry) =>
      (filter.type === 'all' || instrumentKind(entry.instrument.type) === filter.type) &&
      matchesState(entry, filter.state) &&
      matchesText(entry, filter.text),
  );
}

export function isFiltered(filter: ListFilter): boolean {
  return filter.text.trim() !== '' || filter.type !== 'all' || filter.state !== 'all';
}

/** The health columns: sorted by what the attention store knows of each instrument (features/attention/cells.ts). */
export type HealthKey = 'contact' | 'calibration' | 'sic' | 'monitor';
export type SortKey = 'type' | 'serial' | 'name' | 'model' | 'state' | HealthKey | 'subscription';
export const isHealthKey = (key: SortKey): key is HealthKey =>
  key === 'contact' || key === 'calibration' || key === 'sic' || key === 'monitor';
/** A health column's sort value for an entry; null when nothing is known (sorted last both ways). */
export type HealthSortValue = (entry: InstrumentEntry, key: HealthKey) => number | null;
export interface SortOrder {
  key: SortKey;
  direction: 'ascending' | 'descending';
}

const STATE_ORDER: Record<InstrumentState, number> = {
  offline: 0,
  unknown: 1,
  calibrating: 2,
  sic: 3,
  measuring: 4,
  online: 5,
  idle: 6,
  pending: 7,
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function sortValue(
  entry: InstrumentEntry,
  key: SortKey,
  healthValue: HealthSortValue | undefined,
): string | number | null {
  const { instrument } = entry;
  if (isHealthKey(key)) return healthValue?.(entry, key) ?? null;
  switch (key) {
    case 'type':
      return typeLabel(instrument.type);
    case 'serial':
      return instrument.serialNumber;
    case 'name':
      return instrument.name;
    case 'model':
      return instrument.model;
    case 'state':
      return STATE_ORDER[entryState(entry)];
    case 'subscription':
      return subscriptionText(entry);
  }
}

/**
 * Stable sort; ties fall back to the serial number so the order never jumps on refresh. A health
 * column sorts by `healthValue` (an age, a verdict then its age, a voltage).
 */
export function sortEntries(
  entries: readonly InstrumentEntry[],
  order: SortOrder,
  healthValue?: HealthSortValue,
): InstrumentEntry[] {
  const sign = order.direction === 'ascending' ? 1 : -1;
  // Each entry's sort value once, not once per comparison: thousands of rows sort in milliseconds.
  const keyed = entries.map((entry) => ({ entry, value: sortValue(entry, order.key, healthValue) }));
  keyed.sort((a, b) => {
    // Statuses not read yet, and health not known, go last both ways: what is known is what the sort is for.
    if (order.key === 'state' && !!a.entry.statusPending !== !!b.entry.statusPending)
      return a.entry.statusPending ? 1 : -1;
    if ((a.value === null) !== (b.value === null)) return a.value === null ? 1 : -1;
    const va = a.value;
    const vb = b.value;
    const primary =
      typeof va === 'number' && typeof vb === 'number'
        ? Math.sign(va - vb) || 0 // an age of Infinity (offline, no contact known) equals itself
        : collator.compare(String(va), String(vb));
    return primary !== 0
      ? primary * sign
      : collator.compare(a.entry.instrument.serialNumber, b.entry.instrument.serialNumber);
  });
  return keyed.map((k) => k.entry);
}

/** Whether the list's order or filter depends on the statuses (which arrive row by row in a large fleet). */
export function dependsOnState(filter: ListFilter, order: SortOrder): boolean {
  return filter.state !== 'all' || order.key === 'state';
}

/** Clicking the sorted column flips it; another column starts ascending. */
export function nextSort(current: SortOrder, key: SortKey): SortOrder {
  if (current.key !== key) return { key, direction: 'ascending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** "8 of 10 instruments", or "10 instruments" when nothing is filtered out. */
export function countText(shown: number, total: number): string {
  return shown === total ? countOf(total, 'instrument') : `${shown} of ${countOf(total, 'instrument')}`;
}

/** "51.50123, -0.12345", or `null` without a position. */
export function positionText(position: { lat: number; long: number } | null): string | null {
  if (position === null) return null;
  return `${position.lat.toFixed(5)}, ${position.long.toFixed(5)}`;
}

/**
 * The row a key moves the focus to in the list (a grid-like table: arrows, Page Up/Down, Home,
 * End), or null for any other key. `pageRows` is how many rows one screen shows.
 */
export function rowKeyTarget(key: string, index: number, count: number, pageRows: number): number | null {
  if (count === 0) return null;
  const page = Math.max(1, pageRows - 1);
  const targets: Partial<Record<string, number>> = {
    ArrowDown: index + 1,
    ArrowUp: index - 1,
    PageDown: index + page,
    PageUp: index - page,
    Home: 0,
    End: count - 1,
  };
  const target = targets[key];
  return target === undefined ? null : Math.min(count - 1, Math.max(0, target));
}

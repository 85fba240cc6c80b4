/**
 * Merging two versions of one record made on two laptops from the version both started from, where
 * that is safe: each field changed on one side only takes that side's value, and in a list of items
 * with ids (a site's exclusions, a visit's photos) each item is merged the same way, so two
 * exclusions added on two laptops are both kept and one removed on one laptop stays removed. A field
 * or an item changed differently on both sides cannot be merged: the user chooses (null).
 */
import { isDeepStrictEqual } from 'node:util';
import type { JsonRecord } from './team-documents';

/** Fields whose value is a list of items with an `id`, merged item by item. */
const LISTS_BY_ID = new Set(['exclusions', 'photos']);
/** The newer of the two, whatever each side did. */
const LATEST = new Set(['updatedAt']);

type Item = JsonRecord & { id: string };

const isItemList = (value: unknown): value is Item[] =>
  Array.isArray(value) &&
  value.every((item) => typeof item === 'object' && item !== null && typeof (item as Item).id === 'string');

const NO_MERGE = Symbol('no merge');

function mergeValue(base: unknown, mine: unknown, theirs: unknown): unknown {
  if (isDeepStrictEqual(mine, theirs)) return mine;
  if (isDeepStrictEqual(base, mine)) return theirs;
  if (isDeepStrictEqual(base, theirs)) return mine;
  return NO_MERGE;
}

function mergeList(base: unknown, mine: Item[], theirs: Item[]): Item[] | typeof NO_MERGE {
  const byId = (list: unknown): Map<string, Item> =>
    new Map((isItemList(list) ? list : []).map((item) => [item.id, item]));
  const [baseItems, mineItems, theirItems] = [byId(base), byId(mine), byId(theirs)];
  const ids = [...new Set([...mineItems.keys(), ...theirItems.keys(), ...baseItems.keys()])];
  const merged: Item[] = [];
  for (const id of ids) {
    const value = mergeValue(baseItems.get(id), mineItems.get(id), theirItems.get(id));
    if (value === NO_MERGE) return NO_MERGE;
    if (value !== undefined) merged.push(value as Item);
  }
  return merged;
}

/** The merged record, or null when both sides changed the same thing differently. */
export function mergeThreeWay(base: JsonRecord, mine: JsonRecord, theirs: JsonRecord): JsonRecord | null {
  const merged: JsonRecord = {};
  for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs), ...Object.keys(base)])) {
    const [b, m, t] = [base[key], mine[key], theirs[key]];
    let value: unknown;
    if (LATEST.has(key) && typeof m === 'number' && typeof t === 'number') value = Math.max(m, t);
    else if (LISTS_BY_ID.has(key) && isItemList(m) && isItemList(t)) value = mergeList(b, m, t);
    else value = mergeValue(b, m, t);
    if (value === NO_MERGE) return null;
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

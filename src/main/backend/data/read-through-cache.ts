/**
 * Cache-aware reads (`data.read`): answer from the cache what it covers, fetch only the gaps, fetch
 * the still-open recent interval again when online, and say where every answer came from.
 *
 * - The range read is [start, min(end, now)): the future is not "missing", it has not happened.
 * - A chunk is settled once it was fetched at least `openIntervalMs` after its end; before that the
 *   service may still add data to it (instruments upload late), so an online read fetches it again.
 *   Responses are stored split at `fetchedAt - openIntervalMs` so only the recent part stays open.
 * - When the service is known to be unreachable, nothing is requested: the cache answers
 *   (`cached`, or `partial` with the missing intervals and the offline error as the reason).
 * - A failed fetch of a gap makes the answer `partial` with that error as the reason; a failed
 *   refresh of the open interval keeps the cached copy. Bad input and cancellation are thrown.
 * - An answer with records that could not be read (`DatasetChunk.unreadable`) is not whole: it is
 *   not stored, so the next read asks for it again; what was read of it is shown where the cache
 *   holds nothing, and the answer is `partial` with the records left out as the reason (a refresh
 *   of the open interval keeps the cached copy and says so in `notes`).
 * - When the service cannot be reached, what other cached data determines is derived instead
 *   (derive/: another weighting, a longer period from a shorter one, an overall level from bands)
 *   if that covers more of the range; the answer then says so in `derived` and `notes`.
 */
import type { DataReadResult, DatasetQuery, Provenance, TimeInterval } from '../../../shared/data';
import type { StoredAccount } from '../accounts/account-store';
import type { ServiceAccess } from '../accounts/service-access';
import type { ConnectivityService } from '../connectivity/connectivity';
import { FieldDeskError, isUnreachable, toErrorData, type FieldDeskErrorData } from '../../../shared/errors';
import { cacheKeyOf } from '../cache/cache-key';
import type { CacheStore } from '../cache/cache-store';
import { DEFAULT_OPEN_INTERVAL_MS, isOpen } from '../cache/open-interval';
import { incompleteAnswer, type DataSource } from '../service/data-source';
import { gaps, intersect, normalize, subtract, totalLength } from '../core/intervals';
import { deriveFromCache } from './derive/derive-read';
import { withUnstored, type UnstoredAnswer } from './unstored-answers';
import { narrowToValues, widerValuesQuery } from './wider-values';

/**
 * For data views, an open interval fetched less than the user's refresh age ago ("Refresh cached
 * data older than N minutes") is not fetched again, so a zoom step or a second look at the same
 * range answers from the cache (what arrived since is still fetched); never less than this, so
 * zoom steps stay cached whatever the setting. The instrument history always asks again: a
 * calibration that just finished must show at once.
 */
export const DATA_REFETCH_MIN_MS = 60_000;

/** The refetch age of data views for the user's setting (minutes). */
export function dataRefetchAfterMs(refreshCachedAfterMinutes: number): number {
  return Math.max(DATA_REFETCH_MIN_MS, refreshCachedAfterMinutes * 60_000);
}

export interface ReadContext {
  store: CacheStore;
  /** Null when no client can be made (e.g. the key is unavailable); then only the cache answers. */
  source: DataSource | null;
  now: () => number;
  accountId: string;
  /** The service is known to be unreachable: do not even try, answer with this reason. */
  offline: FieldDeskErrorData | null;
  /** Why there is no source, when `source` is null. */
  sourceProblem?: FieldDeskErrorData;
  openIntervalMs?: number;
  /** How old an open interval must be to be fetched again (default 0: always; see `dataRefetchAfterMs`). */
  refetchAfterMs?: number;
  signal?: AbortSignal;
}

/** An error that ends the read instead of becoming a `partial` answer's reason. */
function isFatal(error: unknown): boolean {
  if (!(error instanceof FieldDeskError)) return true;
  return error.code === 'cancelled' || error.code === 'invalidInput' || error.code === 'internal';
}

/**
 * Where the copy of a range ends, when what is missing is only the time after the newest cached
 * data, and that data reached the time it was fetched (it was open then): the missing part came
 * after the last fetch, not out of it. Null when something is missing before that.
 */
function tailStart(
  missing: readonly TimeInterval[],
  newest: { end: number; fetchedAt: number } | null,
  range: TimeInterval,
  openMs: number,
): number | null {
  const last = missing.at(-1);
  if (last === undefined || newest === null || newest.end <= range.start) return null;
  if (last.end < range.end || last.start < newest.end || !isOpen(newest, openMs)) return null;
  return last.start;
}

export async function readDataset(context: ReadContext, query: DatasetQuery): Promise<DataReadResult> {
  const { store, source, now } = context;
  const openMs = context.openIntervalMs ?? DEFAULT_OPEN_INTERVAL_MS;
  source?.validate(query);
  const key = cacheKeyOf(context.accountId, query);
  const startedAt = now();
  const range: TimeInterval = { start: query.start, end: Math.min(query.end, startedAt) };
  // Values cached with others (a site sync's wider set) answer as cached, not as derived.
  const wider = widerValuesQuery(store, context.accountId, query, range);
  if (wider !== null) return narrowToValues(await readDataset(context, wider), query);

  const missing: TimeInterval[] = [];
  let reason: FieldDeskErrorData | null = null;
  const fetchedChunkIds = new Set<number>();
  const fetchedIntervals: TimeInterval[] = [];
  const notes: string[] = [];
  const unstored: UnstoredAnswer[] = [];
  let fetchedAt = startedAt;

  if (range.end > range.start) {
    const stored = store.chunks(key, range);
    const covered = normalize(stored.map((c) => ({ start: c.start, end: c.end })));
    const need = gaps(range, covered);
    const refresh = intersect(
      [range],
      stored.filter((c) => isOpen(c, openMs) && startedAt - c.fetchedAt >= (context.refetchAfterMs ?? 0)),
    );
    const unavailable = context.offline ?? (source === null ? (context.sourceProblem ?? null) : null);
    if (unavailable !== null || source === null) {
      missing.push(...need);
      if (need.length > 0)
        reason = unavailable ?? new FieldDeskError('internal', 'The service cannot be used.').toData();
    } else {
      for (const interval of normalize([...need, ...refresh])) {
        const neededHere = intersect([interval], need);
        if (reason !== null && isUnreachable(reason)) {
          // Once the service is unreachable, the other intervals would only wait out the same failure.
          missing.push(...neededHere);
          continue;
        }
        try {
          const chunk = await source.fetchDataset(
            { ...query, start: interval.start, end: interval.end },
            context.signal,
          );
          fetchedAt = now();
          notes.push(...(chunk.notes ?? []));
          if (chunk.unreadable !== undefined) {
            reason ??= incompleteAnswer(chunk.unreadable).toData();
            missing.push(...neededHere);
            if (neededHere.length === 0) notes.push(chunk.unreadable.message);
            unstored.push({ shownIn: neededHere, data: chunk });
            continue;
          }
          const end = Math.min(interval.end, fetchedAt);
          const result = store.store(
            key,
            { start: interval.start, end },
            { series: chunk.series, records: chunk.records },
            fetchedAt,
            { splitAt: fetchedAt - openMs },
          );
          for (const id of result.chunkIds) fetchedChunkIds.add(id);
          if (end > interval.start) fetchedIntervals.push({ start: interval.start, end });
        } catch (error) {
          if (isFatal(error)) throw error;
          reason ??= toErrorData(error);
          missing.push(...neededHere);
        }
      }
    }
  }

  const unreachable =
    context.offline !== null || source === null || (reason !== null && isUnreachable(reason));
  // Offline, the time since the last fetch is the copy's end, not a gap in it.
  const newestChunk = store
    .chunks(key, range)
    .reduce<{ end: number; fetchedAt: number } | null>(
      (newest, c) => (newest === null || c.end > newest.end ? c : newest),
      null,
    );
  const upTo = unreachable ? tailStart(normalize(missing), newestChunk, range, openMs) : null;
  if (upTo !== null)
    missing.splice(0, missing.length, ...subtract(normalize(missing), [{ start: upTo, end: range.end }]));
  if (missing.length > 0 && reason !== null && unreachable) {
    // What the cache does not hold as asked it may still determine (another weighting, a shorter period).
    const exactMs = totalLength([range]) - totalLength(missing);
    const derivation = deriveFromCache(store, context.accountId, query, range, startedAt, exactMs);
    const answer = derivation.answer;
    // Derived only where it loses nothing: a value it cannot give would vanish from an answer
    // whose cached part, as asked, has it.
    const losesValues = exactMs > 0 && derivation.underivable.length > 0;
    if (answer !== null && !losesValues && totalLength(answer.covered) > exactMs) {
      const notesHere = [...notes, ...derivation.notes, ...derivation.underivable];
      const coveredEnd = answer.covered.reduce((end, c) => Math.max(end, c.end), range.start);
      const derivedUpTo = tailStart(
        answer.missing,
        answer.cachedAt === null ? null : { end: coveredEnd, fetchedAt: answer.cachedAt },
        range,
        openMs,
      );
      const gapsLeft =
        derivedUpTo === null
          ? answer.missing
          : subtract(answer.missing, [{ start: derivedUpTo, end: range.end }]);
      const cachedAt = answer.cachedAt ?? startedAt;
      return {
        query,
        provenance:
          gapsLeft.length === 0
            ? { source: 'cached', cachedAt, ...(derivedUpTo === null ? {} : { upTo: derivedUpTo }) }
            : { source: 'partial', cachedAt: answer.cachedAt, missing: gapsLeft, reason },
        series: answer.series,
        records: answer.records,
        ...(answer.from.length === 0 ? {} : { derived: answer.from }),
        notes: notesHere,
      };
    }
    notes.push(...derivation.underivable);
  }

  const data = store.read(key, { start: query.start, end: query.end });
  const shown = withUnstored(data, unstored);
  const fromBefore = data.chunks.filter((c) => !fetchedChunkIds.has(c.id));
  const oldest = fromBefore.length === 0 ? null : Math.min(...fromBefore.map((c) => c.fetchedAt));
  // When the part the service may still add to was fetched: a view refreshes by it.
  const open = data.chunks.filter((c) => isOpen(c, openMs));
  const openPart = open.length === 0 ? {} : { openFetchedAt: Math.min(...open.map((c) => c.fetchedAt)) };
  let provenance: Provenance;
  if (missing.length > 0 && reason !== null) {
    provenance = { source: 'partial', cachedAt: oldest, missing: normalize(missing), reason };
  } else if (oldest !== null) {
    // Mostly from the cache, with its still-open end fetched again: say both.
    provenance =
      fetchedIntervals.length === 0
        ? { source: 'cached', cachedAt: oldest, ...(upTo === null ? {} : { upTo }), ...openPart }
        : {
            source: 'cached',
            cachedAt: oldest,
            refreshed: { intervals: normalize(fetchedIntervals), fetchedAt },
            ...openPart,
          };
  } else {
    provenance = { source: 'fresh', fetchedAt, ...openPart };
  }
  return {
    query,
    provenance,
    series: shown.series,
    records: shown.records,
    ...(notes.length === 0 ? {} : { notes }),
  };
}

export interface ReadThroughCacheOptions {
  cache: CacheStore;
  access: ServiceAccess;
  connectivity: ConnectivityService;
  now: () => number;
  openIntervalMs?: number;
}

export type ReadThroughCache = (
  account: StoredAccount,
  query: DatasetQuery,
  how?: Pick<ReadContext, 'refetchAfterMs' | 'signal'>,
) => Promise<DataReadResult>;

export function createReadThroughCache(options: ReadThroughCacheOptions): ReadThroughCache {
  return async (account, query, how = {}) => {
    let source: DataSource | null = null;
    let sourceProblem: FieldDeskErrorData | undefined;
    try {
      source = await options.access.dataSourceFor(account);
    } catch (error) {
      // Without a key (or the demo service) the cache still answers what it holds.
      if (!(error instanceof FieldDeskError) || error.code === 'invalidInput') throw error;
      sourceProblem = error.toData();
    }
    return readDataset(
      {
        store: options.cache,
        source,
        now: options.now,
        accountId: account.id,
        offline: options.connectivity.offlineReason(account.id),
        ...(sourceProblem === undefined ? {} : { sourceProblem }),
        ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
        ...how,
      },
      query,
    );
  };
}

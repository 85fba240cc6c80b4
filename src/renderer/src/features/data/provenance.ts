/** What a read's provenance says in words: live, an offline copy and its age, or what is missing and why. */
import type { Provenance } from '../../../../shared/data';
import type { FieldDeskErrorData } from '../../../../shared/errors';
import {
  dayTimeText,
  intervalText,
  isSameDay,
  relativeTimeText,
  zoneSuffix,
  type DisplayZone,
} from '../../ui/time';
import type { Tone } from '../../ui/tone';

export interface ProvenanceView {
  tone: Tone;
  icon: 'online' | 'cloud-off' | 'warning' | 'info';
  text: string;
  /** When the shown copy was fetched, when it is not live (for the offline banner). */
  copyAt: number | null;
}

/** Why part of a range could not be fetched, in a few words for the brackets. */
export function missingReasonText(reason: FieldDeskErrorData): string {
  switch (reason.code) {
    case 'offline':
      return 'offline';
    case 'forbidden':
      return reason.missingScope
        ? `the key lacks ${reason.missingScope}`
        : 'the key is not allowed to read it';
    case 'unauthorized':
      return 'the service refused the key';
    case 'rateLimited':
      return 'the service asked us to slow down';
    case 'timeout':
      return 'the service did not answer in time';
    case 'serverError':
      return 'the service had an error';
    case 'cancelled':
      return 'cancelled';
    default:
      return reason.message;
  }
}

const MISSING_SHOWN = 2;

/** "5 min ago"; "2 days ago (22 Nov 2026 14:03 UTC)" when that was another day in `zone`, with `also` in the brackets. */
function fetchedAgoText(at: number, now: number, zone: DisplayZone, also: string[] = []): string {
  const date = isSameDay(at, now, zone) ? [] : [`${dayTimeText(at, zone, now)}${zoneSuffix(zone, at)}`];
  const said = [...date, ...also];
  return `${relativeTimeText(at, now)}${said.length === 0 ? '' : ` (${said.join(', ')})`}`;
}

/**
 * The provenance in words. A cached answer is an "offline copy" only while the app is offline;
 * online it says how old the cached part is and which part was just fetched again.
 */
export function provenanceView(
  provenance: Provenance,
  now: number,
  zone: DisplayZone,
  offline = false,
  derived = false,
  /** The answer holds no readings: a partial one is then not "partly available". */
  empty = false,
): ProvenanceView {
  const view = sourceView(provenance, now, zone, offline, empty);
  // Computed offline from other cached data: said first, never passed off as what was fetched.
  return derived
    ? { ...view, icon: 'info', text: `Derived offline from cached data, not fetched. ${view.text}` }
    : view;
}

function sourceView(
  provenance: Provenance,
  now: number,
  zone: DisplayZone,
  offline: boolean,
  empty: boolean,
): ProvenanceView {
  switch (provenance.source) {
    case 'fresh':
      return {
        tone: 'ok',
        icon: 'online',
        text: `Live from the service, fetched ${dayTimeText(provenance.fetchedAt, zone, now)}${zoneSuffix(zone, provenance.fetchedAt)}`,
        copyAt: null,
      };
    case 'cached': {
      const { refreshed } = provenance;
      const again =
        refreshed === undefined || refreshed.intervals.length === 0
          ? ''
          : `; ${intervalText(
              {
                start: refreshed.intervals[0]!.start,
                end: refreshed.intervals[refreshed.intervals.length - 1]!.end,
              },
              zone,
              now,
            )} fetched again ${relativeTimeText(refreshed.fetchedAt, now)}`;
      // Offline, the copy ends at its last fetch: said as its end, with the date when not today.
      const upTo =
        provenance.upTo === undefined
          ? ''
          : `, up to ${dayTimeText(provenance.upTo, zone, now)}${zoneSuffix(zone, provenance.upTo)}`;
      return {
        tone: 'info',
        icon: offline ? 'cloud-off' : 'info',
        text: `From the cache, fetched ${fetchedAgoText(provenance.cachedAt, now, zone, offline ? ['offline copy'] : [])}${upTo}${again}`,
        copyAt: provenance.cachedAt,
      };
    }
    case 'partial': {
      const shown = provenance.missing.slice(0, MISSING_SHOWN).map((m) => intervalText(m, zone, now));
      const more = provenance.missing.length - shown.length;
      const missing =
        shown.length === 0 ? 'some of this range' : shown.join(', ') + (more > 0 ? ` and ${more} more` : '');
      const rest =
        provenance.cachedAt === null
          ? ''
          : `. The rest is from the cache, fetched ${fetchedAgoText(provenance.cachedAt, now, zone)}`;
      if (empty) {
        const cached =
          provenance.cachedAt === null
            ? ', and none of it is cached'
            : `; the rest, from the cache (fetched ${fetchedAgoText(provenance.cachedAt, now, zone)}), has no readings`;
        return {
          tone: 'warning',
          icon: 'warning',
          text: `Nothing to show: ${missing} could not be fetched (${missingReasonText(provenance.reason)})${cached}`,
          copyAt: provenance.cachedAt,
        };
      }
      return {
        tone: 'warning',
        icon: 'warning',
        text: `Partly available: missing ${missing} (${missingReasonText(provenance.reason)})${rest}`,
        copyAt: provenance.cachedAt,
      };
    }
  }
}

/** Added to the app's offline banner while a screen shows a copy: "The data shown was fetched 2 days ago." */
export function shownCopyText(copyAt: number | null, now: number): string | null {
  return copyAt === null ? null : `The data shown was fetched ${relativeTimeText(copyAt, now)}.`;
}

/**
 * What the data view says in place of a chart when the answer holds no readings. A range that could
 * not be fetched is not "nothing between these times": it says why, and points to the note above
 * (what was left out of the sync and how to keep it) when there is one, instead of advising a
 * longer range.
 */
export function emptyAnswerView(
  datasetLabel: string,
  provenance: Provenance,
  hasNotes: boolean,
): { title: string; text: string } {
  if (provenance.source !== 'partial') {
    return {
      title: 'No readings in this range',
      text: `${datasetLabel} has nothing between these times. Choose a longer range or another dataset.`,
    };
  }
  const why = missingReasonText(provenance.reason);
  const cached = provenance.cachedAt === null ? ' and none of it is cached' : '';
  const next = hasNotes
    ? ' See the note above.'
    : provenance.reason.code === 'offline'
      ? ' Read it again once online, or keep it with a site sync before going to site.'
      : '';
  return {
    title: 'Nothing to show for this range',
    text: `${datasetLabel} could not be fetched for this range (${why})${cached}.${next}`,
  };
}

/**
 * Historic data (`data.read`), read through the local cache (read-through-cache.ts): what the cache
 * covers is answered without a request, the gaps come from the service, the still-open recent
 * interval is fetched again once older than the user's refresh age (or at once, asked to refresh),
 * and every answer says where it came from; a read for a chart comes back reduced to its width with
 * exact figures (chart-view.ts). `data.export` writes the same answer at full resolution to a CSV
 * file the user chooses.
 */
import { basename } from 'node:path';
import type { DataReadResult, DatasetQuery, SeriesChannel } from '../../../shared/data';
import { eventMarks } from './event-marks';
import { FieldDeskError, isUnreachable, toErrorData } from '../../../shared/errors';
import type { AccountState } from '../accounts/account-state';
import type { HandlersOf } from '../core/handler-types';
import { forChart } from './chart-view';
import { isPng, writeCsv, writeImage } from './csv-export';
import { exportFileName } from '../../../shared/export-names';
import type { ChooseExportPath } from '../core/export-path';
import { saveFailure } from '../core/disk-errors';
import type { UnfinishedFiles } from '../core/unfinished-files';
import type { EventHub } from '../core/events';
import { labelledChannel, withLabels } from './labels';
import { channelFigures } from '../../../shared/series-figures';
import type { ServiceAccess } from '../accounts/service-access';
import type { EventHistories } from './event-histories';
import type { Logger } from '../core/log';
import { dataRefetchAfterMs, type ReadThroughCache } from './read-through-cache';
import { LIVE_READ_WINDOW_MS, LIVE_VALUE, type LiveLevels } from '../../../shared/live';

const SECOND_MS = 1000;

export interface DataHandlerDeps {
  accounts: AccountState;
  access: ServiceAccess;
  read: ReadThroughCache;
  chooseExportPath: ChooseExportPath;
  events: EventHub;
  /** The user's "Refresh cached data older than N minutes", read at each request. */
  refreshCachedAfterMinutes: () => number;
  eventHistories: EventHistories;
  /** Where temporary files are listed, so one left by a crash is removed at the next start. */
  unfinished: UnfinishedFiles;
  log: Logger;
  now: () => number;
}

export function dataHandlers(deps: DataHandlerDeps): HandlersOf<'data'> {
  const {
    accounts,
    access,
    read,
    chooseExportPath,
    events,
    refreshCachedAfterMinutes,
    eventHistories,
    unfinished,
    log,
    now,
  } = deps;

  function storedHistory(accountId: string, id: string) {
    try {
      return eventHistories.get(accountId, id);
    } catch (error) {
      log.warn('stored event time history unreadable', { error });
      return null; // The service's error stands.
    }
  }

  const readQuery = async (query: DatasetQuery, refresh = false) =>
    withLabels(
      await read(
        accounts.requireActive(),
        {
          serial: query.serial,
          dataset: query.dataset,
          start: query.start,
          end: query.end,
          ...(query.options === undefined ? {} : { options: query.options }),
        },
        { refetchAfterMs: refresh ? 0 : dataRefetchAfterMs(refreshCachedAfterMinutes()) },
      ),
    );

  /**
   * What an export writes: the shown answer, or, comparing, every instrument's series side by side,
   * each named after its instrument (wide format: one column per instrument and value, rows merged
   * by time). A compared instrument that cannot be read stops the export with its name: a file
   * that silently leaves one out would read as complete.
   */
  const exportedAnswer = async (
    query: DatasetQuery,
    instruments: ReadonlyArray<{ serial: string; name: string }> | undefined,
  ): Promise<DataReadResult> => {
    if (instruments === undefined || instruments.length < 2) return readQuery(query);
    const answers = [];
    for (const instrument of instruments) {
      try {
        answers.push({ instrument, result: await readQuery({ ...query, serial: instrument.serial }) });
      } catch (error) {
        const { code, message, retryable } = toErrorData(error);
        throw new FieldDeskError(
          code,
          `${instrument.name} (${instrument.serial}) could not be read, so the comparison was not exported. ${message}`,
          { retryable, cause: error },
        );
      }
    }
    const [shown] = answers;
    return {
      ...shown!.result,
      series: answers.flatMap(({ instrument, result }) =>
        result.series.map((channel) => ({
          ...channel,
          label: `${channel.label ?? channel.name} · ${instrument.name} (${instrument.serial})`,
        })),
      ),
    };
  };

  /** The events to mark on a noise chart; a failure is said, not thrown (the chart stands alone). */
  const eventMarksIn = async (
    query: DatasetQuery,
    refresh: boolean,
  ): Promise<NonNullable<DataReadResult['events']>> => {
    try {
      const events = await readQuery(
        { serial: query.serial, dataset: 'events', start: query.start, end: query.end },
        refresh,
      );
      return { marks: events.records ? eventMarks(events.records) : [] };
    } catch (error) {
      return { problem: error instanceof FieldDeskError ? error.message : 'the events could not be read' };
    }
  };

  return {
    'data.read': async ({ chartWidth, withEvents, refresh, ...query }) => {
      const [result, events] = await Promise.all([
        readQuery(query, refresh === true),
        withEvents ? eventMarksIn(query, refresh === true) : Promise.resolve(undefined),
      ]);
      const answer = chartWidth === undefined ? result : forChart(result, chartWidth);
      return events === undefined ? answer : { ...answer, events };
    },

    'data.eventTimeHistory': async ({ id }) => {
      const account = accounts.requireActive();
      let answer: { series: SeriesChannel[]; notes: string[] };
      let cachedAt: number | undefined;
      try {
        const source = await access.dataSourceFor(account);
        answer = await source.eventTimeHistory(id);
        try {
          eventHistories.save(account.id, id, answer, now());
        } catch (saveError) {
          // Kept next time; the answer is shown regardless.
          log.warn('event time history not kept', { error: saveError });
        }
      } catch (error) {
        // Without the service, the history as last read (said so), else the reason.
        const stored = isUnreachable(toErrorData(error)) ? storedHistory(account.id, id) : null;
        if (stored === null) throw error;
        answer = stored;
        cachedAt = stored.fetchedAt;
      }
      // An event's time history has the shape of the noise time history (service-facts.md).
      const series = answer.series.map((channel) => labelledChannel('noiseTimeHistory', channel));
      const times = series.flatMap((c) =>
        c.times.length === 0 ? [] : [c.times[0]!, c.times[c.times.length - 1]!],
      );
      // Just past the last reading, so the last one is inside the range.
      const range = times.length === 0 ? null : { start: Math.min(...times), end: Math.max(...times) + 1 };
      const figures = range === null ? [] : series.map((channel) => channelFigures(channel, range));
      return {
        id,
        series,
        figures,
        range,
        notes: answer.notes,
        ...(cachedAt === undefined ? {} : { cachedAt }),
      };
    },

    'data.monitorCurrent': async ({ serial }) => {
      const source = await access.dataSourceFor(accounts.requireActive());
      const states = await source.monitorCurrent([serial]);
      return { state: states.find((state) => state.instrument === serial) ?? null, fetchedAt: Date.now() };
    },

    'data.liveLevels': async ({ serial, windowMs }): Promise<LiveLevels> => {
      const source = await access.dataSourceFor(accounts.requireActive());
      const fetchedAt = now();
      // Whole seconds, up to the one being measured: the service gives only those it has.
      const end = Math.ceil(fetchedAt / SECOND_MS) * SECOND_MS;
      const start = end - (windowMs ?? LIVE_READ_WINDOW_MS);
      // Straight from the service, never through the cache: the newest minute is still open, and a
      // copy of it stored as covered would hide the readings that arrive after.
      const chunk = await source.fetchDataset({
        serial,
        dataset: 'noiseTimeHistory',
        start,
        end,
        options: { values: [LIVE_VALUE], period: 'PT1S' },
      });
      const channel = chunk.series.find((series) => series.name === LIVE_VALUE);
      const notes = [
        ...(chunk.notes ?? []),
        ...(chunk.unreadable === undefined ? [] : [chunk.unreadable.message]),
      ];
      return {
        serial,
        times: channel?.times ?? new Float64Array(0),
        values: channel?.values ?? new Float32Array(0),
        sampleMs: SECOND_MS,
        fetchedAt,
        notes,
      };
    },

    'data.export': async ({ instruments, ...query }) => {
      const result = await exportedAnswer(query, instruments);
      if (result.series.length === 0 && (result.records?.rows.length ?? 0) === 0) {
        throw new FieldDeskError('invalidRequest', 'There is nothing to export: no readings in this range.');
      }
      const path = await chooseExportPath(exportFileName(query, 'csv'), 'csv');
      if (path === null) return { saved: false };
      const fileName = basename(path);
      const target = { path, what: `the export “${fileName}”`, unfinished };
      try {
        const { rows, bytes } = await writeCsv(target, result, (fraction, rowsWritten) =>
          events.emit('data.exportProgress', { fileName, fraction, rows: rowsWritten }),
        );
        return { saved: true, path, fileName, rows, bytes };
      } catch (error) {
        throw saveFailure(error, target);
      }
    },

    'data.saveImage': async ({ fileName, pngBase64 }) => {
      const bytes = Buffer.from(pngBase64, 'base64');
      if (!isPng(bytes))
        throw new FieldDeskError('invalidInput', 'The chart image is not a PNG, so it was not saved.');
      const path = await chooseExportPath(fileName, 'png');
      if (path === null) return { saved: false };
      const target = { path, what: `the chart image “${basename(path)}”`, unfinished };
      try {
        await writeImage(target, bytes);
        return { saved: true, path, fileName: basename(path), bytes: bytes.length };
      } catch (error) {
        throw saveFailure(error, target);
      }
    },
  };
}

/**
 * Assessment end to end in the backend, against the demo service: sites kept in the database
 * (across a restart), figures cross-checked against the data the service answers, a manual
 * exclusion changing only the figures it touches, the same figures offline from the cache after
 * a site sync, and the report files written whole.
 */
import { dateOf, monthKeyOf } from '../../../src/shared/daily-figures';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Site } from '../../../src/shared/assessment';
import type { BackendHandlers } from '../../../src/shared/ipc/contract';
import { channelFigures } from '../../../src/shared/series-figures';
import { demoBackendsWithNetwork, startDemoBackend } from './backend-helpers';

const DAY = 86_400_000;
/** Two whole UTC days ending at the start of yesterday: settled data (Europe/London is UTC in winter). */
const END = Math.floor(Date.now() / DAY) * DAY - DAY;
const START = END - 2 * DAY;
/** A noise monitor with weather and SIC, and its neighbour (the demo fleet's first site). */
const NOISE = 'QT930998';
const NEIGHBOUR = 'QT570913';
const VIBRATION = 'VB287764';
const AIR = 'AQ132935';

async function newSite(handlers: BackendHandlers, serials: string[]): Promise<Site> {
  return handlers['assessment.saveSite']({ name: 'Mill Lane', timeZone: 'Europe/London', serials });
}

describe('assessment against the demo service', () => {
  it('computes LAeq,day as the service data gives it, and an exclusion changes only the figures it touches', async () => {
    const { handlers } = await startDemoBackend();
    const site = await newSite(handlers, [NOISE, NEIGHBOUR]);
    const first = await handlers['assessment.compute']({ siteId: site.id, start: START, end: END });

    // The first day's LAeq,day (07–23 UTC) from the service's own 15-min LAeq, by the shared figures code.
    const dayStart = START + 7 * 3_600_000;
    const dayEnd = START + 23 * 3_600_000;
    const read = await handlers['data.read']({
      serial: NOISE,
      dataset: 'noiseMeasurements',
      start: START,
      end: END,
      options: { values: ['LAeq', 'LAFMax', 'LAF10', 'LAF90', 'LCPeak'] },
    });
    const laeq = read.series.find((c) => c.name === 'LAeq')!;
    const expected = channelFigures(laeq, { start: dayStart, end: dayEnd }).mean!;
    const day = first.figures.find(
      (f) => f.serial === NOISE && f.label === 'LAeq,day' && f.start === dayStart,
    )!;
    expect(day.all).toBeCloseTo(expected, 1);
    expect(day.source).toMatchObject({ serial: NOISE, dataset: 'noiseMeasurements', channel: 'LAeq' });
    expect(first.instruments.map((i) => i.serial)).toEqual([NOISE, NEIGHBOUR]);
    expect(first.timeZone).toBe('Europe/London');
    // Calibration evidence: the last calibration before the period at least.
    expect(
      first.checks.some((c) => c.serial === NOISE && c.kind === 'calibration' && c.when === 'before'),
    ).toBe(true);

    // The hourly rows come apart from the result, read when the hourly table is opened: every hour
    // of both monitors, the day's first hour of the noise monitor from the same readings.
    expect(first).not.toHaveProperty('hourly');
    expect(first.hourlyCount).toBe(2 * 48);
    const hours = await handlers['assessment.hourly']({ siteId: site.id, computedAt: first.computedAt });
    expect(hours).toHaveLength(first.hourlyCount);
    const firstHour = hours.find((h) => h.serial === NOISE && h.start === START)!;
    expect(firstHour.laeq).toBeCloseTo(
      channelFigures(laeq, { start: START, end: START + 3_600_000 }).mean!,
      1,
    );
    // A month's days, as the screen reads them when a long period's month is opened: that
    // monitor's figures of that month, the day's LAeq,day among them as computed.
    const month = monthKeyOf(dateOf(day));
    const monthDays = await handlers['assessment.days']({
      siteId: site.id,
      computedAt: first.computedAt,
      serial: NOISE,
      month,
    });
    expect(monthDays).toContainEqual(day);
    expect(monthDays.every((f) => f.serial === NOISE && monthKeyOf(dateOf(f)) === month)).toBe(true);

    // Exclude 09:00–12:00 of the first day on the noise monitor only.
    const cut = { start: START + 9 * 3_600_000, end: START + 12 * 3_600_000 };
    const withCut = await handlers['assessment.addExclusion']({
      siteId: site.id,
      ...cut,
      reason: 'Road works',
      serial: NOISE,
    });
    expect(withCut.exclusions).toMatchObject([{ ...cut, reason: 'Road works', serial: NOISE }]);
    const second = await handlers['assessment.compute']({ siteId: site.id, start: START, end: END });
    // The first assessment's hours are gone with it: said, never the newer one's rows instead.
    await expect(
      handlers['assessment.hourly']({ siteId: site.id, computedAt: first.computedAt - 1 }),
    ).rejects.toMatchObject({ code: 'notFound', message: expect.stringMatching(/Assess the period again/) });
    await expect(
      handlers['assessment.days']({
        siteId: site.id,
        computedAt: first.computedAt - 1,
        serial: NOISE,
        month,
      }),
    ).rejects.toMatchObject({ code: 'notFound', message: expect.stringMatching(/^These days belong/) });
    const dayAgain = second.figures.find((f) => f.id === day.id)!;
    expect(dayAgain.all).toBe(day.all);
    // Every excluded period of the noise monitor — the cut, and what the site's rules found that day
    // (wind above 5 m/s comes and goes with the demo's weather, so which days it touches depends on
    // the date) — leaves out each 15-min value it overlaps.
    const excluded = second.exclusions.filter((e) => e.serial === NOISE || e.serial === null);
    expect(excluded.some((e) => e.cause === 'manual')).toBe(true);
    const QUARTER = 15 * 60_000;
    const withoutCut = channelFigures(
      {
        ...laeq,
        values: laeq.values.map((v, i) =>
          excluded.some((e) => e.start < laeq.times[i]! + QUARTER && e.end > laeq.times[i]!) ? NaN : v,
        ),
      },
      { start: dayStart, end: dayEnd },
    ).mean!;
    expect(dayAgain.valid).toBeCloseTo(withoutCut, 1);
    expect(dayAgain.coverage).toBeLessThanOrEqual(13 / 16 + 1e-9);
    // The neighbour's figures are not touched by an exclusion of the noise monitor alone.
    const neighbourBefore = first.figures.filter((f) => f.serial === NEIGHBOUR).map((f) => [f.id, f.valid]);
    const neighbourAfter = second.figures.filter((f) => f.serial === NEIGHBOUR).map((f) => [f.id, f.valid]);
    expect(neighbourAfter).toEqual(neighbourBefore);
    expect(second.exclusions.filter((e) => e.cause === 'manual')).toEqual([
      { ...cut, serial: NOISE, cause: 'manual', reason: 'Road works' },
    ]);
  });

  it('assesses vibration against DIN 4150-3 and particulates as 24-h means with the EU 75 % rule', async () => {
    const { handlers } = await startDemoBackend();
    const site = await newSite(handlers, [VIBRATION, AIR]);
    const result = await handlers['assessment.compute']({ siteId: site.id, start: START, end: END });
    const din = result.figures.filter((f) => f.serial === VIBRATION && f.label.endsWith('vs DIN 4150-3'));
    expect(din.map((f) => f.label)).toEqual([
      'PPV X vs DIN 4150-3',
      'PPV Y vs DIN 4150-3',
      'PPV Z vs DIN 4150-3',
    ]);
    for (const figure of din) {
      // The guideline of line 2 lies between 5 and 20 mm/s whatever the frequency.
      expect(figure.limit).toBeGreaterThanOrEqual(5);
      expect(figure.limit).toBeLessThanOrEqual(20);
    }
    expect(result.figures.filter((f) => f.label.startsWith('VDV Z,')).length).toBeGreaterThanOrEqual(4);
    // PPV against frequency under line 2's corners (DIN 4150-3 table 1: 5, 5, 15, 20 mm/s).
    const [scatter] = result.ppvScatter ?? [];
    expect(scatter?.guideline).toEqual([
      [1, 5],
      [10, 5],
      [50, 15],
      [100, 20],
    ]);
    expect(scatter?.axes.map((a) => a.axis)).toEqual(['X', 'Y', 'Z']);
    for (const axis of scatter!.axes) {
      // Two days of minutes, less what was not measured or excluded; at most 1,500 drawn.
      expect(axis.total).toBeGreaterThan(1000);
      expect(axis.points.length).toBe(Math.min(axis.total, 1500));
    }
    const pm10 = result.figures.filter((f) => f.serial === AIR && f.label === 'PM10 24-h mean');
    expect(pm10).toHaveLength(2);
    for (const day of pm10) {
      expect(day.limit).toBe(50);
      expect(day.coverage).toBeGreaterThan(0.75);
      expect(day.valid).not.toBeNull();
    }
  });

  it('refuses an instrument the account does not have, and a site that is gone', async () => {
    const { handlers } = await startDemoBackend();
    await expect(newSite(handlers, ['NOPE123'])).rejects.toMatchObject({
      code: 'invalidInput',
      message: expect.stringContaining('NOPE123'),
    });
    const site = await newSite(handlers, [NOISE]);
    await handlers['assessment.deleteSite']({ id: site.id });
    await expect(
      handlers['assessment.compute']({ siteId: site.id, start: START, end: END }),
    ).rejects.toMatchObject({
      code: 'notFound',
    });
  });

  it('writes the report as PDF, Excel and CSV, each whole', async () => {
    const { handlers, dataDir } = await startDemoBackend();
    const site = await newSite(handlers, [NOISE]);
    const pdf = await handlers['assessment.report']({
      siteId: site.id,
      start: START,
      end: END,
      format: 'pdf',
    });
    expect(pdf.saved).toBe(true);
    if (!pdf.saved) return;
    expect(pdf.paths[0]).toContain(dataDir);
    expect((await readFile(pdf.paths[0]!)).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await stat(pdf.paths[0]!)).size).toBe(pdf.bytes);
    // The same period without appendices is another file, named for what it holds.
    const bare = await handlers['assessment.report']({
      siteId: site.id,
      start: START,
      end: END,
      format: 'pdf',
      appendices: { exclusions: false, events: false, hourly: false },
    });
    if (!bare.saved) throw new Error('not saved');
    expect(basename(pdf.paths[0]!)).toMatch(/ with exclusions\.pdf$/);
    expect(basename(bare.paths[0]!)).toMatch(/\d{4}-\d{2}-\d{2}\.pdf$/);
    expect((await readFile(pdf.paths[0]!)).subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await handlers['assessment.report']({
      siteId: site.id,
      start: START,
      end: END,
      format: 'xlsx',
    });
    if (!xlsx.saved) throw new Error('not saved');
    expect((await readFile(xlsx.paths[0]!)).subarray(0, 2).toString()).toBe('PK');
    const csv = await handlers['assessment.report']({
      siteId: site.id,
      start: START,
      end: END,
      format: 'csv',
    });
    if (!csv.saved) throw new Error('not saved');
    expect(csv.paths.length).toBeGreaterThan(3);
    // One folder holding the set, named as the report.
    const csvFolders = new Set(csv.paths.map((path) => dirname(path)));
    expect(csvFolders.size).toBe(1);
    const csvFolder = basename([...csvFolders][0]!);
    // The default appendix (the excluded periods) is in the name: a report without it is named apart.
    expect(csvFolder).toMatch(
      /^Mill Lane assessment \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} with exclusions$/,
    );
    for (const path of csv.paths) expect(basename(path).startsWith(`${csvFolder} – `)).toBe(true);
  });
});

describe('a report of the assessment on screen', () => {
  /** When the report's CSV says its assessment was computed (the summary table's row). */
  async function computedAtOfCsv(paths: readonly string[]): Promise<string> {
    for (const path of paths) {
      const line = (await readFile(path, 'utf8'))
        .split(/\r?\n/)
        .find((row) => row.startsWith('Assessment computed (UTC),'));
      if (line !== undefined) return line.split(',')[1]!.replaceAll('"', '');
    }
    throw new Error('no CSV of the report says when it was computed');
  }

  it('is that assessment when nothing changed, and computed anew after an exclusion or a tolerance changed', async () => {
    const { handlers } = await startDemoBackend();
    const site = await newSite(handlers, [NOISE]);
    const period = { siteId: site.id, start: START, end: END };
    const shown = await handlers['assessment.compute'](period);
    const report = async () => {
      const written = await handlers['assessment.report']({ ...period, format: 'csv' });
      if (!written.saved) throw new Error('not saved');
      return computedAtOfCsv(written.paths);
    };

    // The same site, period, settings and readings: the report is of the assessment shown.
    expect(await report()).toBe(new Date(shown.computedAt).toISOString());
    // The report's own texts changed (its cover, its conclusion): still the assessment shown.
    await handlers['assessment.saveSite']({
      id: site.id,
      name: site.name,
      timeZone: site.timeZone,
      serials: site.serials,
      cover: { ...site.cover, client: 'Mill Lane Residents', revision: 'R02' },
      conclusion: 'The site meets its limits on the days assessed.',
    });
    expect(await report()).toBe(new Date(shown.computedAt).toISOString());

    // An exclusion added: the site changed, so the report assesses again (a later computed time).
    await handlers['assessment.addExclusion']({
      ...period,
      start: START,
      end: START + 3_600_000,
      reason: 'Road works',
      serial: NOISE,
    });
    const afterExclusion = await report();
    expect(Date.parse(afterExclusion)).toBeGreaterThan(shown.computedAt);

    // Shown again, then the calibration tolerance changed: computed anew once more.
    const again = await handlers['assessment.compute'](period);
    expect(await report()).toBe(new Date(again.computedAt).toISOString());
    await handlers['settings.update']({ calibrationToleranceDb: 0.3 });
    expect(Date.parse(await report())).toBeGreaterThan(again.computedAt);
  });
});

describe('a report that cannot be written', () => {
  it('says the disk’s reason, leaves no file, and the next try elsewhere works', async () => {
    let folder = '/nonexistent-fielddesk-folder';
    const { handlers, dataDir } = await startDemoBackend({
      chooseExportPath: async (name) => `${folder}/${name}`,
    });
    const site = await newSite(handlers, [NOISE]);
    const query = { siteId: site.id, start: START, end: END, format: 'pdf' as const };
    await expect(handlers['assessment.report'](query)).rejects.toMatchObject({
      code: 'diskError',
      message: expect.stringMatching(
        /^The folder \/nonexistent-fielddesk-folder does not exist \(any more\), so the report “Mill Lane assessment .*\.pdf” could not be saved\. Choose another folder\.$/,
      ),
      retryable: true,
    });
    folder = dataDir;
    const saved = await handlers['assessment.report'](query);
    expect(saved.saved).toBe(true);
  });
});

describe('a report cancelled while it is written', () => {
  it('answers not saved, leaves nothing in the folder, and the next report of the site is written', async () => {
    let folder = '';
    const { backend, handlers, dataDir } = await startDemoBackend({
      chooseExportPath: async (name) => join(folder, name),
    });
    folder = join(dataDir, 'reports');
    await mkdir(folder);
    const site = await newSite(handlers, [NOISE]);
    // Cancelled at its first progress, while it reads the data: a state, not a moment in time.
    let cancel: Promise<{ cancelled: boolean }> | null = null;
    const unsubscribe = backend.subscribe((channel) => {
      if (channel === 'assessment.reportProgress' && cancel === null)
        cancel = handlers['assessment.cancelReport']({ siteId: site.id });
    });
    const query = { siteId: site.id, start: START, end: END, format: 'pdf' as const };
    const cancelled = await handlers['assessment.report'](query);
    unsubscribe();
    expect(cancelled).toEqual({ saved: false });
    expect(await cancel).toEqual({ cancelled: true });
    expect(await readdir(folder)).toEqual([]);
    expect(await handlers['assessment.cancelReport']({ siteId: site.id })).toEqual({ cancelled: false });
    const saved = await handlers['assessment.report'](query);
    expect(saved.saved).toBe(true);
    expect((await readdir(folder)).filter((name) => name.endsWith('.pdf'))).toHaveLength(1);
  });
});

describe('assessment offline', () => {
  const setup = demoBackendsWithNetwork();

  it('gives the same figures from the cache after a restart without the service, and keeps the site', async () => {
    const online = await setup.open();
    const site = await newSite(online.handlers, [NOISE]);
    await online.handlers['assessment.addExclusion']({
      siteId: site.id,
      start: START,
      end: START + 3_600_000,
      reason: 'Dog barking at microphone',
    });
    await online.handlers['instruments.list']({});
    const live = await online.handlers['assessment.compute']({ siteId: site.id, start: START, end: END });
    expect(live.fromCache).toBe(false);
    await setup.close(online.backend);

    setup.network.down = true;
    const offline = await setup.open({ addDemo: false });
    const [kept] = (await offline.handlers['assessment.sites']({})).sites;
    expect(kept?.exclusions.map((e) => e.reason)).toEqual(['Dog barking at microphone']);
    const cached = await offline.handlers['assessment.compute']({ siteId: site.id, start: START, end: END });
    expect(cached.fromCache).toBe(true);
    expect(cached.figures.map((f) => [f.id, f.all, f.valid])).toEqual(
      live.figures.map((f) => [f.id, f.all, f.valid]),
    );
    expect(cached.exceedances).toEqual(live.exceedances);
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_REPORT_APPENDICES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  DEFAULT_EXCLUSION_RULES,
  DEFAULT_LIMITS,
  type ReportProgress,
  type ReportResult,
  type Site,
  type SiteList,
} from '../../../src/shared/assessment';
import type { ShownAssessment } from '../../../src/shared/assessment-shown';
import { FieldDeskError } from '../../../src/shared/errors';
import {
  anyReportWriting,
  reportEnded,
  reportProgressed,
  reportStarted,
} from '../../../src/renderer/src/features/assessment/report-state';
import { createFakeBackend, expectCalledWith, fakePinia } from './fake-api';
import { account, deferred } from './fixtures';
import { useAssessmentStore } from '../../../src/renderer/src/features/assessment/store';
import { useAccountsStore } from '../../../src/renderer/src/features/accounts/store';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = createFakeBackend();
const fake = backend.api;

const RANGE = { start: 0, end: 7 * 86_400_000 };
const VAULT = { storage: 'keychain', reason: null } as const;

function site(id: string, name: string, accountId = 'acc-1'): Site {
  return {
    id,
    accountId,
    name,
    timeZone: 'Europe/London',
    serials: ['QT1'],
    rules: DEFAULT_EXCLUSION_RULES,
    exclusions: [],
    limits: DEFAULT_LIMITS,
    settings: DEFAULT_ASSESSMENT_SETTINGS,
    cover: { ...EMPTY_SITE_COVER },
    conclusion: '',
    positions: EMPTY_SITE_POSITIONS,
    createdAt: 0,
    updatedAt: 0,
  };
}

const siteList = (sites: Site[], unreadable = 0): SiteList => ({ sites, unreadable });
/** An assessment of `siteId` over RANGE with nothing in it: the store reads only whose it is. */
const result = (siteId: string, computedAt = 1): ShownAssessment => ({
  siteId,
  siteName: siteId,
  timeZone: 'Europe/London',
  ...RANGE,
  computedAt,
  settings: DEFAULT_ASSESSMENT_SETTINGS,
  instruments: [],
  exclusions: [],
  figures: [],
  hourlyCount: 0,
  byMonth: [],
  exceedances: [],
  checks: [],
  nightEventCount: 0,
  charts: [],
  notes: [],
  fromCache: false,
  dataFetchedAt: null,
});
const saved = (path: string): ReportResult => ({ saved: true, format: 'pdf', paths: [path], bytes: 2048 });
const progress = (siteId: string, stage: string, fraction: number): ReportProgress => ({
  siteId,
  format: 'pdf',
  stage,
  fraction,
});

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
  useAccountsStore().apply({
    accounts: [account(), account({ id: 'acc-2', name: 'Rail depot' })],
    activeId: 'acc-1',
    vault: VAULT,
  });
});

describe('assessment store: reports', () => {
  it('shows the progress of a report of a second site under that site, not "Starting" for ever', async () => {
    const store = useAssessmentStore();
    fake.assessment.report.mockResolvedValueOnce(saved('/reports/mill-lane.pdf'));
    await store.report('mill-lane', RANGE, 'pdf');

    const answer = deferred<ReportResult>();
    fake.assessment.report.mockReturnValueOnce(answer.promise);
    const writing = store.report('harbour', RANGE, 'pdf');
    expect(store.reportOf('harbour')).toEqual({
      state: 'writing',
      progress: progress('harbour', 'Starting', 0),
    });
    backend.emit('assessment.reportProgress', progress('harbour', 'Reading the data', 0.25));
    expect(store.reportOf('harbour')).toEqual({
      state: 'writing',
      progress: progress('harbour', 'Reading the data', 0.25),
    });
    // The first site's report is still said as it ended.
    expect(store.reportOf('mill-lane')).toMatchObject({
      state: 'saved',
      saved: { paths: ['/reports/mill-lane.pdf'] },
    });

    answer.resolve(saved('/reports/harbour.pdf'));
    await writing;
    expectCalledWith(fake.assessment.report, {
      siteId: 'harbour',
      ...RANGE,
      format: 'pdf',
      appendices: DEFAULT_REPORT_APPENDICES,
    });
    expect(store.reportOf('harbour')).toMatchObject({
      state: 'saved',
      saved: { paths: ['/reports/harbour.pdf'] },
    });
  });

  it('applies each progress event to the report of its own site while two are written', async () => {
    const store = useAssessmentStore();
    const first = deferred<ReportResult>();
    const second = deferred<ReportResult>();
    fake.assessment.report.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const writingFirst = store.report('mill-lane', RANGE, 'pdf');
    const writingSecond = store.report('harbour', RANGE, 'pdf');

    backend.emit('assessment.reportProgress', progress('harbour', 'Drawing the charts', 0.7));
    backend.emit('assessment.reportProgress', progress('mill-lane', 'Reading the data', 0.1));
    expect(store.reportOf('mill-lane')).toMatchObject({
      progress: { stage: 'Reading the data', fraction: 0.1 },
    });
    expect(store.reportOf('harbour')).toMatchObject({
      progress: { stage: 'Drawing the charts', fraction: 0.7 },
    });
    // One listener follows both.
    expect(backend.listenerCount('assessment.reportProgress')).toBe(1);

    first.resolve(saved('/reports/mill-lane.pdf'));
    await writingFirst;
    // The other one is still written, and still followed.
    expect(backend.listenerCount('assessment.reportProgress')).toBe(1);
    backend.emit('assessment.reportProgress', progress('harbour', 'Saved', 1));
    expect(store.reportOf('harbour')).toMatchObject({ progress: { stage: 'Saved', fraction: 1 } });

    second.resolve(saved('/reports/harbour.pdf'));
    await writingSecond;
    // Nothing is written any more: nothing is followed.
    expect(backend.listenerCount('assessment.reportProgress')).toBe(0);
  });

  it('keeps the outcome when a report’s last progress event arrives after its answer', async () => {
    const store = useAssessmentStore();
    const first = deferred<ReportResult>();
    fake.assessment.report
      .mockReturnValueOnce(first.promise)
      .mockReturnValueOnce(new Promise(() => undefined));
    const writingFirst = store.report('mill-lane', RANGE, 'pdf');
    void store.report('harbour', RANGE, 'pdf');
    first.resolve(saved('/reports/mill-lane.pdf'));
    await writingFirst;
    // Still followed for the other site's report, the first one's last event is heard and ignored.
    backend.emit('assessment.reportProgress', progress('mill-lane', 'Saved', 1));
    expect(store.reportOf('mill-lane')?.state).toBe('saved');
  });

  it('says why a report failed under its site, and a new report replaces the failure', async () => {
    const store = useAssessmentStore();
    const full = new FieldDeskError('diskError', 'The disk is full: the report was not saved in /reports.');
    fake.assessment.report.mockRejectedValueOnce(full);
    await store.report('mill-lane', RANGE, 'pdf');
    expect(store.reportOf('mill-lane')).toEqual({ state: 'failed', error: full });
    expect(backend.listenerCount('assessment.reportProgress')).toBe(0);

    fake.assessment.report.mockReturnValueOnce(new Promise(() => undefined));
    void store.report('mill-lane', RANGE, 'csv');
    expect(store.reportOf('mill-lane')).toMatchObject({ state: 'writing', progress: { format: 'csv' } });
  });

  it('has nothing to say when the user closes the save dialog without saving', async () => {
    const store = useAssessmentStore();
    fake.assessment.report.mockResolvedValueOnce({ saved: false });
    await store.report('mill-lane', RANGE, 'xlsx');
    expect(store.reportOf('mill-lane')).toBeNull();
    expect(backend.listenerCount('assessment.reportProgress')).toBe(0);
  });

  it('does not ask for a second report of a site while one is written', async () => {
    const store = useAssessmentStore();
    fake.assessment.report.mockReturnValue(new Promise(() => undefined));
    void store.report('mill-lane', RANGE, 'pdf');
    void store.report('mill-lane', RANGE, 'csv');
    expect(fake.assessment.report).toHaveBeenCalledTimes(1);
    expect(store.reportOf('mill-lane')).toMatchObject({ progress: { format: 'pdf' } });
  });
});

describe('report transitions', () => {
  const writing = reportStarted({}, 'mill-lane', 'pdf');

  it('moves only the report of the event’s site in the event’s format', () => {
    expect(reportProgressed(writing, { ...progress('mill-lane', 'Reading', 0.2), format: 'csv' })).toBe(
      writing,
    );
    expect(reportProgressed(writing, progress('harbour', 'Reading', 0.2))).toBe(writing);
    expect(reportProgressed(writing, progress('mill-lane', 'Reading', 0.2))).toEqual({
      'mill-lane': { state: 'writing', progress: progress('mill-lane', 'Reading', 0.2) },
    });
  });

  it('ends a report as saved, failed or (save dialog closed) not at all, leaving other sites’ as they are', () => {
    const two = reportStarted(writing, 'harbour', 'pdf');
    const error = new FieldDeskError('offline', 'Cannot reach the service.');
    expect(reportEnded(two, 'mill-lane', { saved: false })).toEqual({ harbour: two['harbour'] });
    expect(reportEnded(two, 'mill-lane', error)['mill-lane']).toEqual({ state: 'failed', error });
    expect(reportEnded(two, 'mill-lane', saved('/r.pdf'))['mill-lane']).toMatchObject({ state: 'saved' });
    expect(anyReportWriting(reportEnded(two, 'mill-lane', error))).toBe(true);
    expect(anyReportWriting(reportEnded(writing, 'mill-lane', error))).toBe(false);
  });
});

describe('assessment store: sites and results', () => {
  it('reads the sites and says how many stored ones could not be read', async () => {
    fake.assessment.sites.mockResolvedValueOnce(siteList([site('mill-lane', 'Mill Lane')], 2));
    const store = useAssessmentStore();
    await store.loadSites();
    expect(store.sites?.map((s) => s.id)).toEqual(['mill-lane']);
    expect(store.unreadableSites).toBe(2);
  });

  it('shows a failed read of the sites, and clears it when a read succeeds', async () => {
    fake.assessment.sites.mockRejectedValueOnce(
      new FieldDeskError('internal', 'The sites database is locked.'),
    );
    const store = useAssessmentStore();
    await store.loadSites();
    expect(store.sites).toBeNull();
    expect(store.sitesError?.message).toBe('The sites database is locked.');
    fake.assessment.sites.mockResolvedValueOnce(siteList([]));
    await store.loadSites();
    expect(store.sitesError).toBeNull();
    expect(store.sites).toEqual([]);
  });

  it('keeps the sites in name order as they are saved, and forgets the result of a deleted site', async () => {
    fake.assessment.sites.mockResolvedValueOnce(siteList([site('b', 'Bridge'), site('m', 'Mill Lane')]));
    const store = useAssessmentStore();
    await store.loadSites();
    fake.assessment.saveSite.mockResolvedValueOnce(site('a', 'Abbey Road'));
    await store.saveSite({ name: 'Abbey Road', timeZone: 'Europe/London', serials: ['QT1'] });
    fake.assessment.saveSite.mockResolvedValueOnce(site('m', 'Canal basin'));
    await store.saveSite({ id: 'm', name: 'Canal basin', timeZone: 'Europe/London', serials: ['QT1'] });
    expect(store.sites?.map((s) => s.name)).toEqual(['Abbey Road', 'Bridge', 'Canal basin']);

    fake.assessment.compute.mockResolvedValueOnce(result('m'));
    await store.compute('m', RANGE);
    fake.assessment.deleteSite.mockResolvedValueOnce({ id: 'm' });
    await store.deleteSite('m');
    expect(store.sites?.map((s) => s.id)).toEqual(['a', 'b']);
    expect(store.result).toBeNull();
  });

  it('drops the answer to an older compute that arrives after a newer one', async () => {
    const store = useAssessmentStore();
    const older = deferred<ShownAssessment>();
    fake.assessment.compute.mockReturnValueOnce(older.promise).mockResolvedValueOnce(result('harbour', 2));
    const first = store.compute('mill-lane', RANGE);
    await store.compute('harbour', RANGE);
    older.resolve(result('mill-lane', 1));
    await first;
    expect(store.result?.siteId).toBe('harbour');
    expect(store.computing).toBe(false);
  });

  it('shows why a compute failed (offline) and keeps the result it had', async () => {
    const store = useAssessmentStore();
    fake.assessment.compute.mockResolvedValueOnce(result('mill-lane'));
    await store.compute('mill-lane', RANGE);
    const held = deferred<ShownAssessment>();
    fake.assessment.compute.mockReturnValueOnce(held.promise);
    const computing = store.compute('mill-lane', { start: 0, end: 86_400_000 });
    expect(store.computing).toBe(true);
    held.reject(
      new FieldDeskError('offline', 'Cannot reach the service, and nothing of this period is kept offline.'),
    );
    await computing;
    expect(store.computing).toBe(false);
    expect(store.computeError?.code).toBe('offline');
    expect(store.result?.siteId).toBe('mill-lane');

    fake.assessment.compute.mockResolvedValueOnce(result('mill-lane', 5));
    await store.compute('mill-lane', RANGE);
    expect(store.computeError).toBeNull();
  });
});

describe('assessment store on an account switch', () => {
  async function switchTo(id: string): Promise<void> {
    fake.accounts.activate.mockResolvedValueOnce({
      accounts: [account(), account({ id: 'acc-2', name: 'Rail depot' })],
      activeId: id,
      vault: VAULT,
    });
    await useAccountsStore().activate(id);
    await nextTick();
  }

  it('forgets the first account’s sites and result and reads the new account’s sites', async () => {
    fake.assessment.sites.mockResolvedValueOnce(siteList([site('mill-lane', 'Mill Lane')], 1));
    const store = useAssessmentStore();
    await store.loadSites();
    fake.assessment.compute.mockResolvedValueOnce(result('mill-lane'));
    await store.compute('mill-lane', RANGE);

    const sitesOfAcc2 = deferred<SiteList>();
    fake.assessment.sites.mockReturnValueOnce(sitesOfAcc2.promise);
    await switchTo('acc-2');
    expect(store.sites).toBeNull();
    expect(store.unreadableSites).toBe(0);
    expect(store.result).toBeNull();
    sitesOfAcc2.resolve(siteList([site('depot', 'Rail depot', 'acc-2')]));
    await vi.waitFor(() => expect(store.sites?.map((s) => s.id)).toEqual(['depot']));
  });

  it('drops answers for the first account that arrive after the switch', async () => {
    fake.assessment.sites.mockResolvedValueOnce(siteList([site('mill-lane', 'Mill Lane')]));
    const store = useAssessmentStore();
    await store.loadSites();
    const lateSites = deferred<SiteList>();
    const lateResult = deferred<ShownAssessment>();
    fake.assessment.sites.mockReturnValueOnce(lateSites.promise);
    fake.assessment.compute.mockReturnValueOnce(lateResult.promise);
    const reading = store.loadSites();
    const computing = store.compute('mill-lane', RANGE);

    fake.assessment.sites.mockResolvedValueOnce(siteList([site('depot', 'Rail depot', 'acc-2')]));
    await switchTo('acc-2');
    expect(store.computing).toBe(false);
    lateSites.resolve(siteList([site('mill-lane', 'Mill Lane')]));
    lateResult.resolve(result('mill-lane'));
    await Promise.all([reading, computing]);
    await vi.waitFor(() => expect(store.sites?.map((s) => s.id)).toEqual(['depot']));
    expect(store.result).toBeNull();
  });

  it('reads no sites on a switch when none were read before', async () => {
    useAssessmentStore();
    await switchTo('acc-2');
    expect(fake.assessment.sites).not.toHaveBeenCalled();
  });
});

describe('assessment store: progress and Cancel of an assessment', () => {
  const YEAR = { start: 0, end: 365 * 86_400_000 };
  const reading = (
    siteId: string,
    range: { start: number; end: number },
    detail: string,
    fraction: number,
  ) => ({
    siteId,
    ...range,
    stage: 'Reading the data',
    detail,
    fraction,
  });

  it('follows the progress of the period being assessed, and only while it is', async () => {
    const store = useAssessmentStore();
    const answer = deferred<ShownAssessment>();
    fake.assessment.compute.mockReturnValueOnce(answer.promise);
    const computing = store.compute('mill-lane', YEAR);
    expect(store.computeProgress).toMatchObject({ stage: 'Starting', fraction: 0 });

    backend.emit('assessment.progress', reading('mill-lane', YEAR, 'QT1 (1 of 3): 62 of 365 days read', 0.1));
    expect(store.computeProgress).toMatchObject({
      detail: 'QT1 (1 of 3): 62 of 365 days read',
      fraction: 0.1,
    });
    // Another period's or another site's progress is not this one's.
    backend.emit('assessment.progress', reading('mill-lane', RANGE, 'QT1 (1 of 1): 7 of 7 days read', 0.8));
    backend.emit('assessment.progress', reading('harbour', YEAR, 'QT9 (1 of 1): 300 of 365 days read', 0.7));
    expect(store.computeProgress).toMatchObject({ fraction: 0.1 });

    answer.resolve(result('mill-lane'));
    await computing;
    expect(store.computing).toBe(false);
    expect(store.computeProgress).toBeNull();
    expect(backend.listenerCount('assessment.progress')).toBe(0);
  });

  it('a cancelled assessment keeps the result shown before it and says Cancelled, not an error', async () => {
    const store = useAssessmentStore();
    fake.assessment.compute.mockResolvedValueOnce(result('mill-lane', 3));
    await store.compute('mill-lane', RANGE);

    const answer = deferred<ShownAssessment>();
    fake.assessment.compute.mockReturnValueOnce(answer.promise);
    fake.assessment.cancelCompute.mockResolvedValueOnce({ cancelled: true });
    const computing = store.compute('mill-lane', YEAR);
    await store.cancelCompute('mill-lane');
    expectCalledWith(fake.assessment.cancelCompute, { siteId: 'mill-lane' });
    answer.reject(new FieldDeskError('cancelled', 'The assessment was cancelled.'));
    await computing;

    expect(store.computeCancelled).toBe(true);
    expect(store.computeError).toBeNull();
    expect(store.result?.computedAt).toBe(3);
    expect(store.computing).toBe(false);
  });

  it('clears the last error and "Cancelled" as soon as a new assessment starts', async () => {
    const store = useAssessmentStore();
    fake.assessment.compute.mockRejectedValueOnce(new FieldDeskError('offline', 'No connection.'));
    await store.compute('mill-lane', YEAR);
    expect(store.computeError?.code).toBe('offline');

    fake.assessment.compute.mockReturnValueOnce(new Promise(() => undefined));
    void store.compute('mill-lane', YEAR);
    // While it runs, the old failure is not shown over its progress.
    expect(store.computeError).toBeNull();
    expect(store.computing).toBe(true);
  });
});

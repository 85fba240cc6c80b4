/**
 * The assessment report on the path users run: the built harness (shaped like the Electron main
 * bundle) in a plain `node` child writes the PDF, so pdfkit's own data files and the embedded
 * DejaVu fonts are found from the bundle, not from vitest's module graph.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReportResult, Site } from '../../../src/shared/assessment';
import {
  ensureBuiltHarness,
  invokeBuilt,
  startBuiltHarness,
  startedHarnesses,
  stopBuiltHarness,
} from '../../built-harness';

const run = promisify(execFile);
const DAY = 86_400_000;

async function hasPdfToText(): Promise<boolean> {
  try {
    await run('pdftotext', ['-v']);
    return true;
  } catch {
    return false;
  }
}
const poppler = await hasPdfToText();

describe('the report from the built bundle', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const child of startedHarnesses) child.kill('SIGKILL');
    await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it.skipIf(!poppler)(
    poppler
      ? 'writes a PDF whose text (µg/m³, ≥, the site, its cover, conclusion and positions) reads back with pdftotext'
      : 'skipped: pdftotext is not installed here (Debian: poppler-utils), so the PDF cannot be read back',
    async () => {
      ensureBuiltHarness();
      const dataDir = await mkdtemp(join(tmpdir(), 'fielddesk-report-'));
      folders.push(dataDir);
      const cli = await startBuiltHarness({
        dataDir,
        keychainService: `FieldDesk-report-test-${randomUUID()}`,
        token: `report-${randomUUID()}`,
      });
      try {
        expect((await invokeBuilt(cli, 'accounts.tryDemo', {})).ok).toBe(true);
        const change = {
          name: 'Riverside Road',
          timeZone: 'Europe/London',
          serials: ['QT930998', 'AQ132935'],
          cover: {
            client: 'Thames Water',
            project: 'Mogden',
            reference: 'AC-114',
            author: 'J. Smith',
            company: 'Acme Acoustics Ltd',
            approver: 'A. Patel',
            revision: 'R01',
            status: 'draft',
          },
          positions: {
            instruments: {
              QT930998: { description: 'Rear garden of No. 14', height: 1.5, kind: 'freeField' },
            },
            weather: 'Site office roof',
          },
        };
        // The request is checked where it enters: a height of 1e9 m is refused with its reason.
        const refused = await invokeBuilt<Site>(cli, 'assessment.saveSite', {
          ...change,
          positions: {
            ...change.positions,
            instruments: { QT930998: { ...change.positions.instruments.QT930998, height: 1e9 } },
          },
        });
        expect(refused.error?.message).toBe('The height must be between 0 and 100 m above ground.');
        const site = await invokeBuilt<Site>(cli, 'assessment.saveSite', change);
        expect(site.error).toBeUndefined();
        expect(site.value.cover.status).toBe('draft');
        expect(site.value.positions.instruments['QT930998']!.height).toBe(1.5);
        const end = Math.floor(Date.now() / DAY) * DAY - DAY;
        const report = await invokeBuilt<ReportResult>(cli, 'assessment.report', {
          siteId: site.value.id,
          start: end - DAY,
          end,
          format: 'pdf',
        });
        expect(report.error).toBeUndefined();
        if (!report.value.saved) throw new Error('the report was not saved');
        const path = report.value.paths[0]!;
        expect((await readFile(path)).subarray(0, 5).toString()).toBe('%PDF-');
        const { stdout } = await run('pdftotext', ['-layout', path, '-']);
        expect(stdout).toContain('Riverside Road');
        expect(stdout).toContain('µg/m³');
        expect(stdout).toContain('≥ 65');
        expect(stdout).toMatch(/Status\s+Draft — not final\n/);
        expect(stdout).toMatch(/Issued by\s+Acme Acoustics Ltd\n/);
        expect(stdout).toMatch(/\nConclusion\n/);
        const flowing = stdout.replace(/\s+/g, ' ');
        expect(flowing).toContain('Rear garden of No. 14; 1.5 m above ground, free-field.');
        expect(flowing).toContain('Weather sensor: Site office roof.');
        const { stdout: fonts } = await run('pdffonts', [path]);
        expect(fonts).toContain('DejaVuSans');
      } finally {
        await stopBuiltHarness(cli);
      }
    },
    60_000,
  );
});

/**
 * The visit sheet: a one-or-two page A4 PDF of a site visit that an engineer hands over or files —
 * who came when, what was checked and found, which actions ran with their verdicts and with which
 * calibrator, the notes and the photos as thumbnails. Laid out with the report's page writer and
 * fonts (pdf/), so the two documents look like one product.
 */
import { CALIBRATOR_CLASS_LABELS, calibratorName } from '../../../shared/calibrators';
import { checkOfOutcome, checkVerdictsText } from '../../../shared/check-record';
import { dbText } from '../../../shared/format';
import type { ActionRecord } from '../../../shared/operations';
import { CHECK_STATE_LABELS, type SiteVisit } from '../../../shared/visits';
import { ACCENT, CONTENT_BOTTOM, LEFT, MUTED, Pages, stampFooters, WIDTH } from '../pdf/pdf-layout';
import { durationText, SiteClock } from '../assessment/report/report-format';
import { openPdf } from '../pdf/pdf-document';
import { writeThroughPart, type SaveTarget } from '../core/unfinished-files';

/** Photos printed on the sheet at most: it stays within two pages; the rest are named. */
const PHOTO_COLUMNS = 3;
const PHOTO_GAP = 10;
const PHOTO_HEIGHT = 118;

export interface VisitSheetInput {
  visit: SiteVisit;
  actions: ActionRecord[];
  /** The account's name, as the user knows it. */
  account: string;
  madeAt: number;
  /** The zone of the visit's site; without one, the computer's own (a visit is where the engineer is). */
  timeZone?: string | undefined;
}

/** The time zone the sheet states its times in, with its offset in the header. */
function sheetZone(input: VisitSheetInput): string {
  return input.timeZone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

/** "North gate (QT930998)" or the site's name. */
export function visitTitle(visit: SiteVisit): string {
  if (visit.site !== null) return visit.site.name;
  return visit.instruments
    .map((i) => (i.name === i.serial ? i.serial : `${i.name} (${i.serial})`))
    .join(', ');
}

/** "Site visit North gate 2026-11-27.pdf" */
export function visitSheetName(visit: SiteVisit): string {
  const what = visitTitle(visit)
    .replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-')
    .slice(0, 80);
  return `Site visit ${what} ${new Date(visit.arrivedAt).toISOString().slice(0, 10)}.pdf`;
}

/**
 * What the action found, in words: the check's one record as every output writes it ("Pass
 * (FieldDesk): level 94.02 dB, offset +0.01 dB, deviation +0.02 dB from the 94.0 dB reference,
 * allowed ±0.5 dB; the instrument reported “Success”"), or why there was no result.
 */
export function actionResultText(action: ActionRecord): string {
  const outcome = action.result;
  if (outcome?.kind === 'calibration') return checkVerdictsText(checkOfOutcome(outcome));
  if (outcome?.kind === 'sic') return checkVerdictsText(checkOfOutcome(outcome), outcome);
  if (outcome?.kind === 'identify' && action.state === 'succeeded') return 'Done';
  const state =
    action.state === 'timedOut'
      ? 'No result (timed out)'
      : action.state === 'cancelled'
        ? 'Stopped watching'
        : 'Failed';
  return action.message === '' ? state : `${state}: ${action.message}`;
}

/** The calibrator a calibration was made with, as kept with its record; '—' for another action. */
export function actionCalibratorText(action: ActionRecord): string {
  if (action.action !== 'Calibration') return '—';
  const calibrator = action.calibrator ?? null;
  if (calibrator === null) return 'Not recorded';
  return `${calibratorName(calibrator)}, ${CALIBRATOR_CLASS_LABELS[calibrator.class]}, set to ${dbText(calibrator.levelDb, { decimals: 'setting' })}, certificate due ${calibrator.dueDate}`;
}

function factRow(pages: Pages, label: string, value: string): void {
  const doc = pages.doc;
  const labelWidth = 92;
  doc.font('regular').fontSize(9.5);
  const height = doc.heightOfString(value, { width: WIDTH - labelWidth, lineGap: 1 });
  pages.need(height);
  doc
    .font('bold')
    .fontSize(9.5)
    .fillColor(MUTED)
    .text(label, LEFT, pages.y, { width: labelWidth - 8 });
  doc
    .font('regular')
    .fontSize(9.5)
    .fillColor('#1b1b1b')
    .text(value, LEFT + labelWidth, pages.y, { width: WIDTH - labelWidth, lineGap: 1 });
  pages.y += height + 3;
}

/** Lays the sheet out in memory; its bytes and page count. */
export async function renderVisitSheet(
  input: VisitSheetInput,
  thumbnail: (photoId: string) => Promise<Buffer | null>,
): Promise<{ data: Buffer; pages: number }> {
  const { visit, actions } = input;
  const clock = new SiteClock(sheetZone(input), visit.arrivedAt);
  const title = `Site visit: ${visitTitle(visit)}`;
  const { doc, finish } = openPdf({
    Title: title,
    Author: visit.engineer,
    Subject: `Site visit of ${clock.long(visit.arrivedAt)}`,
    Keywords: ['site visit', ...visit.instruments.map((i) => i.serial)].join(', '),
    Creator: 'FieldDesk',
    CreationDate: new Date(input.madeAt),
  });

  const pages = new Pages(doc);
  doc.font('bold').fontSize(17).fillColor(ACCENT).text(title, LEFT, pages.y, { width: WIDTH });
  pages.y = doc.y + 2;
  pages.text(`${input.account} · times in ${clock.zone} (UTC${clock.offset})`, {
    color: MUTED,
    size: 9,
    after: 10,
  });

  factRow(pages, 'Engineer', visit.engineer);
  factRow(pages, 'Arrived', clock.long(visit.arrivedAt, true));
  factRow(
    pages,
    'Left',
    visit.leftAt === null
      ? 'The visit was still open when this sheet was made.'
      : `${clock.long(visit.leftAt, true)} (on site ${durationText(visit.leftAt - visit.arrivedAt)})`,
  );
  if (visit.site !== null) factRow(pages, 'Site', visit.site.name);
  factRow(
    pages,
    visit.instruments.length === 1 ? 'Instrument' : 'Instruments',
    visit.instruments
      .map((i) => [i.serial, i.name === i.serial ? '' : i.name, i.model].filter(Boolean).join(' · '))
      .join('\n'),
  );

  const several = visit.instruments.length > 1;
  pages.heading('Actions during the visit', 40);
  if (actions.length === 0) {
    pages.text('No Identify, Calibration or SIC was run from FieldDesk while the visit was open.', {
      color: MUTED,
    });
  } else {
    pages.table(
      'Actions during the visit',
      {
        columns: [
          { header: 'Time', weight: 1.1, align: 'left' },
          ...(several ? [{ header: 'Instrument', weight: 0.9, align: 'left' as const }] : []),
          { header: 'Action', weight: 0.8, align: 'left' },
          { header: 'Result', weight: 3, align: 'left' },
          { header: 'Calibrator', weight: 1.4, align: 'left' },
        ],
        rows: [...actions]
          .sort((a, b) => a.startedAt - b.startedAt)
          .map((a) => [
            clock.seconds(a.startedAt),
            ...(several ? [a.serial] : []),
            a.action,
            actionResultText(a),
            actionCalibratorText(a),
          ]),
      },
      false,
    );
  }

  pages.heading('Checklist', 40);
  pages.table(
    'Checklist',
    {
      columns: [
        ...(several ? [{ header: 'Instrument', weight: 0.9, align: 'left' as const }] : []),
        { header: 'Item', weight: 2.2, align: 'left' },
        { header: 'Found', weight: 0.9, align: 'left' },
        { header: 'Note', weight: 3, align: 'left' },
      ],
      rows: visit.checklist.map((item) => [
        ...(several ? [item.serial] : []),
        item.label,
        item.state === null ? 'Not checked' : CHECK_STATE_LABELS[item.state],
        item.note,
      ]),
      // What needs doing stands out: an Issue row shaded and in bold.
      marked: visit.checklist.map((item) => item.state === 'issue'),
    },
    false,
  );

  pages.heading('Notes', 30);
  pages.text(visit.notes.trim() === '' ? 'No notes.' : visit.notes.trim(), {
    size: 9.5,
    ...(visit.notes.trim() === '' ? { color: MUTED } : {}),
  });

  if (visit.photos.length > 0) {
    pages.heading(`Photos (${visit.photos.length})`, PHOTO_HEIGHT + 20);
    // Every photo, three a row, the grid running on over pages.
    const shown = visit.photos;
    const cell = (WIDTH - (PHOTO_COLUMNS - 1) * PHOTO_GAP) / PHOTO_COLUMNS;
    for (let row = 0; row * PHOTO_COLUMNS < shown.length; row++) {
      const photos = shown.slice(row * PHOTO_COLUMNS, (row + 1) * PHOTO_COLUMNS);
      if (row > 0 && pages.y + PHOTO_HEIGHT + 26 > CONTENT_BOTTOM) {
        pages.newPage();
        pages.subheading('Photos (continued)', PHOTO_HEIGHT + 12);
      } else pages.need(PHOTO_HEIGHT + 26);
      const top = pages.y;
      let captionsEnd = top + PHOTO_HEIGHT;
      for (const [column, photo] of photos.entries()) {
        const x = LEFT + column * (cell + PHOTO_GAP);
        const bytes = await thumbnail(photo.id);
        if (bytes === null) {
          doc
            .font('regular')
            .fontSize(8)
            .fillColor(MUTED)
            .text(`The copy of ${photo.fileName} is missing.`, x, top + 40, { width: cell });
        } else {
          doc.image(bytes, x, top, { fit: [cell, PHOTO_HEIGHT], align: 'center', valign: 'center' });
        }
        const caption = photo.caption.trim() === '' ? photo.fileName : `${photo.caption} (${photo.fileName})`;
        doc
          .font('regular')
          .fontSize(7.8)
          .fillColor(MUTED)
          .text(caption, x, top + PHOTO_HEIGHT + 3, { width: cell });
        captionsEnd = Math.max(captionsEnd, doc.y);
      }
      pages.y = captionsEnd + 8;
    }
  }

  // The footer is one line: the serials name the visit shortly where a site's name may be long.
  const serials = visit.instruments.map((i) => i.serial).join(', ');
  const count = stampFooters(
    doc,
    `Site visit ${serials}, ${clock.short(visit.arrivedAt)} · sheet made ${clock.long(input.madeAt)} with FieldDesk`,
  );
  return { data: await finish(), pages: count };
}

/** Writes the sheet through a temporary file: a sheet cut short is never left under its name. */
export async function writeVisitSheet(
  target: SaveTarget,
  input: VisitSheetInput,
  thumbnail: (photoId: string) => Promise<Buffer | null>,
): Promise<{ bytes: number; pages: number }> {
  const { data, pages } = await renderVisitSheet(input, thumbnail);
  await writeThroughPart(target, (handle) => handle.writeFile(data));
  return { bytes: data.byteLength, pages };
}

/**
 * How a calibration or SIC result is judged, in one place for the action verdicts, the history
 * charts and the assessment's evidence: the instrument's own verdict from its status word, the
 * calibrator level a level that missed its reference by ~20 dB belongs to, and each SIC tone
 * against its own reference. The service documents no expected tone levels, so a tone's reference
 * is its median in the instrument's last passing checks (robust to one odd reading).
 */
import type { CheckEvidence } from './assessment';
import { dbText } from './format';
import {
  CALIBRATION_REFERENCE_LEVELS_DB,
  SIC_TONE_LABELS,
  SIC_TONES,
  type SicTone,
  type SicToneJudgement,
} from './operations';

/** How many of the instrument's latest passing SICs a tone's reference is the median of. */
export const SIC_REFERENCE_CHECKS = 10;

/** A hair of slack so 94.5 against 94.0 ± 0.5 passes despite binary fractions. */
const EPSILON = 1e-9;

/** The instrument's own verdict from its status word: Success, Failed/Error, or another word (null). */
export function instrumentPassed(status: string): boolean | null {
  const normal = status.trim().toLowerCase();
  if (normal === 'success') return true;
  return normal === 'failed' || normal === 'fail' || normal === 'error' ? false : null;
}

/**
 * The other usual calibrator level (94 or 114 dB) a measured level sits at, when it missed the
 * chosen reference: within two tolerances of it, so a microphone a little off still gets the hint.
 * Null when the level is near the reference or near no calibrator level.
 */
export function probableCalibratorLevel(
  level: number | null,
  referenceDb: number,
  toleranceDb: number,
): number | null {
  if (level === null) return null;
  const other = CALIBRATION_REFERENCE_LEVELS_DB.find(
    (candidate) => candidate !== referenceDb && Math.abs(level - candidate) <= 2 * toleranceDb + EPSILON,
  );
  return other ?? null;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The tone levels of a SIC as the service reports them. */
export type SicLevels = { time: number; status: string } & Record<SicTone, number | null>;

/** A tone's reference: the median of its readings in the last passing checks. */
export interface SicToneReference {
  tone: SicTone;
  /** Null when none of those checks read the tone. */
  medianDb: number | null;
  /** How many readings the median is of. */
  checks: number;
}

/**
 * Each tone's reference from the checks recorded before `before` (epoch ms): the median of the
 * tone over the last `count` passing checks. A tone no passing check read has a null median.
 */
export function sicReferences(
  history: readonly SicLevels[],
  before: number,
  count = SIC_REFERENCE_CHECKS,
): SicToneReference[] {
  const passing = history
    .filter((check) => check.time < before && instrumentPassed(check.status) === true)
    .sort((a, b) => a.time - b.time)
    .slice(-count);
  return SIC_TONES.map((tone) => {
    const readings = passing.flatMap((check) => (check[tone] === null ? [] : [check[tone] as number]));
    // Rounded to the hundredth: the readings have one decimal, an even count's median two.
    const centre = median(readings);
    return {
      tone,
      medianDb: centre === null ? null : Math.round(centre * 100) / 100,
      checks: readings.length,
    };
  });
}

/** Each tone of `check` against its reference and the tolerance. */
export function judgeSicTones(
  check: Record<SicTone, number | null>,
  references: readonly SicToneReference[],
  toleranceDb: number,
): SicToneJudgement[] {
  return SIC_TONES.map((tone) => {
    const reference = references.find((r) => r.tone === tone);
    const levelDb = check[tone];
    const referenceDb = reference?.medianDb ?? null;
    return {
      tone,
      levelDb,
      referenceDb,
      referenceChecks: reference?.checks ?? 0,
      toleranceDb,
      within:
        levelDb === null || referenceDb === null
          ? null
          : Math.abs(levelDb - referenceDb) <= toleranceDb + EPSILON,
    };
  });
}

/** The tones outside their band, furthest first. */
export function failingTones(tones: readonly SicToneJudgement[]): SicToneJudgement[] {
  const distance = (t: SicToneJudgement) => Math.abs((t.levelDb ?? 0) - (t.referenceDb ?? 0));
  return tones.filter((t) => t.within === false).sort((a, b) => distance(b) - distance(a));
}

const db = (value: number): string => dbText(value, { decimals: 'setting' });

/** "79.6 ± 2.0 dB" */
export const sicBandText = (tone: Pick<SicToneJudgement, 'referenceDb' | 'toleranceDb'>): string =>
  tone.referenceDb === null
    ? ''
    : `${dbText(tone.referenceDb, { decimals: 'setting', unit: false })} ± ${db(tone.toleranceDb)}`;

/** "the median of the last 10 passing checks", "the only earlier passing check". */
export function referenceBasisText(checks: number): string {
  return checks === 1 ? 'the only earlier passing check' : `the median of the last ${checks} passing checks`;
}

/**
 * "8 kHz tone 74.1 dB, expected 79.6 ± 2.0 dB (the median of the last 10 passing checks)": a tone,
 * its reading and its allowed band.
 */
export function sicToneText(tone: SicToneJudgement): string {
  const reading = tone.levelDb === null ? 'no reading' : dbText(tone.levelDb, { decimals: 1 });
  const label = `${SIC_TONE_LABELS[tone.tone]} tone ${reading}`;
  if (tone.referenceDb === null) return `${label}, no earlier passing check to judge it against`;
  return `${label}, expected ${sicBandText(tone)} (${referenceBasisText(tone.referenceChecks)})`;
}

const toleranceText = (value: number): string => `±${dbText(value, { decimals: 'setting' })}`;

/**
 * The verdict of a row, short enough for the PDF's column: a calibration's drift against its
 * tolerance, a SIC's tones against their bands (the failing tone named), and "FLAGGED: …" for
 * whatever a reviewer must not miss. The spreadsheets carry the flag in full in their own column.
 */
export function checkVerdictText(check: CheckEvidence): string {
  if (check.missing) return `FLAGGED: no calibration ${check.when} the period`;
  if (check.kind === 'calibration') {
    const drift =
      check.drift === null || check.driftWithinTolerance === null
        ? ''
        : `${check.driftWithinTolerance ? 'within' : 'outside'} ${toleranceText(check.tolerance)}`;
    if (check.passed === false) return `FLAGGED: failed${drift ? `; drift ${drift}` : ''}`;
    return check.driftWithinTolerance === false ? `FLAGGED: drift ${drift}` : drift;
  }
  const tones = check.tones ?? [];
  const failing = failingTones(tones);
  const toneWords = failing.map(
    (t) => `${SIC_TONE_LABELS[t.tone]} ${dbText(t.levelDb, { decimals: 1 })} outside ${sicBandText(t)}`,
  );
  if (check.passed === false || failing.length > 0)
    return `FLAGGED: ${[...(check.passed === false ? ['failed'] : []), ...toneWords].join('; ')}`;
  // A result computed before SIC tones were judged has none: nothing to say, rather than a wrong rule.
  if (check.tones === undefined) return '';
  if (tones.every((t) => t.within === null)) return 'tones not judged: no earlier pass';
  return `tones within ${toleranceText(check.tolerance)}`;
}

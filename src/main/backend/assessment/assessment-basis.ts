/**
 * What an assessment was computed from, as one digest: the site as saved, the period, the
 * tolerances in force, the readings read for it and the records its calibration evidence names.
 * A report whose basis has the digest of the assessment on screen writes that assessment (the same
 * figures, the same computed time) instead of computing it again; anything changed computes anew.
 *
 * Where the readings came from (the service or the copy, and when) is left out: the second read of
 * the same readings comes from the copy, and the figures of the same readings are the same. The
 * readings themselves go in byte for byte, so a reading that arrived or changed since is a change.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Site } from '../../../shared/assessment';
import type { ActionRecord } from '../../../shared/operations';
import type { AssessmentInputs } from './assessment-inputs';
import type { VisitOnRecord } from './evidence';

export interface AssessmentBasis {
  site: Site;
  start: number;
  end: number;
  toleranceDb: number;
  sicToleranceDb: number;
  inputs: AssessmentInputs;
  /** Each instrument's action records and site visits, as the evidence read them. */
  evidence: ReadonlyArray<{
    serial: string;
    actions: readonly ActionRecord[];
    visits: readonly VisitOnRecord[];
  }>;
}

/**
 * Keys that say where, when or how readings were read, not what they are (a calibration history
 * is asked up to the moment it is read; the site and the period say what was asked).
 */
const WHERE_FROM = new Set(['provenance', 'fromCache', 'dataFetchedAt', 'dataOrigin', 'query']);

/**
 * A JSON replacer that leaves out where the readings came from, writes every object's keys in one
 * order (reads made side by side are kept in the order they ended) and feeds each typed array's
 * bytes to `hash` in order (JSON would spell a week of 1 s readings out as ~10 MB of text).
 */
function hashingReplacer(hash: Hash): (key: string, value: unknown) => unknown {
  let arrays = 0;
  return (key, value) => {
    if (WHERE_FROM.has(key)) return undefined;
    if (ArrayBuffer.isView(value)) {
      hash.update(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      return { typedArray: arrays++, length: value.byteLength };
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return value;
  };
}

/**
 * The site as the figures see it: its report's texts (cover, conclusion, measurement positions)
 * and when it was saved change the report, not the assessment, and are taken fresh for each report.
 */
function assessedSite(site: Site): Omit<Site, 'cover' | 'conclusion' | 'positions' | 'updatedAt'> {
  const {
    cover: _cover,
    conclusion: _conclusion,
    positions: _positions,
    updatedAt: _updatedAt,
    ...assessed
  } = site;
  return assessed;
}

/** The digest of what an assessment is computed from (see the file's comment). */
export function basisDigest(basis: AssessmentBasis): string {
  const hash = createHash('sha256');
  const hashed = {
    ...basis,
    site: assessedSite(basis.site),
    // Notes come in the order the reads ended, which is not what they say.
    inputs: { ...basis.inputs, notes: [...basis.inputs.notes].sort() },
  };
  const text = JSON.stringify(hashed, hashingReplacer(hash));
  return hash.update(text).digest('hex');
}

/**
 * The site's measurement positions in words, said once for the method and the instruments table:
 * where each instrument stood, its height above ground and whether it was free-field or at a
 * façade, and where the weather sensor was. The engine corrects no level for a façade, so a façade
 * position is said as such with its figures as measured.
 */
import {
  POSITION_KIND_WORDS,
  positionOf,
  type AssessmentResult,
  type MeasurementPosition,
  type SitePositions,
} from '../../../../shared/assessment';
import { instrumentText } from './report-verdicts';

/** Free text as a sentence's part: without the full stop the engineer may have typed. */
const clause = (text: string): string => text.trim().replace(/[.\s]+$/, '');

/** "1.5 m", "4 m": a height as entered (to the centimetre at most). */
export const heightText = (height: number): string => `${Number(height.toFixed(2))} m`;

/** "1.5 m above ground, façade", "free-field", or '' when neither is stated. */
export function positionFacts(position: MeasurementPosition): string {
  return [
    position.height === null ? '' : `${heightText(position.height)} above ground`,
    position.kind === 'unstated' ? '' : POSITION_KIND_WORDS[position.kind],
  ]
    .filter(Boolean)
    .join(', ');
}

/** Whether the site states anything of where it measured. */
const anyStated = (result: AssessmentResult, positions: SitePositions): boolean =>
  positions.weather !== '' ||
  result.instruments.some((i) => {
    const position = positionOf(positions, i.serial);
    return position.description !== '' || position.height !== null || position.kind !== 'unstated';
  });

/**
 * The method's paragraph on the positions: an instrument a sentence ("QT930998 (Mill Lane): rear
 * garden of 14 Mill Lane; 1.5 m above ground, free-field."), what a façade position means for its
 * levels, and the weather sensor's place; that none was described when the site says nothing.
 */
export function positionsMethodText(
  result: AssessmentResult,
  positions: SitePositions,
  noise: boolean,
): string {
  if (!anyStated(result, positions)) return 'The measurement positions were not described for this report.';
  const sentences = result.instruments.map((i) => {
    const position = positionOf(positions, i.serial);
    const said = [clause(position.description), positionFacts(position)].filter(Boolean).join('; ');
    return `${instrumentText(result, i.serial)}: ${said === '' ? 'position not described' : said}.`;
  });
  const facade = result.instruments.filter((i) => positionOf(positions, i.serial).kind === 'facade');
  if (noise && facade.length > 0)
    sentences.push(
      `${facade.length === 1 ? 'This façade position' : 'These façade positions'} (${facade.map((i) => i.serial).join(', ')}) ${facade.length === 1 ? 'is' : 'are'} about 1 m in front of a reflecting façade: ${facade.length === 1 ? 'its' : 'their'} levels include the reflection, about +3 dB above a free-field level. The figures are reported as measured, not corrected for the reflection.`,
    );
  sentences.push(
    positions.weather === ''
      ? "The weather sensor's place was not described."
      : `Weather sensor: ${clause(positions.weather)}.`,
  );
  return sentences.join(' ');
}

/**
 * The instruments table's printed position cell: the description, its height and kind, then the
 * instrument's reported latitude and longitude, a line each.
 */
export function positionCell(position: MeasurementPosition, latLong: string): string {
  const facts = positionFacts(position);
  return [position.description || 'not described', ...(facts === '' ? [] : [facts]), latLong].join('\n');
}

/**
 * How an assessment's figures are said in words, in the one vocabulary every output uses — the
 * screen, the PDF, Excel and CSV: a coverage ("74 %"), a figure's state ("insufficient data (41 %)")
 * and its value with its unit ("63.7 dB").
 */
import type { Figure } from './assessment';

/**
 * A coverage as said beside a figure: whole percent rounded down, so a share just below the
 * minimum never reads as the minimum ("74 %", not "75 %").
 */
export const coveragePercent = (coverage: number): number => Math.floor(coverage * 100 + 1e-9);

/** "74 %": a coverage as every output writes it. */
export const coverageText = (coverage: number): string => `${coveragePercent(coverage)} %`;

/**
 * A figure's state in the one vocabulary every output uses: "stated", "insufficient data (41 %)"
 * (too little of its period kept), "all excluded" (readings, none kept) or "no readings".
 */
export function figureStateWords(figure: Pick<Figure, 'state' | 'all' | 'valid' | 'coverage'>): string {
  if (figure.state === 'ok' && figure.valid !== null) return 'stated';
  if (figure.state === 'noData') return 'no readings';
  if (figure.valid === null && figure.all !== null && figure.coverage === 0) return 'all excluded';
  return `insufficient data (${coverageText(figure.coverage)})`;
}

/**
 * A figure's value as every output states it: "63.7 dB" (or "63.7" without the unit), or its
 * state when it cannot be stated ("insufficient data (41 %)", "all excluded", "no readings"). One
 * function, so the screen, PDF, Excel and CSV agree.
 */
export function figureValueText(
  figure: Pick<Figure, 'state' | 'all' | 'valid' | 'coverage' | 'decimals' | 'unit'>,
  options: { unit?: boolean } = {},
): string {
  if (figure.state !== 'ok' || figure.valid === null) return figureStateWords(figure);
  return quantityText(figure.valid, figure.decimals, options.unit === false ? '' : figure.unit);
}

/** A value at `decimals` with its unit ("54.2 dB", "1 event", "3 days"); the number alone without one. */
export function quantityText(value: number, decimals: number, unit: string): string {
  const number = value.toFixed(decimals);
  if (unit === '') return number;
  if ((unit === 'events' || unit === 'days') && value === 1) return `${number} ${unit.slice(0, -1)}`;
  return `${number} ${unit}`;
}

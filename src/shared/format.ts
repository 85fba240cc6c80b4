/** How FieldDesk writes figures in words, one way everywhere: sizes, decibels, durations. */
import { formatDuration, type Locale } from 'date-fns';
import { enGB } from 'date-fns/locale';

/**
 * Byte counts as people read download sizes: "0 kB", "<1 kB", "340 kB", "3.4 MB", "1.25 GB"
 * (decimal SI units). One formatter for the backend's messages and the renderer's figures, so a
 * size never reads differently in two places of one screen.
 */
export function bytesText(bytes: number): string {
  if (bytes > 0 && bytes < 500) return '<1 kB';
  if (bytes < 999_500) return `${Math.round(bytes / 1000)} kB`;
  if (bytes < 999_500_000) {
    const mb = bytes / 1_000_000;
    return `${mb < 9.95 ? mb.toFixed(1) : Math.round(mb)} MB`;
  }
  return `${(bytes / 1_000_000_000).toFixed(2)} GB`;
}

const MINUS = '\u2212';

/** date-fns's English, but minutes as FieldDesk writes them ("2 min"): for every duration in words. */
export const DURATION_LOCALE: Locale = {
  ...enGB,
  formatDistance: (token, count, options) =>
    token === 'xMinutes' ? `${count} min` : enGB.formatDistance(token, count, options),
};

/**
 * A wait or a time limit in words for messages, rounded up to its unit: "40 seconds", "2 min",
 * "3 hours", "2 days". One wording for the backend's messages (time-outs, Retry-After).
 */
export function durationWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const duration =
    seconds < 90
      ? { seconds }
      : seconds < 90 * 60
        ? { minutes: Math.ceil(seconds / 60) }
        : seconds < 48 * 3600
          ? { hours: Math.ceil(seconds / 3600) }
          : { days: Math.ceil(seconds / 86_400) };
  return formatDuration(duration, { locale: DURATION_LOCALE });
}

export interface DbTextOptions {
  /**
   * Decimal places: 2 (the default: levels as instruments report them), 1, or `'setting'`: one,
   * or two when the second matters ("94.0 dB", "0.25 dB"), for levels and tolerances people set.
   */
  decimals?: 1 | 2 | 'setting';
  /** Say which way a deviation goes: "+0.12 dB", "−0.31 dB", "±0.00 dB". */
  signed?: boolean;
  /** Leave out " dB", where the unit is said once around the figures. */
  unit?: boolean;
  /** What a missing reading reads as; "—" unless said otherwise. */
  missing?: string;
}

/**
 * The decimals of `dbText(value, { decimals: 'setting' })`: one, or two when the second matters
 * (94.0, 93.95). The spreadsheets state a value to the same decimals, so every format agrees.
 */
export function settingDecimals(value: number): 1 | 2 {
  const tenths = value * 10;
  return Math.abs(tenths - Math.round(tenths)) < 1e-6 ? 1 : 2;
}

/**
 * Decibels as FieldDesk writes them everywhere (screens, notifications, the backend's messages),
 * so a level never reads differently in two places: "94.02 dB", "+0.12 dB", "94.0 dB".
 */
export function dbText(value: number | null, options: DbTextOptions = {}): string {
  if (value === null) return options.missing ?? '—';
  const decimals = options.decimals === 'setting' ? settingDecimals(value) : (options.decimals ?? 2);
  const unit = options.unit === false ? '' : ' dB';
  if (!options.signed) return `${value.toFixed(decimals)}${unit}`;
  // The sign of what is shown, so a deviation that rounds to zero reads "±0.00", never "−0.00".
  const scale = 10 ** decimals;
  const rounded = Math.round(value * scale) / scale;
  const sign = rounded > 0 ? '+' : rounded < 0 ? MINUS : '±';
  return `${sign}${Math.abs(rounded).toFixed(decimals)}${unit}`;
}

const groupedNumbers = new Map<string, Intl.NumberFormat>();

/**
 * A figure as FieldDesk writes numbers on screen, one way everywhere: thousands separated
 * ("1,847,702"), to `decimals` places ("3.0") or, with `maxDecimals`, to at most that many (a
 * Float32's tail cut: "64.2"). A value that rounds to zero reads "0", never "-0". Exports write
 * plain numbers instead (a spreadsheet reads "1847702", not "1,847,702", as a number).
 */
export function numberText(value: number, places: { decimals: number } | { maxDecimals: number }): string {
  const key = 'decimals' in places ? `=${places.decimals}` : `<${places.maxDecimals}`;
  let format = groupedNumbers.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-GB', {
      ...('decimals' in places
        ? { minimumFractionDigits: places.decimals, maximumFractionDigits: places.decimals }
        : { maximumFractionDigits: places.maxDecimals }),
      // No sign for a value shown as zero: a reading of -0.01 at one decimal is "0.0", not "-0.0".
      signDisplay: 'negative',
    });
    groupedNumbers.set(key, format);
  }
  return format.format(value);
}

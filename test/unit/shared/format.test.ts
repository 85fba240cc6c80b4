import { describe, expect, it } from 'vitest';
import { bytesText, dbText, durationWords } from '../../../src/shared/format';

describe('bytesText', () => {
  it('reads sizes in decimal units, never showing a non-empty size as zero', () => {
    expect(bytesText(0)).toBe('0 kB');
    expect(bytesText(200)).toBe('<1 kB');
    expect(bytesText(340_000)).toBe('340 kB');
    expect(bytesText(121_300)).toBe('121 kB');
    expect(bytesText(3_400_000)).toBe('3.4 MB');
    expect(bytesText(25_000_000)).toBe('25 MB');
    expect(bytesText(1_250_000_000)).toBe('1.25 GB');
  });

  it('rounds up to the next unit instead of writing "1000 kB" or "10.0 MB"', () => {
    expect(bytesText(999_700)).toBe('1.0 MB');
    expect(bytesText(9_970_000)).toBe('10 MB');
    expect(bytesText(999_600_000)).toBe('1.00 GB');
  });
});

describe('dbText', () => {
  it('writes levels to the hundredth, or as asked, with a dash or the caller’s words for no reading', () => {
    expect(dbText(94.016)).toBe('94.02 dB');
    expect(dbText(93.88, { decimals: 1 })).toBe('93.9 dB');
    expect(dbText(0, { decimals: 1 })).toBe('0.0 dB');
    expect(dbText(null)).toBe('—');
    expect(dbText(null, { missing: 'no reading' })).toBe('no reading');
  });

  it('says which way a deviation goes, with a true minus, and ± for none', () => {
    expect(dbText(0.123, { signed: true })).toBe('+0.12 dB');
    expect(dbText(-0.314, { signed: true })).toBe('\u22120.31 dB');
    expect(dbText(0, { signed: true })).toBe('±0.00 dB');
    expect(dbText(-0.001, { signed: true })).toBe('±0.00 dB');
    expect(dbText(-0.2, { signed: true, unit: false })).toBe('\u22120.20');
  });

  it('writes settings with one decimal unless the second matters', () => {
    expect(dbText(94, { decimals: 'setting' })).toBe('94.0 dB');
    expect(dbText(0.5, { decimals: 'setting' })).toBe('0.5 dB');
    expect(dbText(0.25, { decimals: 'setting' })).toBe('0.25 dB');
  });
});

describe('durationWords', () => {
  it('says a wait or a time limit in its unit, rounded up, with FieldDesk’s "min"', () => {
    expect(durationWords(1)).toBe('1 second');
    expect(durationWords(15_000)).toBe('15 seconds');
    expect(durationWords(89_000)).toBe('89 seconds');
    expect(durationWords(120_000)).toBe('2 min');
    expect(durationWords(121_000)).toBe('3 min');
    expect(durationWords(3 * 3_600_000)).toBe('3 hours');
    expect(durationWords(3 * 86_400_000)).toBe('3 days');
  });
});

import { describe, expect, it } from 'vitest';
import { bytesText } from '../../../src/shared/format';

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

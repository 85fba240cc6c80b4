import { describe, expect, it } from 'vitest';
import { dataSourceText } from '../../../src/renderer/src/features/data/chart-image';

const T = Date.UTC(2026, 6, 14, 13, 5);

describe("a chart image's footer", () => {
  it('says where the data came from in plain words, in the zone shown, with no cache jargon', () => {
    const texts = [
      dataSourceText({ source: 'fresh', fetchedAt: T }, 'Europe/London'),
      dataSourceText(
        { source: 'cached', cachedAt: T, refreshed: { intervals: [], fetchedAt: T + 300_000 } },
        'Europe/London',
      ),
      dataSourceText({ source: 'cached', cachedAt: T, upTo: T - 3_600_000 }, 'utc'),
    ];
    expect(texts[0]).toBe('Data read from the monitoring service on 14 Jul 2026 14:05 UTC+01:00.');
    expect(texts[1]).toBe(
      'Data read from the monitoring service on 14 Jul 2026 14:05 UTC+01:00; the latest part read again on 14 Jul 2026 14:10 UTC+01:00.',
    );
    expect(texts[2]).toBe(
      'Data read from the monitoring service on 14 Jul 2026 13:05 UTC; nothing after 14 Jul 2026 12:05 UTC had been read.',
    );
    for (const text of texts) expect(text).not.toMatch(/cache|fetched|just now/i);
  });

  it('says part of the range has no data, and why', () => {
    expect(
      dataSourceText(
        {
          source: 'partial',
          cachedAt: null,
          missing: [{ start: T, end: T + 1 }],
          reason: { code: 'offline', message: 'The service cannot be reached.', retryable: true },
        },
        'utc',
      ),
    ).toBe(
      'Part of this range has no data: it could not be read from the monitoring service. The service cannot be reached.',
    );
  });
});

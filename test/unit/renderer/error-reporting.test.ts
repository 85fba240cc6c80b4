import { createApp } from 'vue';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RendererError } from '../../../src/shared/diagnostics';
import { installErrorReporting, REPORTS_PER_MINUTE } from '../../../src/renderer/src/error-reporting';

afterEach(() => vi.restoreAllMocks());

/** The app with reporting installed on a stand-in window; answers what reached the log. */
function installed(options: { fail?: boolean } = {}) {
  const reports: RendererError[] = [];
  let now = Date.UTC(2026, 10, 29, 9, 0, 0);
  const target = new EventTarget();
  const app = createApp({});
  installErrorReporting(app, {
    report: async (error) => {
      if (options.fail) throw new Error('backend gone');
      reports.push(error);
    },
    where: () => '/instruments/QT218728/data',
    now: () => now,
    target: target as unknown as Pick<Window, 'addEventListener'>,
  });
  const rejection = (reason: unknown) =>
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }));
  return { app, reports, rejection, target, later: (ms: number) => (now += ms) };
}

describe('errors the renderer meets outside a request', () => {
  it('reports an unhandled rejection, an error event and a component’s error with where it happened', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { app, reports, rejection, target } = installed();
    rejection(new TypeError('cannot read properties of undefined'));
    target.dispatchEvent(
      Object.assign(new Event('error'), { error: new RangeError('bad length'), message: 'x' }),
    );
    app.config.errorHandler?.(new Error('render failed'), null, 'render function');
    await Promise.resolve();
    expect(reports).toEqual([
      expect.objectContaining({
        source: 'promise',
        message: 'TypeError: cannot read properties of undefined',
        stack: expect.stringContaining('TypeError'),
        where: '/instruments/QT218728/data',
      }),
      expect.objectContaining({ source: 'window', message: 'RangeError: bad length' }),
      expect.objectContaining({
        source: 'component',
        message: 'Error: render failed',
        where: '/instruments/QT218728/data (a component, render function)',
      }),
    ]);
  });

  it('reports a value that is not an Error as text', async () => {
    const { reports, rejection } = installed();
    rejection({ code: 'offline' });
    rejection('plain words');
    await Promise.resolve();
    expect(reports.map((r) => r.message)).toEqual(['{"code":"offline"}', 'plain words']);
  });

  it(`reports ${REPORTS_PER_MINUTE} a minute, then says how many it left out`, async () => {
    const { reports, rejection, later } = installed();
    for (let i = 0; i < REPORTS_PER_MINUTE + 5; i++) rejection(new Error(`loop ${i}`));
    await Promise.resolve();
    expect(reports).toHaveLength(REPORTS_PER_MINUTE);
    later(60_000);
    rejection(new Error('after a minute'));
    await Promise.resolve();
    expect(reports.at(-1)).toMatchObject({ message: 'Error: after a minute', dropped: 5 });
  });

  it('says on the console when the log cannot be reached, and goes on', async () => {
    const complaints = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { rejection } = installed({ fail: true });
    expect(() => rejection(new Error('first'))).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(complaints).toHaveBeenCalledWith('FieldDesk could not log an error:', expect.any(Error));
  });
});

import { describe, expect, it } from 'vitest';
import { KeyRateLimiter, resolveDemoKeys } from '../../../src/simulator/auth';
import { createDemoApp, DEFAULT_DEMO_KEY } from '../../../src/simulator';
import { ENDPOINTS, SCOPES, type EndpointRule, type Scope } from '../../../src/shared/service/scopes';
import { call, errorBody, manualClock } from './helpers';

const SAMPLE_PARAMS: Record<string, string> = {
  serial: 'QT000000',
  recordingId: 'rec-1',
  type: 'PPV',
  id: 'ev-1',
  webhookId: 'wh-1',
};

/** A concrete path for a rule, e.g. `/control/instruments/QT000000/status`. */
function concretePath(rule: EndpointRule, params: Record<string, string> = SAMPLE_PARAMS): string {
  return rule.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? 'x');
}

const allBut = (excluded: readonly Scope[]): Scope[] => SCOPES.filter((scope) => !excluded.includes(scope));

describe('authentication', () => {
  const app = createDemoApp({ keys: { reader: ['instruments:read'] } });

  it('answers 401 TokenExpired when the X-Api-Key header is missing', async () => {
    const response = await call(app, 'GET', '/control/instruments');
    expect(response.status).toBe(401);
    const body = await errorBody(response);
    expect(body.error).toBe('TokenExpired');
    expect(body.description).toMatch(/no API key/);
  });

  it('answers 401 TokenExpired, saying it is not recognised, for an unknown key', async () => {
    const response = await call(app, 'GET', '/control/instruments', { key: 'guessed' });
    expect(response.status).toBe(401);
    const body = await errorBody(response);
    expect(body.error).toBe('TokenExpired');
    expect(body.description).toMatch(/not recognised/);
  });

  it('answers 401 for every endpoint without a key', async () => {
    for (const rule of ENDPOINTS) {
      const response = await call(app, rule.method, concretePath(rule));
      expect(response.status, `${rule.method} ${rule.path}`).toBe(401);
    }
  });

  it('answers 404 NotFound for a path outside the interface, before checking the key', async () => {
    for (const key of [undefined, 'reader']) {
      const response = await call(app, 'GET', '/control/gadgets', key === undefined ? {} : { key });
      expect(response.status).toBe(404);
      expect((await errorBody(response)).error).toBe('NotFound');
    }
    const wrongMethod = await call(app, 'DELETE', '/control/instruments', { key: 'reader' });
    expect(wrongMethod.status).toBe(404);
  });

  it('treats a trailing slash as the same endpoint', async () => {
    const response = await call(app, 'GET', '/control/instruments/', { key: 'reader' });
    expect(response.status).toBe(200);
  });
});

describe('scopes, for every endpoint of the interface', () => {
  it('answers 403 AccessDenied naming the scope when the key lacks one', async () => {
    for (const rule of ENDPOINTS) {
      for (const lacking of rule.scopes) {
        const app = createDemoApp({ keys: { partial: allBut([lacking]) } });
        const response = await call(app, rule.method, concretePath(rule), { key: 'partial' });
        const label = `${rule.method} ${rule.path} without ${lacking}`;
        expect(response.status, label).toBe(403);
        const body = await errorBody(response);
        expect(body.error, label).toBe('AccessDenied');
        expect(body.description, label).toBe(`The API key lacks the required scope: ${lacking}.`);
      }
    }
  });

  it('names every missing scope, comma-separated, when the key lacks several', async () => {
    const rule = ENDPOINTS.find((r) => r.scopes.length > 1);
    expect(rule).toBeDefined();
    const scopes = rule?.scopes ?? [];
    const app = createDemoApp({ keys: { none: allBut(scopes) } });
    const response = await call(app, rule?.method ?? 'GET', concretePath(rule as EndpointRule), {
      key: 'none',
    });
    expect(response.status).toBe(403);
    const description = (await errorBody(response)).description;
    expect(description).toBe(`The API key lacks the required scope: ${scopes.join(', ')}.`);
    // The form clients parse.
    const parsed = /scope: (.+)\.$/.exec(description)?.[1]?.split(', ');
    expect(parsed).toEqual([...scopes]);
  });

  it('lets a key holding exactly the required scopes past authentication', async () => {
    const probe = createDemoApp({ seed: 1 });
    const [first] = (await (
      await call(probe, 'GET', '/control/instruments', { key: DEFAULT_DEMO_KEY })
    ).json()) as Array<{ serialNumber: string }>;
    const params = { ...SAMPLE_PARAMS, serial: first?.serialNumber ?? '' };
    for (const rule of ENDPOINTS) {
      const app = createDemoApp({ seed: 1, keys: { exact: rule.scopes } });
      const response = await call(app, rule.method, concretePath(rule, params), {
        key: 'exact',
        body: rule.method === 'PUT' ? JSON.stringify({ name: 'Renamed' }) : undefined,
      });
      const label = `${rule.method} ${rule.path}`;
      expect([401, 403], label).not.toContain(response.status);
      // 400: the handler itself refused the bare request (e.g. no `action` or `start`), after the gate.
      // 404: the handler looked up the sample path id (e.g. event `ev-1`) and found nothing.
      expect([200, 204, 400, 404, 501], label).toContain(response.status);
      if (response.status === 501) {
        const body = await errorBody(response);
        expect(body.error).toBe('NotImplemented');
        expect(body.description).toBe(
          `${rule.method} ${rule.path} is not available in the demo service yet.`,
        );
      }
    }
  });

  it('checks the key before the scopes', async () => {
    const app = createDemoApp({ keys: { reader: ['instruments:read'] } });
    const response = await call(app, 'PUT', '/control/instruments/QT000000', { key: 'unknown' });
    expect(response.status).toBe(401);
  });
});

describe('rate limit', () => {
  it('answers 429 TooManyRequests with Retry-After once the burst is spent, and recovers with time', async () => {
    const clock = manualClock();
    const app = createDemoApp({ rateLimit: 3, now: clock.now, keys: { a: '*', b: '*' } });
    for (let i = 0; i < 3; i++) {
      expect((await call(app, 'GET', '/control/instruments', { key: 'a' })).status).toBe(200);
    }
    const limited = await call(app, 'GET', '/control/instruments', { key: 'a' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('1');
    expect((await errorBody(limited)).error).toBe('TooManyRequests');

    // Per key: another key still has its whole burst.
    expect((await call(app, 'GET', '/control/instruments', { key: 'b' })).status).toBe(200);

    clock.advance(1000);
    expect((await call(app, 'GET', '/control/instruments', { key: 'a' })).status).toBe(200);
  });

  it('gives a Retry-After in whole seconds that covers a slow refill', async () => {
    const clock = manualClock();
    const app = createDemoApp({ rateLimit: 0.25, now: clock.now });
    expect((await call(app, 'GET', '/control/instruments', { key: DEFAULT_DEMO_KEY })).status).toBe(200);
    const limited = await call(app, 'GET', '/control/instruments', { key: DEFAULT_DEMO_KEY });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBe(4);
    clock.advance(retryAfter * 1000 - 1);
    expect((await call(app, 'GET', '/control/instruments', { key: DEFAULT_DEMO_KEY })).status).toBe(429);
    clock.advance(retryAfter * 1000);
    expect((await call(app, 'GET', '/control/instruments', { key: DEFAULT_DEMO_KEY })).status).toBe(200);
  });

  it('answers 403 rather than 429 to a key that lacks the scope, and 403s do not spend the burst', async () => {
    const clock = manualClock();
    const app = createDemoApp({ rateLimit: 1, now: clock.now, keys: { reader: ['instruments:read'] } });
    for (let i = 0; i < 3; i++) {
      const response = await call(app, 'PUT', '/control/instruments/QT000000', { key: 'reader', body: '{}' });
      expect(response.status).toBe(403);
    }
    expect((await call(app, 'GET', '/control/instruments', { key: 'reader' })).status).toBe(200);
    expect((await call(app, 'PUT', '/control/instruments/QT000000', { key: 'reader' })).status).toBe(403);
  });

  it('refills the bucket continuously, never above the burst', () => {
    const clock = manualClock();
    const limiter = new KeyRateLimiter(10, clock.now);
    for (let i = 0; i < 10; i++) expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(false);
    clock.advance(250); // 2.5 tokens
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(false);
    clock.advance(60_000);
    let allowed = 0;
    while (limiter.take('k').allowed) allowed++;
    expect(allowed).toBe(10);
  });

  it('refuses a rate limit that is not a positive number', () => {
    expect(() => createDemoApp({ rateLimit: 0 })).toThrow(/positive/);
    expect(() => createDemoApp({ rateLimit: Number.NaN })).toThrow(/positive/);
  });
});

describe('resolveDemoKeys', () => {
  it('gives one all-scopes default key when no keys are configured', () => {
    expect(resolveDemoKeys()).toEqual({
      keys: { [DEFAULT_DEMO_KEY]: [...SCOPES] },
      defaultKey: DEFAULT_DEMO_KEY,
    });
  });

  it('expands * to every scope and keeps listed scopes', () => {
    const resolved = resolveDemoKeys({ admin: '*', reader: ['instruments:read', 'instruments:read'] });
    expect(resolved.defaultKey).toBeNull();
    expect(resolved.keys).toEqual({ admin: [...SCOPES], reader: ['instruments:read'] });
  });

  it('refuses unknown scopes and key values that cannot travel in a header', () => {
    expect(() => resolveDemoKeys({ k: ['instruments:reed' as Scope] })).toThrow(/instruments:reed/);
    expect(() => resolveDemoKeys({ 'has space': '*' })).toThrow(/printable ASCII/);
  });
});

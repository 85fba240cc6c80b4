/** API key scopes of the service (service-interface.md, Authentication). */
export const SCOPES = [
  'instruments:read',
  'instruments:write',
  'instruments:action',
  'data.live:read',
  'data.noise:read',
  'data.enviro:read',
  'data.events:read',
  'data.audio:read',
  'data.system:read',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** What each scope lets a field engineer do, in their words. */
export const SCOPE_PURPOSE: Record<Scope, string> = {
  'instruments:read': 'list instruments and read their status',
  'instruments:write': 'rename instruments',
  'instruments:action': 'run Identify, Calibration and SIC',
  'data.live:read': 'read live data',
  'data.noise:read': 'read noise data',
  'data.enviro:read': 'read weather, particulates, gases and vibration data',
  'data.events:read': 'read noise events',
  'data.audio:read': 'download audio recordings',
  'data.system:read': 'read calibration, SIC and system health records',
  'webhooks:read': 'list webhooks',
  'webhooks:write': 'add and remove webhooks',
};

export interface EndpointRule {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  /** Path relative to `{base_url}` (which ends in `/v1`), with `:param` placeholders. */
  path: string;
  /** Every scope the key must hold. */
  scopes: readonly Scope[];
}

/**
 * Every endpoint of the interface and the scopes it requires. The demo service enforces
 * these; the client uses them to name the missing scope when the service answers 403.
 */
export const ENDPOINTS: readonly EndpointRule[] = [
  { method: 'GET', path: '/control/instruments', scopes: ['instruments:read'] },
  { method: 'GET', path: '/control/instruments/:serial', scopes: ['instruments:read'] },
  { method: 'PUT', path: '/control/instruments/:serial', scopes: ['instruments:write'] },
  { method: 'GET', path: '/control/instruments/:serial/status', scopes: ['instruments:read'] },
  { method: 'POST', path: '/control/instruments/:serial/action', scopes: ['instruments:action'] },
  { method: 'GET', path: '/control/instruments/:serial/calibration', scopes: ['instruments:read'] },
  { method: 'GET', path: '/control/instruments/:serial/sic', scopes: ['instruments:read'] },
  { method: 'GET', path: '/data/noise/measurements', scopes: ['data.noise:read'] },
  { method: 'GET', path: '/data/noise/timehistory', scopes: ['data.noise:read'] },
  { method: 'GET', path: '/data/frequency/measurements', scopes: ['data.noise:read'] },
  { method: 'GET', path: '/data/frequency/timehistory', scopes: ['data.noise:read'] },
  { method: 'GET', path: '/data/audio', scopes: ['data.audio:read'] },
  { method: 'GET', path: '/data/audio/:recordingId', scopes: ['data.audio:read'] },
  { method: 'GET', path: '/data/weather', scopes: ['data.enviro:read'] },
  { method: 'GET', path: '/data/particulates', scopes: ['data.enviro:read'] },
  { method: 'GET', path: '/data/gases', scopes: ['data.enviro:read'] },
  { method: 'GET', path: '/data/vibration/:type', scopes: ['data.enviro:read'] },
  { method: 'GET', path: '/data/events', scopes: ['data.events:read'] },
  { method: 'GET', path: '/data/events/timehistory/:id', scopes: ['data.events:read'] },
  { method: 'GET', path: '/data/events/audio/:id', scopes: ['data.events:read', 'data.audio:read'] },
  { method: 'GET', path: '/data/calibrations', scopes: ['data.system:read'] },
  { method: 'GET', path: '/data/calibrations/log', scopes: ['data.system:read'] },
  { method: 'GET', path: '/data/sic', scopes: ['data.system:read'] },
  { method: 'GET', path: '/data/monitor/stats', scopes: ['data.system:read'] },
  { method: 'GET', path: '/data/monitor/events', scopes: ['data.system:read'] },
  { method: 'GET', path: '/data/monitor/current', scopes: ['data.system:read'] },
  { method: 'POST', path: '/webhooks', scopes: ['webhooks:write'] },
  { method: 'GET', path: '/webhooks', scopes: ['webhooks:read'] },
  { method: 'GET', path: '/webhooks/:webhookId', scopes: ['webhooks:read'] },
  { method: 'DELETE', path: '/webhooks/:webhookId', scopes: ['webhooks:write'] },
];

/**
 * FieldDesk's own extension of the demo service (webhooks.ts): not part of the interface, and
 * answered 404 by the real service, which is how a client tells the two apart.
 */
export const DEMO_ENDPOINTS: readonly EndpointRule[] = [
  { method: 'GET', path: '/demo/about', scopes: [] },
  { method: 'POST', path: '/demo/webhooks/:webhookId/test', scopes: ['webhooks:write'] },
  { method: 'GET', path: '/demo/webhooks/:webhookId/deliveries', scopes: ['webhooks:read'] },
];

/** Finds the rule of a concrete request path such as `/control/instruments/QT123456`. */
export function findEndpointRule(method: string, path: string): EndpointRule | undefined {
  const parts = path.replace(/\/+$/, '').split('/');
  return [...ENDPOINTS, ...DEMO_ENDPOINTS].find((rule) => {
    if (rule.method !== method.toUpperCase()) return false;
    const ruleParts = rule.path.split('/');
    return (
      ruleParts.length === parts.length &&
      ruleParts.every((part, index) => part.startsWith(':') || part === parts[index])
    );
  });
}

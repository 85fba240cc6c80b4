/**
 * The names of every request and pushed event between the renderer and the backend.
 * Kept free of schemas so the sandboxed preload bundles only these strings.
 * A name is `namespace.method`; the facade exposes it as `fielddesk.namespace.method()`.
 * An event `namespace.thing` is exposed as `fielddesk.namespace.onThing(listener)`.
 */
export const REQUEST_CHANNELS = [
  'app.getInfo',
  'app.notices',
  'app.dismissNotice',
  'app.logLevel',
  'app.setLogLevel',
  'app.reportError',
  'accounts.getState',
  'accounts.add',
  'accounts.check',
  'accounts.rename',
  'accounts.replaceKey',
  'accounts.remove',
  'accounts.activate',
  'accounts.tryDemo',
  'instruments.list',
  'instruments.get',
  'instruments.statuses',
  'instruments.rename',
  'instruments.image',
  'instruments.health',
  'instruments.knownHealth',
  'instruments.tellUrgent',
  'actions.start',
  'actions.history',
  'actions.lastResults',
  'operations.list',
  'operations.cancel',
  'history.calibrations',
  'history.calibrationLog',
  'history.sic',
  'settings.get',
  'settings.update',
  'settings.confirm',
  'data.read',
  'data.export',
  'data.eventTimeHistory',
  'data.saveImage',
  'data.monitorCurrent',
  'data.liveLevels',
  'sync.start',
  'sync.list',
  'sync.cancel',
  'sync.resume',
  'sync.profiles',
  'sync.saveProfile',
  'sync.deleteProfile',
  'cache.summary',
  'cache.clear',
  'connectivity.get',
  'diagnostics.save',
  'diagnostics.damagedRecords',
  'webhooks.list',
  'webhooks.create',
  'webhooks.delete',
  'webhooks.revealSecret',
  'webhooks.sendTest',
  'webhooks.deliveries',
  'audio.recordings',
  'audio.download',
  'audio.downloads',
  'audio.cancel',
  'audio.library',
  'audio.delete',
  'audio.folder',
  'audio.setFolder',
  'audio.chooseFolder',
  'audio.openFolder',
  'assessment.sites',
  'assessment.saveSite',
  'assessment.deleteSite',
  'assessment.addExclusion',
  'assessment.removeExclusion',
  'assessment.compute',
  'assessment.hourly',
  'assessment.days',
  'assessment.cancelCompute',
  'assessment.report',
  'assessment.cancelReport',
  'visits.list',
  'visits.get',
  'visits.start',
  'visits.update',
  'visits.remove',
  'visits.addPhoto',
  'visits.choosePhotos',
  'visits.addChosenPhoto',
  'visits.removePhoto',
  'visits.setCaption',
  'visits.thumbnail',
  'visits.photo',
  'visits.sheet',
  'visits.templates',
  'visits.setTemplate',
  'calibrators.list',
  'calibrators.save',
  'calibrators.retire',
  'calibrators.remove',
  'team.status',
  'team.join',
  'team.leave',
  'team.conflicts',
  'team.resolve',
  'team.exportSite',
  'team.previewSite',
  'team.importSite',
  'team.siteChanges',
  'team.sites',
  'team.follow',
] as const;

export const EVENT_CHANNELS = [
  'app.noticesChanged',
  'accounts.changed',
  'connectivity.changed',
  'operations.progress',
  'sync.progress',
  'data.exportProgress',
  'audio.progress',
  'assessment.reportProgress',
  'assessment.progress',
  'instruments.urgent',
  'team.changed',
] as const;

export type RequestChannel = (typeof REQUEST_CHANNELS)[number];
export type EventChannel = (typeof EVENT_CHANNELS)[number];

/** Electron IPC channel names carry a prefix so they never collide with Electron's own. */
export const IPC_REQUEST_PREFIX = 'fielddesk:req:';
export const IPC_EVENT_PREFIX = 'fielddesk:evt:';

/** `connectivity.changed` → `onChanged`. */
export function eventMethodName(channel: EventChannel): string {
  const name = channel.slice(channel.indexOf('.') + 1);
  return `on${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** Builds a nested facade `{ ns: { method } }` from flat channel names (used by every transport). */
export function buildFacade<Api>(
  invoke: (channel: RequestChannel, arg: unknown) => Promise<unknown>,
  subscribe: (channel: EventChannel, listener: (payload: unknown) => void) => () => void,
): Api {
  const facade: Record<string, Record<string, unknown>> = {};
  for (const channel of REQUEST_CHANNELS) {
    const [namespace, method] = channel.split('.') as [string, string];
    facade[namespace] ??= {};
    facade[namespace][method] = (arg?: unknown) => invoke(channel, arg ?? {});
  }
  for (const channel of EVENT_CHANNELS) {
    const [namespace] = channel.split('.') as [string];
    facade[namespace] ??= {};
    facade[namespace][eventMethodName(channel)] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError('listener must be a function');
      return subscribe(channel, listener);
    };
  }
  return Object.freeze(facade) as Api;
}

/** A team's shared records (`team.*`): a thin binding of the team service (team-service.ts). */
import type { HandlersOf } from '../core/handler-types';
import type { SiteTransfer } from './site-transfer';
import type { TeamService } from './team-service';

export function teamHandlers({
  team,
  transfer,
}: {
  team: TeamService;
  transfer: SiteTransfer;
}): HandlersOf<'team'> {
  return {
    'team.exportSite': ({ siteId }) => transfer.exportSite(siteId),
    'team.previewSite': async ({ fileName, data }) => transfer.preview(Buffer.from(data, 'base64'), fileName),
    'team.importSite': ({ token, takeTheFiles }) => transfer.apply(token, takeTheFiles),
    'team.status': () => team.status(),
    'team.siteChanges': ({ siteId }) => team.siteChanges(siteId),
    'team.sites': () => team.teamSites(),
    'team.follow': ({ follow }) => team.follow(follow),
    'team.join': (request) => team.join(request),
    'team.leave': () => team.leave(),
    'team.conflicts': () => team.conflicts(),
    'team.resolve': ({ id, keepRev }) => team.resolve(id, keepRev),
  };
}

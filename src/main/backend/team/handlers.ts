/** A team's shared records (`team.*`): a thin binding of the team service (team-service.ts). */
import type { HandlersOf } from '../core/handler-types';
import type { TeamService } from './team-service';

export function teamHandlers({ team }: { team: TeamService }): HandlersOf<'team'> {
  return {
    'team.status': () => team.status(),
    'team.join': (request) => team.join(request),
    'team.leave': () => team.leave(),
    'team.conflicts': () => team.conflicts(),
    'team.resolve': ({ id, keepRev }) => team.resolve(id, keepRev),
  };
}

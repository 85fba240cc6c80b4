import { isScope, type Scope } from '../../../shared/service/scopes';
import type { ServiceExchange } from '../service/client';

/**
 * What the answers teach about a key's scopes: a 403 naming a scope adds it to the missing ones, a
 * success on an endpoint clears the scopes that endpoint needs. Returns null when nothing changed.
 */
export function learnScopes(
  current: readonly Scope[],
  exchanges: readonly ServiceExchange[],
): Scope[] | null {
  const learned = new Set(current);
  for (const exchange of exchanges) {
    if (exchange.error === null) for (const scope of exchange.scopes) learned.delete(scope);
    else if (exchange.error.code === 'forbidden' && exchange.error.missingScope !== undefined) {
      if (isScope(exchange.error.missingScope)) learned.add(exchange.error.missingScope);
    }
  }
  const next = [...learned];
  const same = next.length === current.length && next.every((scope) => current.includes(scope));
  return same ? null : next;
}

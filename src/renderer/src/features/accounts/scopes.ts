/** Plain-language reasons for what an account's key cannot do. */
import type { AccountSummary } from '../../../../shared/accounts';
import { SCOPE_PURPOSE, type Scope } from '../../../../shared/service/scopes';

/** "This key cannot rename instruments: it lacks instruments:write." */
export function missingScopeReason(scope: Scope): string {
  return `This key cannot ${SCOPE_PURPOSE[scope]}: it lacks ${scope}.`;
}

/** Why `account` cannot do what `scope` allows, or `null` when nothing is known against it. */
export function blockedReason(account: AccountSummary | null, scope: Scope): string | null {
  if (account === null) return 'Choose an account first.';
  return account.missingScopes.includes(scope) ? missingScopeReason(scope) : null;
}

export function renameBlockedReason(account: AccountSummary | null): string | null {
  return blockedReason(account, 'instruments:write');
}

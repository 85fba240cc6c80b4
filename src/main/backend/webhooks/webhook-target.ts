/**
 * Where a webhook's name really points. The shared check (shared/webhooks.ts) judges the address as
 * written; a public name can still resolve to a private, loopback or metadata address, so the name
 * is looked up (all its addresses, as the service's resolver might pick any) and each address is
 * judged by the same rules (`classifyAddress`, one source). Asked when a webhook is added and again
 * before each test delivery, since a name can be pointed elsewhere after it was checked.
 */
import { lookup } from 'node:dns/promises';
import { parseIpv4 } from '../../../shared/network-address';
import { resolvedAddressProblem } from '../../../shared/webhooks';
import { errorCode } from '../core/file-basics';

/** Resolves a host name to all its addresses (`dns.lookup` with `all: true`); tests inject fakes. */
export type HostLookup = (hostname: string) => Promise<ReadonlyArray<{ address: string }>>;

export const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Why a webhook's target cannot be used, and whether asking again later may help. */
export interface TargetProblem {
  message: string;
  retryable: boolean;
}

/** Resolver answers meaning the name does not exist (or has no address), not that DNS failed. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * Why the host of `url` (already passed by `webhookUrlProblem`) cannot take webhooks once resolved,
 * or null. A literal address is not looked up: it was judged as written. `loopback` says whether
 * this computer may receive (asked only when an address is on it: it costs a request).
 */
export async function resolvedTargetProblem(
  url: string,
  lookupHost: HostLookup,
  loopback: () => Promise<boolean>,
): Promise<TargetProblem | null> {
  const host = new URL(url).hostname;
  if (host.startsWith('[') || parseIpv4(host.replace(/\.$/, '')) !== null) return null;
  let addresses: string[];
  try {
    addresses = [...new Set((await lookupHost(host)).map((entry) => entry.address))];
  } catch (error) {
    const code = errorCode(error);
    if (code !== undefined && NO_SUCH_NAME.has(code)) return noSuchName(host);
    return {
      message: `FieldDesk could not look up ${host} (${code ?? 'the name server did not answer'}), so it cannot tell where the webhook would go. Check the connection and try again.`,
      retryable: true,
    };
  }
  if (addresses.length === 0) return noSuchName(host);
  const problem = resolvedAddressProblem(host, addresses, { loopback: false });
  if (problem === null) return null;
  // Only a receiver on this computer can be allowed, and only by a service that delivers there.
  const allowed = (await loopback()) && resolvedAddressProblem(host, addresses, { loopback: true }) === null;
  return allowed ? null : { message: problem, retryable: false };
}

function noSuchName(host: string): TargetProblem {
  return {
    message: `No address was found for ${host}: the name does not exist, so nothing could receive the webhook there. Check the spelling of the address.`,
    retryable: false,
  };
}

import { FieldDeskError } from '../../../shared/errors';
import type { Credentials, ServiceAccess } from './service-access';

const MESSAGES = {
  keyRejected:
    'The service did not accept this API key. Check that it was copied whole and has not been revoked.',
  cannotList:
    'This key lacks the instruments:read scope, so FieldDesk cannot list instruments. Create a key with instruments:read in the web console.',
} as const;

/**
 * Tests a key the way every account check does: list the instruments. Returns how many; a failure
 * is explained in terms of what the user typed (the key, the address).
 */
export async function checkKey(
  access: ServiceAccess,
  accountId: string | null,
  credentials: Credentials,
): Promise<number> {
  try {
    return (await access.withClient(accountId, credentials, (client) => client.listInstruments())).length;
  } catch (error) {
    throw explainKeyCheckFailure(error, credentials.baseUrl);
  }
}

export function explainKeyCheckFailure(error: unknown, baseUrl: string): unknown {
  if (!(error instanceof FieldDeskError)) return error;
  const extra = {
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.serverCode === undefined ? {} : { serverCode: error.serverCode }),
    cause: error,
  };
  switch (error.code) {
    case 'unauthorized':
      return new FieldDeskError('unauthorized', MESSAGES.keyRejected, extra);
    case 'forbidden':
      return new FieldDeskError('forbidden', MESSAGES.cannotList, {
        ...extra,
        missingScope: 'instruments:read',
      });
    case 'offline':
    case 'timeout': {
      // Name the whole address the user typed, not just the host.
      const host = new URL(baseUrl).host;
      return new FieldDeskError(error.code, error.message.replace(host, baseUrl), extra);
    }
    case 'notFound':
    case 'badResponse':
      return new FieldDeskError(
        error.code,
        `${error.message} Check that ${baseUrl} is the service's base address (it ends in /v1).`,
        extra,
      );
    default:
      return error;
  }
}

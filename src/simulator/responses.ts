/** The service's error answers: `{ error, description }` with the matching status. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { WireErrorBody } from '../shared/service/wire';

export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  error: string,
  description: string,
): Response {
  const body: WireErrorBody = { error, description };
  return c.json(body, status);
}

/** A handler for one endpoint of the interface. Path parameters come from `c.req.param()`. */
export type RouteHandler = (c: Context) => Response | Promise<Response>;

/**
 * Handlers of one area of the interface, keyed `"METHOD /path"` exactly as the endpoint
 * appears in `ENDPOINTS` (e.g. `'GET /control/instruments/:serial'`). Endpoints without a
 * handler answer 501 after authentication.
 */
export type RouteTable = Readonly<Record<string, RouteHandler>>;

import { routeTable, type OperationId } from '../lib/route-table.js';
import { routeMatcher } from '../lib/http/route-matcher.js';

export interface RouteMatch {
  operationId: OperationId;
  params: Record<string, string>;
}

const matcher = routeMatcher(routeTable);

/**
 * Finds the route-table row for a request the way API Gateway does (the local server's
 * dispatcher; in the cloud API Gateway does this). Path parameters come back decoded.
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const match = matcher(method, path);
  return match && { operationId: match.id, params: match.params };
}

/**
 * An API mapping key as API Gateway takes it (CreateApiMapping): one or more path segments of
 * letters, digits and `$-_.+!*'()`, joined by `/` (several levels need a Regional domain with
 * TLS 1.2). Given with or without slashes around it: ` /toggles/ ` is `toggles`.
 */
export function parseApiMappingKey(value: string | undefined): string | undefined {
  const key = (value ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (key === '') return undefined;
  if (!key.split('/').every((segment) => /^[A-Za-z0-9$\-_.+!*'()]+$/.test(segment))) {
    throw new Error(
      `API_MAPPING_KEY: "${value}" is not an API mapping key (path segments of letters, digits and $-_.+!*'() joined by /)`,
    );
  }
  return key;
}

/**
 * The path API Gateway routes once a custom domain's API mapping has been chosen: a request to
 * `/<key>` or `/<key>/…` goes to the mapped stage with the key taken off (`/toggles/api/x` is
 * matched as `/api/x`); any other path matches no mapping and, with no mapping of the empty
 * path, API Gateway answers 404 itself (undefined here). Without a key, the path as sent.
 */
export function pathUnderMapping(path: string, key: string | undefined): string | undefined {
  if (key === undefined) return path;
  const prefix = `/${key}`;
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
}

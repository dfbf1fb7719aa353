import { operationIds, routeTable, type OperationId } from '../../lib/route-table.js';

export interface RouteMatch {
  operationId: OperationId;
  params: Record<string, string>;
}

interface CompiledRoute {
  operationId: OperationId;
  method: string;
  pattern: RegExp;
  /** Higher wins: API Gateway prefers literal segments, and a greedy path comes last. */
  rank: number;
}

const compiled: CompiledRoute[] = operationIds
  .map((operationId): CompiledRoute => {
    const { method, path } = routeTable[operationId];
    const segments = path.split('/').filter(Boolean);
    const source = segments
      .map((segment) => {
        const greedy = /^\{(\w+)\+\}$/.exec(segment);
        if (greedy) return `/(?<${greedy[1]}>.+)`;
        const param = /^\{(\w+)\}$/.exec(segment);
        if (param) return `/(?<${param[1]}>[^/]+)`;
        return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      })
      .join('');
    const literal = segments.filter((segment) => !segment.startsWith('{')).length;
    const greedy = path.includes('+}');
    return { operationId, method, pattern: new RegExp(`^${source}/?$`), rank: (greedy ? 0 : 1000) + literal };
  })
  .sort((a, b) => b.rank - a.rank);

/**
 * Paths without parameters by method and path, looked up before the patterns: a literal path
 * always outranks a pattern in API Gateway, and the SDK poll is one.
 */
const literalRoutes = new Map<string, OperationId>(
  operationIds
    .filter((id) => !routeTable[id].path.includes('{') && routeTable[id].method !== 'ANY')
    .map((id) => [`${routeTable[id].method} ${routeTable[id].path}`, id]),
);

/**
 * Finds the route-table row for a request the way API Gateway does (the local server's
 * dispatcher; in the cloud API Gateway does this). Path parameters come back decoded.
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const literal = literalRoutes.get(`${method} ${path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path}`);
  if (literal) return { operationId: literal, params: {} };
  for (const route of compiled) {
    if (route.method !== 'ANY' && route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(match.groups ?? {})) params[name] = safeDecode(value);
    return { operationId: route.operationId, params };
  }
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
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

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

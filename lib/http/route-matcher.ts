/**
 * Matches a method and a path against route rows the way API Gateway picks a route: a literal
 * path before any pattern, more literal segments before fewer, a greedy `{name+}` path last.
 * The local server plays API Gateway with it (local/match-route.ts), and a function
 * behind a Lambda function URL, which gets every path with the route key `$default`, routes its
 * own rows with it (lib/http/router.ts). Path parameters come back decoded, as API Gateway
 * hands them to a function.
 */
export interface PathRoute {
  method: string;
  path: string;
}

export interface PathMatch<Id extends string> {
  id: Id;
  params: Record<string, string>;
}

export type PathMatcher<Id extends string> = (method: string, path: string) => PathMatch<Id> | undefined;

interface CompiledRoute<Id extends string> {
  id: Id;
  method: string;
  pattern: RegExp;
  /** Higher wins: API Gateway prefers literal segments, and a greedy path comes last. */
  rank: number;
}

export function routeMatcher<Id extends string>(rows: Readonly<Record<Id, PathRoute>>): PathMatcher<Id> {
  const ids = Object.keys(rows) as Id[];
  const compiled = ids
    .map((id): CompiledRoute<Id> => {
      const { method, path } = rows[id];
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
      return { id, method, pattern: new RegExp(`^${source}/?$`), rank: (greedy ? 0 : 1000) + literal };
    })
    .sort((a, b) => b.rank - a.rank);
  // Paths without parameters by method and path, looked up before the patterns: a literal path
  // always outranks a pattern in API Gateway, and the SDK poll is one.
  const literalRoutes = new Map<string, Id>(
    ids.filter((id) => !rows[id].path.includes('{') && rows[id].method !== 'ANY').map((id) => [`${rows[id].method} ${rows[id].path}`, id]),
  );
  return (method, path) => {
    const literal = literalRoutes.get(`${method} ${path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path}`);
    if (literal) return { id: literal, params: {} };
    for (const route of compiled) {
      if (route.method !== 'ANY' && route.method !== method) continue;
      const match = route.pattern.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(match.groups ?? {})) params[name] = safeDecode(value);
      return { id: route.id, params };
    }
    return undefined;
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A realistic instance for the migration tests, written through the admin API every
 * Unleash-speaking server has (Unleash 7.6.5 and this service alike), drawn from a seeded
 * generator so a failure replays: a custom strategy type, context fields with legal values, tag
 * types and tags, segments, and `flags` features in `projects` with every built-in strategy
 * kind, a constraint of every operator (inverted and case-insensitive ones too), segments on
 * strategies, strategy variants with payloads of every type, dependencies, tags,
 * stale, impression data and archived features; users and API tokens of each kind.
 */
import type { AdminSide } from '../../local/migrate/http.js';

export interface SeedOptions {
  flags: number;
  random: () => number;
  projects: string[];
  environments: string[];
  prefix: string;
}

export interface SeededInstance {
  features: string[];
  /** Secrets of the SDK tokens made: one client and one frontend per environment. */
  clientTokens: Array<{ secret: string; environment: string }>;
  frontendTokens: Array<{ secret: string; environment: string }>;
  requests: number;
  /** What was made, for the report of the data set's size. */
  counts: { strategies: number; enabledEnvironments: number; featureTags: number; dependencies: number; stale: number; archived: number; segments: number; users: number };
}

export const OPERATORS = [
  'IN', 'NOT_IN', 'STR_CONTAINS', 'STR_STARTS_WITH', 'STR_ENDS_WITH',
  'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE',
  'DATE_AFTER', 'DATE_BEFORE', 'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT',
] as const;

const PAYLOADS = [
  { type: 'string', value: 'blue' },
  { type: 'json', value: '{"limit":3,"labels":["a","b"]}' },
  { type: 'number', value: '42' },
  { type: 'csv', value: 'a,b,c' },
];

export async function seedInstance(side: AdminSide, options: SeedOptions): Promise<SeededInstance> {
  const { random, prefix } = options;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  const before = side.requests();

  await side.request('POST', '/api/admin/strategies', {
    name: `${prefix}-region`, description: 'Users in some regions',
    parameters: [{ name: 'regions', type: 'list', description: 'regions', required: false }],
  });
  await side.request('POST', '/api/admin/context', {
    name: `${prefix}Region`, description: 'Where the user is', stickiness: true,
    legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }, { value: 'apac' }],
  });
  await side.request('POST', '/api/admin/context', { name: `${prefix}Plan`, description: 'Plan', stickiness: false, legalValues: [] });
  await side.request('POST', '/api/admin/tag-types', { name: `${prefix}-team`, description: 'Owning team' });
  for (const value of ['checkout', 'search', 'growth']) await side.request('POST', '/api/admin/tags', { type: `${prefix}-team`, value });

  const segmentIds: number[] = [];
  for (let index = 0; index < 4; index += 1) {
    const segment = await side.request('POST', '/api/admin/segments', {
      name: `${prefix}-segment-${index}`, description: `Segment ${index}`,
      constraints: [constraintOf(pick(OPERATORS), pick, chance, prefix)],
    });
    segmentIds.push(segment.id);
  }

  const features: string[] = [];
  const counts = { strategies: 0, enabledEnvironments: 0, featureTags: 0, dependencies: 0, stale: 0, archived: 0, segments: segmentIds.length, users: 4 };
  for (let index = 0; index < options.flags; index += 1) {
    const project = options.projects[index % options.projects.length] as string;
    const name = `${prefix}-flag-${String(index).padStart(4, '0')}`;
    await side.request('POST', `/api/admin/projects/${project}/features`, {
      name, description: chance(0.7) ? `Flag ${index}` : '', type: pick(['release', 'experiment', 'operational', 'kill-switch', 'permission']),
      impressionData: chance(0.3),
    });
    features.push(name);
    for (const environment of options.environments) {
      if (chance(0.2)) continue;
      const strategies = 1 + Math.floor(random() * 2);
      for (let s = 0; s < strategies; s += 1) {
        const operator = OPERATORS[(index * 2 + s) % OPERATORS.length] as (typeof OPERATORS)[number];
        await side.request('POST', `/api/admin/projects/${project}/features/${name}/environments/${environment}/strategies`,
          strategyOf(index + s, operator, segmentIds, { pick, chance, random, prefix, name }));
        counts.strategies += 1;
      }
      if (chance(0.7)) {
        await side.request('POST', `/api/admin/projects/${project}/features/${name}/environments/${environment}/on`);
        counts.enabledEnvironments += 1;
      }
    }
    if (chance(0.4)) {
      await side.request('POST', `/api/admin/features/${name}/tags`, { type: `${prefix}-team`, value: pick(['checkout', 'search', 'growth']) });
      counts.featureTags += 1;
    }
    if (chance(0.3)) {
      await side.request('POST', `/api/admin/features/${name}/tags`, { type: 'simple', value: pick(['web', 'mobile']) });
      counts.featureTags += 1;
    }
    const parentIndex = index - 1 - Math.floor(random() * 5);
    if (index % 7 === 3 && parentIndex >= 0 && parentIndex % options.projects.length === index % options.projects.length && parentIndex % 7 !== 3) {
      await side.request('POST', `/api/admin/projects/${project}/features/${name}/dependencies`, { feature: features[parentIndex], enabled: chance(0.8) });
      counts.dependencies += 1;
    }
  }
  for (const project of options.projects) {
    const own = features.filter((_, index) => index % options.projects.length === options.projects.indexOf(project));
    const stale = own.filter((_, index) => index % 11 === 5);
    if (stale.length > 0) await side.request('POST', `/api/admin/projects/${project}/stale`, { features: stale, stale: true });
    counts.stale += stale.length;
    const archived = own.filter((name) => isArchivable(features.indexOf(name)));
    if (archived.length > 0) await side.request('POST', `/api/admin/projects/${project}/archive`, { features: archived });
    counts.archived += archived.length;
  }

  for (const [index, role] of ['Admin', 'Editor', 'Viewer', 'Editor'].entries()) {
    await side.request('POST', '/api/admin/user-admin', {
      email: `${prefix}-person-${index}@example.com`, name: `Person ${index}`, rootRole: role, sendEmail: false,
    });
  }

  const clientTokens: SeededInstance['clientTokens'] = [];
  const frontendTokens: SeededInstance['frontendTokens'] = [];
  for (const environment of options.environments) {
    const client = await side.request('POST', '/api/admin/api-tokens', { tokenName: `${prefix}-backend-${environment}`, type: 'backend', environment, projects: ['*'] });
    clientTokens.push({ secret: client.secret, environment });
    const frontend = await side.request('POST', '/api/admin/api-tokens', { tokenName: `${prefix}-frontend-${environment}`, type: 'frontend', environment, projects: ['*'] });
    frontendTokens.push({ secret: frontend.secret, environment });
  }
  const onlyFirst = options.projects[0] as string;
  const scoped = await side.request('POST', '/api/admin/api-tokens', { tokenName: `${prefix}-client-scoped`, type: 'client', environment: options.environments[0], projects: [onlyFirst] });
  clientTokens.push({ secret: scoped.secret, environment: options.environments[0] as string });
  await side.request('POST', '/api/admin/ui-config/cors', { frontendApiOrigins: ['https://app.example.com', 'https://www.example.com'] });

  return { features, clientTokens, frontendTokens, requests: side.requests() - before, counts };
}

/**
 * A feature no other can depend on: children (index % 7 === 3) name a parent up to five places
 * before them, so one at index % 7 === 4 has no child; every third of those is archived.
 */
function isArchivable(index: number): boolean {
  return index % 7 === 4 && index % 3 === 0;
}

interface Draw {
  pick: <T>(items: readonly T[]) => T;
  chance: (p: number) => boolean;
  random: () => number;
  prefix: string;
  name: string;
}

function strategyOf(kind: number, operator: (typeof OPERATORS)[number], segmentIds: number[], draw: Draw) {
  const { pick, chance, random, prefix, name } = draw;
  const constraints = [constraintOf(operator, pick, chance, prefix)];
  if (chance(0.3)) constraints.push(constraintOf(pick(OPERATORS), pick, chance, prefix));
  const base = { constraints, segments: chance(0.25) ? [pick(segmentIds)] : [], disabled: false };
  switch (kind % 5) {
    case 0:
      return {
        ...base, name: 'flexibleRollout', title: chance(0.5) ? 'Rollout' : undefined,
        parameters: { rollout: String(Math.floor(random() * 101)), stickiness: pick(['default', 'userId', 'sessionId']), groupId: name },
        variants: chance(0.5) ? variantsOf(pick, chance) : [],
      };
    case 1:
      return { ...base, name: 'default', parameters: {} };
    case 2:
      return { ...base, name: 'remoteAddress', parameters: { IPs: '10.0.0.1,192.168.1.0/24' } };
    case 3:
      return { ...base, name: 'applicationHostname', parameters: { hostNames: 'web-1,web-2' } };
    default:
      return { ...base, name: `${prefix}-region`, parameters: { regions: 'eu,us' } };
  }
}

/** A constraint with values the operator takes: lists for IN and the string operators, one value for the others. */
export function constraintOf(operator: (typeof OPERATORS)[number], pick: Draw['pick'], chance: Draw['chance'], prefix: string) {
  const inverted = chance(0.2);
  switch (operator) {
    case 'IN':
    case 'NOT_IN':
      return pick([
        { contextName: `${prefix}Region`, operator, values: pick([['eu'], ['eu', 'us'], ['apac']]), inverted },
        { contextName: 'userId', operator, values: pick([['alice', 'bob'], ['carol']]), inverted },
        { contextName: 'appName', operator, values: ['web'], inverted },
      ]);
    case 'STR_CONTAINS':
    case 'STR_STARTS_WITH':
    case 'STR_ENDS_WITH':
      return { contextName: pick(['userId', `${prefix}Plan`]), operator, values: pick([['al'], ['pro', 'ent'], ['b']]), inverted, caseInsensitive: chance(0.5) };
    case 'NUM_EQ':
    case 'NUM_GT':
    case 'NUM_GTE':
    case 'NUM_LT':
    case 'NUM_LTE':
      return { contextName: pick(['userId', `${prefix}Plan`]), operator, value: pick(['5', '10', '100']), inverted };
    case 'DATE_AFTER':
    case 'DATE_BEFORE':
      return { contextName: 'currentTime', operator, value: pick(['2020-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z']), inverted };
    default:
      return { contextName: pick(['appName', `${prefix}Plan`]), operator, value: pick(['1.0.0', '2.3.4', '10.0.0-beta.1']), inverted };
  }
}

/**
 * Strategy variants: Unleash 7.6 refuses new feature (environment) variants ("use strategy
 * variants instead"), so a realistic instance of it holds only these.
 */
function variantsOf(pick: Draw['pick'], chance: Draw['chance']) {
  const count = chance(0.5) ? 3 : 2;
  const stickiness = pick(['default', 'userId']);
  return Array.from({ length: count }, (_, index) => ({
    name: `v${index}`,
    weight: Math.floor(1000 / count),
    weightType: 'variable',
    stickiness,
    ...(chance(0.7) ? { payload: pick(PAYLOADS) } : {}),
  }));
}

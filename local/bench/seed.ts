/**
 * Seeds N realistic flags through the admin API, as people and tools would make them: each
 * with one or two strategies carrying constraints and strategy variants (a third of them on a
 * segment), a tag, and switched on in `development` (feature variants only when asked: see
 * SeedOptions). That is about 1 KB of SDK JSON per flag, the size of the flags the issue's
 * reference measured.
 */
export const SEGMENTS = 10;
export const segmentName = (index: number) => `bench-segment-${index}`;
const TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission'] as const;
export const APPS = ['checkout', 'catalog', 'search', 'payments', 'accounts', 'shipping'];

export type Admin = (method: string, path: string, body?: unknown) => Promise<unknown>;

/**
 * One admin call; anything but a success stops the benchmark with the answer's text. A 503
 * (a write refused by DynamoDB's conflicts or throttling, nothing stored) is sent again after
 * its Retry-After, with jitter, as a tool writing in parallel should; `resent` counts them.
 */
export function adminClient(baseUrl: string, token: string): Admin & { resent: () => number } {
  let resent = 0;
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    for (let attempt = 1; ; attempt += 1) {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const retryAfter = Number(res.headers.get('retry-after'));
      if (res.status === 503 && Number.isFinite(retryAfter) && attempt < 20) {
        resent += 1;
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 * (0.5 + Math.random())));
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    }
  };
  return Object.assign(call, { resent: () => resent });
}

export interface SeedOptions {
  /**
   * Feature (environment) variants, off by default: Unleash 7 refuses them for new flags
   * ("Environment variants deprecated … Use strategy variants instead"), and the bench seeds
   * Unleash and this service with the same flags. Before issue 29 every flag had two (about 330
   * bytes of SDK JSON a flag), so the older tables in docs/performance.md carry them.
   */
  featureVariants?: boolean;
}

export async function seedFlags(admin: Admin, count: number, concurrency = 16, options: SeedOptions = {}): Promise<void> {
  const segmentIds = await seedSegments(admin);
  const bar = progressBar(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await createFlag(admin, index, segmentIds[index % SEGMENTS] as number, options);
      bar.tick();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  bar.done();
}

/** The segments a third of the flags use; answers their ids. */
export async function seedSegments(admin: Admin): Promise<number[]> {
  const segmentIds: number[] = [];
  for (let index = 0; index < SEGMENTS; index += 1) {
    const created = (await admin('POST', '/api/admin/segments', {
      name: segmentName(index),
      description: 'Customers in a pilot market',
      constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE', 'DK', 'FI'].slice(0, 2 + (index % 3)) }],
    })) as { id: number };
    segmentIds.push(created.id);
  }
  return segmentIds;
}

export const flagName = (index: number) => `bench-flag-${String(index).padStart(6, '0')}`;

export async function createFlag(admin: Admin, index: number, segmentId: number, { featureVariants = false }: SeedOptions = {}): Promise<void> {
  const { feature, strategies, tag } = benchFlag(index, segmentId);
  const base = `/api/admin/projects/default/features/${feature.name}`;
  const environment = `${base}/environments/development`;
  await admin('POST', '/api/admin/projects/default/features', feature);
  for (const strategy of strategies) await admin('POST', `${environment}/strategies`, strategy);
  if (featureVariants) await admin('PUT', `${environment}/variants`, featureVariantsOf(index));
  await admin('POST', `/api/admin/features/${feature.name}/tags`, tag);
  await admin('POST', `${environment}/on`);
}

/**
 * Flag `index` as createFlag writes it: the flag, its strategies in order (switched on in
 * `development`) and its tag. Unleash's import (local/bench/unleash.ts) is given the same parts.
 */
export function benchFlag(index: number, segmentId: number) {
  const name = flagName(index);
  const strategies: Record<string, unknown>[] = [rolloutStrategy(name, index, segmentId)];
  if (index % 2 === 0) {
    // Named users as a constraint: Unleash 7 has no userWithId strategy type, and the bench seeds Unleash the same way.
    strategies.push({
      name: 'flexibleRollout',
      constraints: [{ contextName: 'userId', operator: 'IN', values: [`user-${index}`, `user-${index + 1}`, `user-${index + 2}`], caseInsensitive: false, inverted: false }],
      parameters: { rollout: '100', stickiness: 'default', groupId: name },
    });
  }
  return {
    feature: {
      name, type: TYPES[index % TYPES.length] as string, impressionData: index % 4 === 0,
      description: `${APPS[index % APPS.length]} change #${index}, rolled out gradually`,
    },
    strategies,
    tag: { type: 'simple', value: `team-${APPS[index % APPS.length]}` },
  };
}

/** The seeded flags' strategy: the same for the poll benchmarks and the admin UI's. */
export function rolloutStrategy(name: string, index: number, segmentId: number) {
  return {
    name: 'flexibleRollout',
    constraints: [
      { contextName: 'appName', operator: 'IN', values: APPS.slice(0, 2 + (index % 4)), caseInsensitive: false, inverted: false },
      { contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['beta-', 'staff-'], caseInsensitive: true, inverted: false },
    ],
    parameters: { rollout: String((index * 7) % 101), stickiness: 'default', groupId: name },
    variants: [
      { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"color":"blue"}' } },
      { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"color":"green"}' } },
    ],
    segments: index % 3 === 0 ? [segmentId] : [],
  };
}

function featureVariantsOf(index: number) {
  return [
    { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'control' } },
    {
      name: 'treatment', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'treatment' },
      overrides: [{ contextName: 'userId', values: [`user-${index}`, `user-${index + 10}`] }],
    },
  ];
}

/** A one-line progress bar on stderr: redrawn in place on a terminal, every 10% otherwise. */
export function progressBar(total: number) {
  const started = Date.now();
  let done = 0;
  let lastDecile = -1;
  const draw = () => {
    const share = total === 0 ? 1 : done / total;
    const width = 30;
    const filled = Math.round(share * width);
    const line = `seeding [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} flags ${((Date.now() - started) / 1000).toFixed(1)} s`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
    else if (Math.floor(share * 10) > lastDecile) {
      lastDecile = Math.floor(share * 10);
      process.stderr.write(`${line}\n`);
    }
  };
  draw();
  return {
    tick: () => {
      done += 1;
      draw();
    },
    done: () => {
      if (process.stderr.isTTY) process.stderr.write('\n');
    },
  };
}

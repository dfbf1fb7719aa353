/**
 * The UI benchmark's data set, written the same way into this service and into Unleash through
 * their admin APIs: 10 segments, 3 projects (one holds 1,000 flags, the two others a few each),
 * every flag with a gradual rollout carrying two constraints and two strategy variants (a third
 * of them on a segment), every second one with a second strategy, a tag, switched on in
 * `development`; then flags are switched off and on again until the server's event log holds
 * 10,000 events. Unleash 7.6.5 refuses environment variants ("deprecated"), so, unlike the poll
 * benchmark's flags, these carry strategy variants only; and its open-source build has no route
 * that creates a project, so Unleash's two extra projects are rows written into its database.
 */
import { spawnSync } from 'node:child_process';
import type { Admin } from './seed.js';
import { APPS, rolloutStrategy, seedSegments } from './seed.js';

export const BIG_PROJECT = 'default';
export const SMALL_PROJECTS = ['bench-ui-payments', 'bench-ui-mobile'];
export const FLAGS_IN_SMALL_PROJECT = 20;
const TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission'] as const;

export const uiFlagName = (project: string, index: number) =>
  project === BIG_PROJECT ? `ui-flag-${String(index).padStart(4, '0')}` : `${project.replace('bench-ui-', '')}-flag-${String(index).padStart(2, '0')}`;

export interface SeedPlan {
  bigProjectFlags: number;
  events: number;
  concurrency: number;
}

export interface SeedOutcome {
  /** Admin calls made (creation and toggles). */
  calls: number;
  toggles: number;
  /** The event count the server reports at the end. */
  events: number;
  seconds: number;
}

/** Makes the two extra projects: through the API on our service, in the database on Unleash (see above). */
export type ProjectMaker = (id: string) => Promise<void>;

export const apiProjectMaker = (admin: Admin): ProjectMaker => async (id) => {
  await admin('POST', '/api/admin/projects', { id, name: id, description: 'A smaller team', environments: ['development', 'production'] });
};

/**
 * Unleash's open-source build answers 404 to POST /api/admin/projects: the project and its two
 * environments are rows of its database, written with psql as the cluster's superuser.
 */
export const sqlProjectMaker = (postgresPort: number, database: string): ProjectMaker => async (id) => {
  const sql = `INSERT INTO projects (id, name, description) VALUES ('${id}', '${id}', 'A smaller team');
INSERT INTO project_environments (project_id, environment_name) VALUES ('${id}', 'development'), ('${id}', 'production');`;
  const result = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(postgresPort), '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-c', sql], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`psql could not make project ${id}: ${result.stderr}`);
};

/** The events the server's event log holds (both answer a total with the search). */
export async function eventCount(admin: Admin): Promise<number> {
  const answer = (await admin('GET', '/api/admin/search/events?offset=0&limit=1')) as { total: number };
  return answer.total;
}

export async function seedUiData(admin: Admin, makeProject: ProjectMaker, plan: SeedPlan, log: (line: string) => void): Promise<SeedOutcome> {
  const started = Date.now();
  let calls = 0;
  const counted: Admin = (method, path, body) => {
    calls += 1;
    return admin(method, path, body);
  };
  const segmentIds = await seedSegments(counted);
  for (const project of SMALL_PROJECTS) await makeProject(project);
  const flags: Array<{ project: string; name: string; index: number }> = [];
  for (let index = 0; index < plan.bigProjectFlags; index += 1) flags.push({ project: BIG_PROJECT, name: uiFlagName(BIG_PROJECT, index), index });
  for (const project of SMALL_PROJECTS) {
    for (let index = 0; index < FLAGS_IN_SMALL_PROJECT; index += 1) flags.push({ project, name: uiFlagName(project, index), index });
  }
  await inParallel(flags, plan.concurrency, (flag) => createUiFlag(counted, flag.project, flag.name, flag.index, segmentIds[flag.index % segmentIds.length] as number));
  const base = await eventCount(admin);
  log(`  ${flags.length} flags in ${((Date.now() - started) / 1000).toFixed(0)} s, ${base} events`);
  // Each toggle is one event: off, then on again, going round the big project's flags.
  const toggles = Math.max(0, plan.events - base);
  const pairs = Math.ceil(toggles / 2);
  await inParallel(Array.from({ length: pairs }, (_, pair) => pair), plan.concurrency, async (pair) => {
    const flag = flags[pair % plan.bigProjectFlags] as { project: string; name: string };
    const environment = `/api/admin/projects/${flag.project}/features/${flag.name}/environments/development`;
    // Pairs going round the flags more than once would toggle one flag from two workers at once.
    await counted('POST', `${environment}/off`);
    if (pair * 2 + 1 < toggles) await counted('POST', `${environment}/on`);
  }, (pair) => pair % plan.bigProjectFlags);
  const events = await eventCount(admin);
  return { calls, toggles, events, seconds: (Date.now() - started) / 1000 };
}

async function createUiFlag(admin: Admin, project: string, name: string, index: number, segmentId: number): Promise<void> {
  const base = `/api/admin/projects/${project}/features/${name}`;
  const environment = `${base}/environments/development`;
  await admin('POST', `/api/admin/projects/${project}/features`, {
    name, type: TYPES[index % TYPES.length], impressionData: index % 4 === 0,
    description: `${APPS[index % APPS.length]} change #${index}, rolled out gradually`,
  });
  await admin('POST', `${environment}/strategies`, rolloutStrategy(name, index, segmentId));
  if (index % 2 === 0) {
    // Unleash 7 has no userWithId strategy any more: named users are a constraint on a full rollout.
    await admin('POST', `${environment}/strategies`, {
      name: 'flexibleRollout',
      constraints: [{ contextName: 'userId', operator: 'IN', values: [`user-${index}`, `user-${index + 1}`, `user-${index + 2}`], caseInsensitive: false, inverted: false }],
      parameters: { rollout: '100', stickiness: 'default', groupId: name },
    });
  }
  await admin('POST', `/api/admin/features/${name}/tags`, { type: 'simple', value: `team-${APPS[index % APPS.length]}` });
  await admin('POST', `${environment}/on`);
}

/**
 * Runs `work` over `items` with `concurrency` workers. With `lane`, items of one lane (a flag)
 * never run at the same time: each worker takes the next item whose lane is free.
 */
async function inParallel<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>, lane?: (item: T) => number): Promise<void> {
  const busy = new Set<number>();
  const waiting = [...items];
  const worker = async () => {
    for (;;) {
      const at = waiting.findIndex((item) => !lane || !busy.has(lane(item)));
      if (at < 0) {
        if (waiting.length === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      const [item] = waiting.splice(at, 1) as [T];
      const key = lane?.(item);
      if (key !== undefined) busy.add(key);
      try {
        await work(item);
      } finally {
        if (key !== undefined) busy.delete(key);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

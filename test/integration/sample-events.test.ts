import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { routeTable } from '../../lib/route-table.js';
import type { Group } from '../../lib/http/route.js';
import { invokeSample } from '../../scripts/local/invoke-sample.js';
import { startLocalRuntime, type LocalRuntime } from '../../scripts/local/runtime.js';
import { SAMPLE_SCENARIOS } from '../../scripts/local/sample-scenarios.js';
import { unique } from '../support/services.js';

/** Every scenario once, in an order shuffled anew on each run: none may rely on another having run. */
const SHUFFLED = shuffle(Object.entries(SAMPLE_SCENARIOS).map(([file, { status }]) => [file, status] as [string, number]));

const EVENTS_DIR = 'events';

describe('sample events under events/, run through npm run invoke’s code path', () => {
  let runtime: LocalRuntime;

  beforeAll(async () => {
    runtime = await startLocalRuntime({
      inMemory: true,
      dataDir: '.data',
      env: { DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: unique('events') },
    });
  });

  afterAll(async () => {
    await runtime.stop();
  });

  it('lists every file under events/', () => {
    const files = readdirSync(EVENTS_DIR, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.split('\\').join('/'))
      .sort();

    expect(Object.keys(SAMPLE_SCENARIOS).sort()).toEqual(files);
  });

  it('covers every route of the route table', () => {
    const covered = new Set(
      Object.keys(SAMPLE_SCENARIOS).map((file) => JSON.parse(readFileSync(join(EVENTS_DIR, file), 'utf8')).routeKey as string),
    );

    const missing = Object.values(routeTable)
      .map((spec) => `${spec.method} ${spec.path}`)
      .filter((key) => !covered.has(key));

    expect(missing).toEqual([]);
  });

  it('names only scenarios that exist as setup steps', () => {
    const steps = Object.values(SAMPLE_SCENARIOS).flatMap((scenario) => scenario.given ?? []);

    expect(steps.filter((step) => !(`${step}.json` in SAMPLE_SCENARIOS))).toEqual([]);
  });

  it('runs a scenario that needs data alone on a fresh table (E12 patches a feature it creates first)', async () => {
    const result = await invokeSample(runtime, 'features', join(EVENTS_DIR, 'features/patch-variants-all-environments.json'));

    expect(result.statusCode, result.body).toBe(200);
  });

  it.each(SHUFFLED)('%s answers %i, run with only its own setup', async (file, status) => {
    const group = file.split('/')[0] as Group;

    const result = await invokeSample(runtime, group, join(EVENTS_DIR, file));

    expect(result.statusCode, result.body).toBe(status);
  });
});

function shuffle<T>(items: T[]): T[] {
  const shuffled = [...items];
  for (let i = shuffled.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as T, shuffled[i] as T];
  }
  return shuffled;
}

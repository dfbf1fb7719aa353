import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { routeTable } from '../../lib/route-table.js';
import type { Group } from '../../lib/http/route.js';
import { ERROR_TABLE } from '../../lib/http/error-table.js';
import { invokeSample } from '../../local/invoke-sample.js';
import { matchRoute } from '../../local/match-route.js';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime.js';
import {
  readEventFiles,
  SAMPLE_SCENARIOS,
  sampleEvent,
  sampleEventFiles,
} from '../../local/sample-scenarios.js';
import { seededRandom, shuffled } from '../support/seeded-random.js';
import { unique } from '../support/services.js';

/**
 * Every scenario once, in an order shuffled anew on each run: none may rely on another having run.
 * The order's seed is printed, so an order that fails can be run again.
 */
const SHUFFLED = shuffled(
  Object.values(SAMPLE_SCENARIOS).map(({ key, status }) => [`${key}.json`, status] as [string, number]),
  seededRandom('sample events order').next,
);

const EVENTS_DIR = 'events';

/** The answer's JSON body (decoded as a client would: base64, then gzip), or undefined when it is not JSON. */
function jsonOf(result: APIGatewayProxyStructuredResultV2): unknown {
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
  if (!String(headers['content-type'] ?? '').includes('json') || !result.body) return undefined;
  const bytes = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body);
  return JSON.parse((headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8'));
}

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

  it('holds exactly what npm run events writes from the samples (run it after changing a samples.ts)', () => {
    const onDisk = Object.fromEntries(readEventFiles(EVENTS_DIR));
    const generated = Object.fromEntries(sampleEventFiles());

    expect(Object.keys(onDisk).sort()).toEqual(Object.keys(generated).sort());
    expect(onDisk).toEqual(generated);
  });

  it('covers every route of the route table', () => {
    const covered = new Set(Object.values(SAMPLE_SCENARIOS).map((sample) => sampleEvent(sample).routeKey));

    const missing = Object.values(routeTable)
      .map((spec) => `${spec.method} ${spec.path}`)
      .filter((key) => !covered.has(key));

    expect(missing).toEqual([]);
  });

  it('builds each event from its own route table row, on a path the router sends to that row', () => {
    const wrong = Object.values(SAMPLE_SCENARIOS).filter((sample) => {
      const event = sampleEvent(sample);
      const match = matchRoute(event.requestContext.http.method, event.rawPath);
      return routeTable[sample.operation] !== sample.route || match?.operationId !== sample.operation;
    });

    expect(wrong.map((sample) => sample.key)).toEqual([]);
  });

  it('names only scenarios that exist as setup steps', () => {
    const steps = Object.values(SAMPLE_SCENARIOS).flatMap((scenario) => scenario.given ?? []);

    expect(steps.filter((step) => !(step in SAMPLE_SCENARIOS))).toEqual([]);
  });

  it('runs a scenario that needs data alone on a fresh table (E12 patches a feature it creates first)', async () => {
    const result = await invokeSample(runtime, 'features', join(EVENTS_DIR, 'features/patch-variants-all-environments.json'));

    expect(result.statusCode, result.body).toBe(200);
    // The patch was applied to the feature its setup created: the variant it adds is answered.
    expect(JSON.stringify(jsonOf(result))).toContain('"name":"everywhere"');
  });

  it.each(SHUFFLED)('%s answers %i, run with only its own setup', async (file, status) => {
    const group = file.split('/')[0] as Group;

    const result = await invokeSample(runtime, group, join(EVENTS_DIR, file));

    expect(result.statusCode, result.body).toBe(status);
    // Not only the status: a refusal is the interface's error of that status, a success the
    // route's documented body.
    const body = jsonOf(result);
    const sample = Object.values(SAMPLE_SCENARIOS).find((candidate) => `${candidate.key}.json` === file);
    if (status >= 400) {
      const names = Object.values(ERROR_TABLE).filter((entry) => entry.status === status).map((entry) => entry.name);
      expect(body, result.body).toMatchObject({ name: expect.any(String), message: expect.any(String) });
      if (names.length > 0) expect(names, result.body).toContain((body as { name: string }).name);
    } else if (status < 300 && sample?.route.response && body !== undefined) {
      const parsed = sample.route.response.safeParse(body);
      expect(parsed.success, `${result.body?.slice(0, 500)}\n${parsed.error?.message ?? ''}`).toBe(true);
    }
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { apiClient } from '../support/api.js';
import { resendWhileThrottled, seedFeatures, storedFeature } from '../support/seed-features.js';
import { adminToken, servicesOn, testConfig, unique } from '../support/services.js';

// The project page (its header and flag creators) once the container holds the admin
// read model, as it does after the page's own list of projects: the project's features come
// from the read model (a revision check), not from its partition read again on every visit,
// so the page's reads cost the same for a project of 120 small features as for one of 300 of
// 1 KB each (both above the sizes whose last-seen times are looked up one feature at a time).
let engine: AwsLikeEngine;
let tableName: string;

beforeAll(async () => {
  engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint });
  tableName = unique('project-page');
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodbLocal').endpoint }, tableName);
  const services = newContainer();
  await services.firstStart.ensure();
  for (const [id, count, description] of [['small', 120, null], ['large', 300, 'x'.repeat(1000)]] as const) {
    await resendWhileThrottled(() => services.projects.create({ id, name: id }, 'test'));
    // Names whose order by code unit differs from a locale's, and one archived feature.
    const names = Array.from({ length: count }, (_, i) => `${i % 2 === 0 ? 'Flag' : 'flag'}-${id}-${String(i).padStart(3, '0')}`);
    await seedFeatures(services.featureStore, names.map((name, i) => storedFeature(name, id, {
      description, archived: i === 1, archivedAt: i === 1 ? new Date().toISOString() : null,
    })));
    await resendWhileThrottled(() => services.features.lifecycle.create(id, { name: `made-in-${id}` }, 'test'));
  }
}, 120_000);

afterAll(async () => {
  await engine?.stop();
});

/**
 * Services as a new container composes them, on this file's table behind its own engine. The
 * token is read on every call, so that no cache's age on a busy machine changes what is counted.
 */
function newContainer(): Services {
  return servicesOn(testConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint, TOKEN_CACHE_TTL_MS: '0' }));
}

const pagesOf = (project: string) => [`/api/admin/projects/${project}/overview`, `/api/admin/projects/${project}/flag-creators`];
/**
 * These show the lifecycle stages SDK metrics write, which move no revision: the read model with
 * the project's metrics-stage items laid over it (the first of them completes those items from the
 * project's partition).
 */
const withStatus = (project: string) => [
  ...pagesOf(project),
  `/api/admin/projects/${project}`,
  `/api/admin/projects/${project}?archived=true`,
  `/api/admin/projects/${project}/status`,
];

async function visit(services: Services, token: string, paths: string[]) {
  const call = apiClient(services);
  const costs = [];
  const bodies = [];
  for (const path of paths) {
    const requests = services.dynamoRequests.snapshot();
    const units = engine.stats().readUnits;
    const res = await call({ method: 'GET', path, token });
    expect(res.status, path).toBe(200);
    costs.push({ path, requests: countsSince(requests, services.dynamoRequests.snapshot()).byOperation, readUnits: engine.stats().readUnits - units });
    bodies.push(res.body);
  }
  return { costs, bodies };
}

describe('the project page in a container that holds the admin read model', () => {
  it('costs the same requests and read units for a project of 120 small features as for one of 300 large ones', async () => {
    const services = newContainer();
    const token = await adminToken(services);
    await apiClient(services)({ method: 'GET', path: '/api/admin/projects', token });
    // Once each, so that what every container reads once (its settled months of events) is read.
    await visit(services, token, [...withStatus('small'), ...withStatus('large')]);

    const small = await visit(services, token, pagesOf('small'));
    const large = await visit(services, token, pagesOf('large'));

    expect(large.costs.map(({ requests, readUnits }) => ({ requests, readUnits })))
      .toEqual(small.costs.map(({ requests, readUnits }) => ({ requests, readUnits })));
    // The header: the project, the environments, the revision, the last-seen times, the events of
    // the month since they settled, and the caller's favourites; no feature item.
    for (const { path, readUnits } of large.costs) expect(readUnits, path).toBeLessThan(10);
  });

  it('answers as a new container does, which reads the project from its partition', async () => {
    const warm = newContainer();
    const token = await adminToken(warm);
    await apiClient(warm)({ method: 'GET', path: '/api/admin/projects', token });
    const fromReadModel = await visit(warm, token, withStatus('large'));

    const cold = newContainer();
    const units = engine.stats().readUnits;
    const fromPartition = await visit(cold, token, withStatus('large'));

    expect(fromReadModel.bodies).toEqual(fromPartition.bodies);
    // The new container read the 300 features' items (about 75 units), the other none. Its count
    // (ADR 14) does not hold the seeded features, so the items are read first, then the read model.
    expect(engine.stats().readUnits - units).toBeGreaterThan(75);
  });
});

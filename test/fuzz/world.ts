import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import type { Services } from '../../local/app-services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { formatSecret } from '../../lib/tokens/model.js';
import type { AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { apiClient, type ApiRequest, type ApiResponse } from '../support/api.js';
import { faultyEngine } from '../support/gated-engine.js';
import type { World } from './requests.js';
import { revisionReader, watchWrites, type WriteWatch } from './store-watch.js';
import type { PathParameter } from '../../lib/http/path-parameters.js';
import { servicesOn } from '../support/services.js';

export interface FuzzInstance {
  services: Services;
  call: (request: ApiRequest) => Promise<ApiResponse>;
  world: World;
  watch: WriteWatch;
  /** The SDK revision item as stored, read past the watch and the faults. */
  revision: () => Promise<string>;
  /** The AWS-like engine of this instance's own, between the watch and DynamoDB Local: conflicts, throttling, LOW_FAULTS. */
  engine: AwsLikeEngine;
  /** Stops the watch and the engine. */
  close: () => Promise<void>;
}

/**
 * A second instance on a table of its own, reached through the write watch and an AWS-like
 * engine of its own that injects faults (LOW_FAULTS, from `seed`), so the fuzz neither sees
 * other tests' writes nor disturbs their data. The table is seeded like a fresh install, then
 * given one of each resource so paths can name things that exist: that setup goes through the
 * run's engine, without faults, on services of its own with the same configuration.
 */
export async function fuzzInstance(tableName: string, seed: number): Promise<FuzzInstance> {
  const { endpoint } = inject('dynamodb');
  await prepareLocalTable({ region: 'local', endpoint }, tableName);
  const engine = await faultyEngine(seed);
  let watch: WriteWatch | undefined;
  try {
    watch = await watchWrites(engine.endpoint);
    const settings = { TABLE_NAME: tableName, AWS_REGION: 'local', SECRET_KEY: randomBytes(32).toString('hex') };
    const setup = servicesOn(loadConfig({ ...settings, DYNAMODB_ENDPOINT: endpoint }));
    await setup.firstStart.ensure();
    const adminToken = formatSecret(['*'], '*');
    const clientToken = formatSecret(['*'], 'development');
    await setup.apiTokens.insertKnownSecret(adminToken, { tokenName: 'fuzz-admin', type: 'admin', environment: '*', projects: ['*'] });
    await setup.apiTokens.insertKnownSecret(clientToken, { tokenName: 'fuzz-client', type: 'client', environment: 'development', projects: ['*'] });
    const params = await populate(apiClient(setup), adminToken);
    const everyName = [...new Set(Object.values(params).flat())];
    const world: World = { adminToken, clientToken, params, names: () => everyName };
    const services = servicesOn(loadConfig({ ...settings, DYNAMODB_ENDPOINT: watch.endpoint }));
    const opened = watch;
    return {
      services, call: apiClient(services), world, watch, engine, revision: revisionReader(endpoint, tableName),
      close: async () => {
        await opened.close();
        await engine.stop();
      },
    };
  } catch (error) {
    await watch?.close();
    await engine.stop();
    throw error;
  }
}

/** Known values for every path parameter: a new parameter in lib/http/path-parameters.ts must get some here. */
type Params = Record<Exclude<PathParameter, 'proxy'>, string[]>;

/** One of each resource; a step whose route is refused or absent is skipped, not fatal. */
async function populate(call: FuzzInstance['call'], token: string): Promise<Params> {
  const params: Params = {
    projectId: ['default', 'fz-proj'], featureName: ['fz-parent', 'fz-child', 'fz-archived'],
    environment: ['development', 'production', 'fz-env'], parentName: ['fz-parent'], name: ['fz-field', 'fz-tags', 'fz-env', 'userId'],
    strategyName: ['default', 'flexibleRollout', 'fz-strategy'], type: ['simple', 'fz-tags'], value: ['fz-value'],
    id: [], groupId: [], token: [], strategyId: [], linkId: [],
    appName: ['fz-app'], splashId: ['personal-dashboard'], feedbackId: ['pnps'],
  };
  const send = async (method: string, path: string, body?: unknown): Promise<ApiResponse | undefined> => {
    try {
      const res = await call({ method, path, token, body });
      return res.status < 300 ? res : undefined;
    } catch {
      return undefined;
    }
  };
  const feature = (name: string) => `/api/admin/projects/fz-proj/features/${name}`;
  await send('POST', '/api/admin/environments', { name: 'fz-env', type: 'test', enabled: true });
  await send('POST', '/api/admin/projects', { id: 'fz-proj', name: 'Fuzz', environments: ['development', 'production', 'fz-env'] });
  await send('POST', '/api/admin/context', { name: 'fz-field', legalValues: [{ value: 'a' }] });
  await send('POST', '/api/admin/tag-types', { name: 'fz-tags' });
  await send('POST', '/api/admin/strategies', { name: 'fz-strategy', parameters: [{ name: 'p', type: 'string' }] });
  const segment = await send('POST', '/api/admin/segments', { name: 'fz-segment', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }] });
  if (segment) params.id!.push(String(segment.body.id));
  for (const name of ['fz-parent', 'fz-child', 'fz-archived']) await send('POST', '/api/admin/projects/fz-proj/features', { name });
  const strategy = await send('POST', `${feature('fz-parent')}/environments/development/strategies`, {
    name: 'flexibleRollout', parameters: { rollout: '50' }, segments: segment ? [segment.body.id] : [],
  });
  if (strategy) params.strategyId!.push(String(strategy.body.id));
  await send('POST', `${feature('fz-parent')}/environments/development/on`);
  await send('POST', `${feature('fz-parent')}/link`, { url: 'https://example.com/fz', title: 'fz' });
  const parent = await send('GET', feature('fz-parent'));
  for (const link of (parent?.body.links ?? []) as Array<{ id: string }>) params.linkId!.push(link.id);
  await send('PUT', `${feature('fz-child')}/environments/development/variants`, [{ name: 'blue', weight: 1000, weightType: 'variable' }]);
  await send('POST', `${feature('fz-child')}/dependencies`, { feature: 'fz-parent' });
  await send('POST', '/api/admin/features/fz-child/tags', { type: 'fz-tags', value: 'fz-value' });
  await send('DELETE', feature('fz-archived'));
  await populateAccess(send, params);
  params.id!.push('1', '999999');
  return params;
}

async function populateAccess(send: (method: string, path: string, body?: unknown) => Promise<ApiResponse | undefined>, params: Params) {
  const user = await send('POST', '/api/admin/user-admin', { email: 'fuzz@example.com', username: 'fuzz', rootRole: 'Viewer' });
  if (user) params.id!.push(String(user.body.id));
  const group = await send('POST', '/api/admin/groups', { name: 'fz-group', users: user ? [{ user: { id: user.body.id } }] : [] });
  if (group) params.groupId!.push(String(group.body.id));
  const signup = await send('POST', '/api/admin/invite-link/tokens', { name: 'fz-invite', expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
  if (signup) params.token!.push(String(signup.body.secret));
  const apiToken = await send('POST', '/api/admin/api-tokens', { tokenName: 'fz-token', type: 'client', environment: 'development', projects: ['*'] });
  if (apiToken) params.token!.push(String(apiToken.body.secret));
}

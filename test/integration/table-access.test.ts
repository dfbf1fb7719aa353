import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { actionsOf, BOOTSTRAP_TABLE_ACCESS, SNAPSHOT_TABLE_ACCESS } from '../../infra/table-access.js';
import { loadConfig } from '../../lib/config.js';
import type { Services } from '../../local/app-services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { applyBootstrapTokens, bootstrapTokenId, removeBootstrapToken } from '../../lib/tokens/bootstrap.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { watchWrites, type WriteWatch } from '../fuzz/store-watch.js';
import { servicesOn } from '../support/services.js';

/**
 * The functions that serve no route keep to their grants too: what they send on the wire,
 * seen through the write watch, stays within infra/table-access.ts (the route functions are
 * checked the same way by the route fuzz).
 */
let watch: WriteWatch;
let services: Services;

beforeAll(async () => {
  const { endpoint } = inject('dynamodb');
  const tableName = `access-${randomUUID().slice(0, 8)}`;
  await prepareLocalTable({ region: 'local', endpoint }, tableName);
  watch = await watchWrites(endpoint);
  services = servicesOn(loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: watch.endpoint, AWS_REGION: 'local' }));
});

afterAll(async () => {
  await watch?.close();
});

const beyond = (used: Set<string>, granted: string[]) => [...used].filter((action) => !granted.includes(action));

describe('functions without routes', () => {
  it('the bootstrap function seeds, stores the admin token and removes the replaced one within its grant, twice over', async () => {
    watch.takeActions();

    for (let run = 0; run < 2; run += 1) {
      await services.firstStart.ensure();
      const secret = formatSecret(['*'], '*');
      await applyBootstrapTokens(services.apiTokens, { admin: [secret], client: [] });
      expect(await removeBootstrapToken(services.apiTokens, bootstrapTokenId(secret))).toBe('removed');
    }

    expect(beyond(watch.takeActions(), actionsOf(BOOTSTRAP_TABLE_ACCESS))).toEqual([]);
  });

  it('the snapshot function takes its snapshot within its grant', async () => {
    await services.firstStart.ensure();
    watch.takeActions();

    await services.insights.snapshot();

    const used = watch.takeActions();
    expect(used.has('dynamodb:PutItem')).toBe(true);
    expect(beyond(used, actionsOf(SNAPSHOT_TABLE_ACCESS))).toEqual([]);
  });
});

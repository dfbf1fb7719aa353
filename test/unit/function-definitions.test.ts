import { describe, expect, it } from 'vitest';
import { functionDefinitions } from '../../functions/registry.js';
import { createComposition } from '../../lib/composition/composition.js';
import { loadConfig } from '../../lib/config.js';
import { GROUPS, SDK_GROUPS } from '../../lib/http/route.js';
import { routesOfGroup } from '../../lib/route-table.js';

/** Composing builds services and no request: no table is reached here. */
const composition = () => createComposition(loadConfig({ TABLE_NAME: 'unused', AWS_REGION: 'local', DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' }));

describe('each function definition', () => {
  it.each(GROUPS)('%s: its slices serve exactly its rows of the route table, each with a handler function', (group) => {
    const slices = Object.values(functionDefinitions[group].compose(composition()));
    const served = slices.flatMap((slice) => Object.keys(slice.routes));
    expect(served.sort()).toEqual([...routesOfGroup(group)].sort());
    for (const slice of slices) {
      for (const id of Object.keys(slice.routes)) expect(typeof (slice.operations as Record<string, unknown>)[id], id).toBe('function');
    }
  });

  it.each(GROUPS)('%s: reads session cookies exactly when it serves the admin API', (group) => {
    expect(functionDefinitions[group].admin === undefined).toBe(SDK_GROUPS.has(group));
  });
});

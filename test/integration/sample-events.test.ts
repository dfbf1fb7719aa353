import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { routeTable } from '../../lib/api/route-table.js';
import type { Group } from '../../lib/api/route-types.js';
import { invokeSample } from '../../scripts/local/invoke-sample.js';
import { startLocalRuntime, type LocalRuntime } from '../../scripts/local/runtime.js';
import { unique } from '../support/services.js';

/**
 * Every sample event, in the order a person would try them, with the status it must get.
 * A new file under events/ has to be added here, so no sample goes untested.
 */
const SCENARIOS: Array<[string, number]> = [
  ['instance/health.json', 200],
  ['instance/ui-config.json', 200],
  ['instance/docs-openapi.json', 200],
  ['instance/docs-page.json', 200],
  ['instance/docs-styles.json', 200],
  ['instance/docs-script.json', 200],
  ['instance/insights.json', 200],
  ['instance/unknown-api-path.json', 404],
  ['strategies/create.json', 201],
  ['strategies/create-wrong-content-type.json', 415],
  ['strategies/list.json', 200],
  ['strategies/get.json', 200],
  ['strategies/update.json', 200],
  ['strategies/deprecate.json', 200],
  ['strategies/reactivate.json', 200],
  ['strategies/deprecate-without-token.json', 401],
  ['access/create-client-token.json', 201],
  ['access/list-tokens.json', 200],
  ['access/delete-token.json', 200],
  ['features/create-feature.json', 201],
  ['features/create-parent-feature.json', 201],
  ['features/list-project-features.json', 200],
  ['features/get-feature.json', 200],
  ['features/update-feature.json', 200],
  ['features/patch-feature.json', 200],
  ['features/add-strategy.json', 200],
  ['features/list-strategies.json', 200],
  ['features/get-strategy-unknown-id.json', 404],
  ['features/update-strategy-unknown-id.json', 404],
  ['features/delete-strategy-unknown-id.json', 404],
  ['features/enable-in-development.json', 200],
  ['features/disable-in-development.json', 200],
  ['features/put-environment-variants.json', 200],
  ['features/get-environment-variants.json', 200],
  ['features/patch-environment-variants.json', 200],
  ['features/patch-variants-all-environments.json', 200],
  ['features/add-dependency.json', 200],
  ['features/delete-dependency.json', 200],
  ['features/delete-dependencies.json', 200],
  ['features/add-tag.json', 201],
  ['features/list-tags.json', 200],
  ['features/update-tags.json', 201],
  ['features/delete-tag.json', 200],
  ['features/mark-stale.json', 202],
  ['features/list-all-features.json', 200],
  ['features/archive-features.json', 202],
  ['features/list-archived-features.json', 200],
  ['features/revive-feature.json', 200],
  ['features/archive-feature.json', 202],
  ['features/delete-archived-feature.json', 200],
  ['features/export-project.json', 200],
  ['features/validate-import.json', 200],
  ['features/import-into-default.json', 200],
  ['state/export-json.json', 200],
  ['state/export-yaml-download.json', 200],
  ['access/create-user.json', 201],
  ['access/create-user-taken-email.json', 409],
  ['access/create-user-without-email-or-username.json', 400],
  ['access/list-users.json', 200],
  ['access/get-user.json', 200],
  ['access/get-user-not-a-number.json', 400],
  ['access/get-unknown-user.json', 404],
  ['access/update-user.json', 200],
  ['access/list-roles.json', 200],
  ['groups/create.json', 201],
  ['groups/create-taken-name.json', 409],
  ['groups/create-unknown-member.json', 400],
  ['groups/list.json', 200],
  ['groups/get.json', 200],
  ['groups/update.json', 200],
  ['groups/update-unknown.json', 404],
  ['groups/delete.json', 200],
  ['access/delete-user.json', 200],
  ['access/set-oidc-settings.json', 200],
  ['access/set-oidc-settings-bad-url.json', 400],
  ['access/get-oidc-settings.json', 200],
  ['access/create-signup-token.json', 201],
  ['access/list-signup-tokens.json', 200],
  ['access/get-unknown-signup-token.json', 404],
  ['access/update-unknown-signup-token.json', 404],
  ['access/sign-up-with-unknown-token.json', 404],
  ['projects/create-environment.json', 201],
  ['projects/list-environments.json', 200],
  ['projects/get-environment.json', 200],
  ['projects/create-project.json', 201],
  ['projects/create-project-bad-naming-pattern.json', 400],
  ['projects/list-projects.json', 200],
  ['projects/get-project-overview.json', 200],
  ['projects/get-unknown-project.json', 404],
  ['projects/update-project.json', 200],
  ['projects/add-project-environment.json', 200],
  ['projects/set-default-strategy.json', 200],
  ['projects/remove-project-environment.json', 200],
  ['projects/delete-project.json', 200],
  ['projects/delete-default-project.json', 400],
  ['features/create-segment.json', 201],
  ['features/create-segment-bad-constraint.json', 400],
  ['features/list-segments.json', 200],
  ['features/get-segment.json', 200],
  ['features/update-segment.json', 204],
  ['features/delete-segment.json', 204],
  ['features/create-context-field.json', 201],
  ['features/list-context-fields.json', 200],
  ['features/get-context-field.json', 200],
  ['features/update-context-field.json', 200],
  ['features/delete-context-field.json', 200],
  ['features/create-tag-type.json', 201],
  ['features/list-tag-types.json', 200],
  ['features/get-tag-type.json', 200],
  ['features/update-tag-type.json', 200],
  ['features/delete-tag-type.json', 200],
  ['client/register.json', 202],
  ['client/metrics.json', 202],
  ['client/metrics-wrong-content-type.json', 202],
  ['client/features.json', 200],
  ['client/features-filtered.json', 200],
  ['client/features-bad-tag.json', 400],
  ['client/feature-unknown.json', 404],
];

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

    expect(SCENARIOS.map(([file]) => file).sort()).toEqual(files);
  });

  it('covers every route of the route table', () => {
    const covered = new Set(
      SCENARIOS.map(([file]) => JSON.parse(readFileSync(join(EVENTS_DIR, file), 'utf8')).routeKey as string),
    );

    const missing = Object.values(routeTable)
      .map((spec) => `${spec.method} ${spec.path}`)
      .filter((key) => !covered.has(key));

    expect(missing).toEqual([]);
  });

  it.each(SCENARIOS)('%s answers %i', async (file, status) => {
    const group = file.split('/')[0] as Group;

    const result = await invokeSample(runtime, group, join(EVENTS_DIR, file));

    expect(result.statusCode, result.body).toBe(status);
  });
});

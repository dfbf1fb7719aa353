import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiResponse } from '../support/api.js';
import { adminToken, freshInstanceServices } from '../support/services.js';
import {
  buildEach, buildSpecWorld, casesOf, environmentOf, SPEC_FILES, specOf, unbuildableReason,
} from '../support/client-spec.js';

/**
 * Issue 15, deliverable 2: the Frontend API evaluates what the official SDKs evaluate. Every
 * `@unleash/client-specification` file's state is built through this service's admin API (a fresh
 * instance per file, so the spec's fixed feature names, which seed variant hashing, are kept;
 * test/support/client-spec.ts), and every case is asked of `POST /api/frontend` with a frontend
 * token. What the admin API cannot express is listed there by name with its reason, and the
 * builder checks that the admin API really refuses it, so the list cannot hide a case that became
 * expressible; what a Frontend API request cannot carry is listed here.
 */

const CURRENT_TIME =
  'currentTime: the Frontend API moves it into properties, as Unleash\'s does, so date constraints compare with the server\'s clock';

/** Cases whose state is expressible but whose context a Frontend API request cannot carry. */
const UNEXPRESSIBLE_CASES: Record<string, Record<string, string>> = {
  '13-constraint-operators.json': {
    ...Object.fromEntries([
      'F7.dateAfter should be enabled', 'F7.dateAfter should be disabled', 'F7.dateAfter is exclusive of date parameter',
      'F7.dateBefore should be enabled', 'F7.dateBefore should be disabled', 'F7.dateBefore is exclusive of date parameter',
      'F7.date-range should be enabled', 'F7.date-with-timezone should respect timezone',
    ].map((description) => [description, CURRENT_TIME])),
    'F8.missing-field.NOT_IN should return true when null':
      'a null property: the Frontend API takes strings (400), as Unleash\'s POST schema (sdkContextSchema) does',
  },
  '04-gradual-rollout-session-id-strategy.json': {
    'Feature.A4 should be disabled when no user on context':
      'no sessionId: the Frontend API gives such a context a random one, as Unleash\'s does, so the rollout applies',
  },
  '06-remote-address-strategy.json': {
    'Feature.remoteAddress.A should not be enabled for missing remoteAddress on context':
      'no remoteAddress: the Frontend API takes the caller\'s address (127.0.0.1 here, which the strategy lists), as Unleash\'s does',
  },
};

type Frontend = (environment: string, context: Record<string, unknown>) => Promise<ApiResponse>;

/** Builds one spec file's state on an instance of its own and answers a caller of its Frontend API. */
async function build(file: string): Promise<Frontend> {
  const services = await freshInstanceServices();
  const call = apiClient(services);
  const world = await buildSpecWorld(file, { call, adminToken: await adminToken(services), tokenTypes: ['frontend'] });
  return async (environment, context) => {
    const res = await call({ method: 'POST', path: '/api/frontend', token: world.tokens.frontend.get(environment) as string, body: { context } });
    if (res.status >= 300) throw new Error(`${file}: POST /api/frontend answered ${res.status}: ${res.text}`);
    return res;
  };
}

/** A few files built at once, each on its own table; more would only queue in the local engine. */
const BUILDS_AT_ONCE = 2;
let builds: Map<string, Promise<Frontend>>;
beforeAll(() => {
  builds = buildEach(SPEC_FILES, BUILDS_AT_ONCE, build);
});

const counts = { run: 0, excluded: 0, total: 0 };

for (const file of SPEC_FILES) {
  const spec = specOf(file);
  const unexpressible = UNEXPRESSIBLE_CASES[file] ?? {};
  const cases = casesOf(spec);

  describe(file, () => {
    let frontend: Frontend;
    beforeAll(async () => {
      frontend = await (builds.get(file) as Promise<Frontend>);
    });

    // The build asserts that each listed refusal is refused, so a file all of whose cases cannot be
    // expressed (unknown operators, names Unleash refuses) is still checked.
    it('builds its state through the admin API, every listed refusal refused', () => {
      expect(frontend).toBeTypeOf('function');
    });

    for (const specCase of cases) {
      const { kind, test } = specCase;
      counts.total += 1;
      const reason = unbuildableReason(file, specCase) ?? unexpressible[test.description];
      const title = `${kind === 'variant' ? 'variant: ' : ''}${test.description}`;
      // A case that cannot be expressed is left out, with its reason, and counted (not a test).
      if (reason !== undefined) {
        counts.excluded += 1;
        continue;
      }
      counts.run += 1;
      it(title, async () => {
        const { environment: _environment, ...context } = test.context;
        const res = await frontend(environmentOf(test.context), context);
        const toggle = (res.body.toggles as Array<{ name: string; variant: Record<string, unknown> }>).find((candidate) => candidate.name === test.toggleName);
        if (kind === 'toggle') {
          expect(Boolean(toggle), `${test.toggleName} listed`).toBe(test.expectedResult);
          return;
        }
        const expected = test.expectedResult;
        if (!toggle) {
          // The Frontend API lists enabled flags only: a disabled flag's variant is the absence.
          expect(expected).toMatchObject({ name: 'disabled', enabled: false });
          expect(expected.feature_enabled ?? false).toBe(false);
          return;
        }
        expect(expected.feature_enabled ?? true, `${test.toggleName} is enabled`).toBe(true);
        expect({ name: toggle.variant.name, enabled: toggle.variant.enabled, payload: toggle.variant.payload })
          .toEqual({ name: expected.name, enabled: expected.enabled, payload: expected.payload });
      });
    }
  });
}

/** The cases run today: a new exclusion has to lower it on purpose. */
const CASES_RUN_AT_LEAST = 180;

describe('the client specification as a whole', () => {
  it('runs every case but the listed ones, and every listed case exists', () => {
    console.log(`client specification through the Frontend API: ${counts.run} run, ${counts.excluded} not expressible, ${counts.total} total`);
    expect(counts.run + counts.excluded).toBe(counts.total);
    expect(counts.run).toBeGreaterThanOrEqual(CASES_RUN_AT_LEAST);
    for (const [file, descriptions] of Object.entries(UNEXPRESSIBLE_CASES)) {
      const known = new Set(casesOf(specOf(file)).map(({ test }) => test.description));
      for (const description of Object.keys(descriptions)) expect(known, `${file}: "${description}"`).toContain(description);
    }
  });
});

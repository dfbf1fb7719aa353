import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, resendWhileUnavailable, type ApiResponse } from '../support/api.js';
import { adminToken, freshInstanceServices } from '../support/services.js';

/**
 * Issue 15, deliverable 2: the Frontend API evaluates what the official SDKs evaluate. Every
 * `@unleash/client-specification` file's state is built through this service's admin API (a fresh
 * instance per file, so the spec's fixed feature names, which seed variant hashing, are kept), and
 * every case is asked of `POST /api/frontend` with a frontend token. What the admin API cannot
 * express is listed below by name with its reason, and the builder checks that the admin API
 * really refuses it, so the list cannot hide a case that became expressible.
 */

const require = createRequire(import.meta.url);
const SPEC_DIR = join(dirname(require.resolve('@unleash/client-specification/package.json')), 'specifications');
const SPEC_FILES: string[] = JSON.parse(readFileSync(join(SPEC_DIR, 'index.json'), 'utf8'));

interface SpecConstraint { contextName: string; operator: string; values?: string[]; value?: string; inverted?: boolean; caseInsensitive?: boolean }
interface SpecVariant { name: string; weight: number; stickiness?: string; payload?: { type: string; value: string }; overrides?: Array<{ contextName: string; values: string[] }> }
interface SpecStrategy { name: string; parameters?: Record<string, string>; constraints?: SpecConstraint[]; segments?: number[]; variants?: SpecVariant[] }
interface SpecFeature {
  name: string; enabled: boolean; strategies?: SpecStrategy[]; variants?: SpecVariant[];
  dependencies?: Array<{ feature: string; enabled?: boolean; variants?: string[] }>;
}
interface SpecSegment { id: number; constraints: SpecConstraint[] }
type SpecEvent =
  | { type: 'hydration'; features: SpecFeature[]; segments: SpecSegment[] }
  | { type: 'feature-updated'; feature: SpecFeature }
  | { type: 'feature-removed'; featureName: string }
  | { type: 'segment-updated'; segment: SpecSegment }
  | { type: 'segment-removed'; segmentId: number };
interface SpecContext { environment?: string; [field: string]: unknown }
interface SpecCase { description: string; context: SpecContext; toggleName: string }
interface ToggleCase extends SpecCase { expectedResult: boolean }
interface VariantCase extends SpecCase { expectedResult: { name: string; enabled: boolean; payload?: { type: string; value: string }; feature_enabled?: boolean } }
interface Spec {
  name: string;
  state: { features?: SpecFeature[]; segments?: SpecSegment[]; events?: SpecEvent[] };
  tests?: ToggleCase[];
  variantTests?: VariantCase[];
}

const specOf = (file: string): Spec => JSON.parse(readFileSync(join(SPEC_DIR, file), 'utf8'));
const everyFeatureOf = (file: string, reason: string) =>
  Object.fromEntries((specOf(file).state.features ?? []).map((feature) => [feature.name, reason]));

const NEW_OPERATOR = (operator: string) =>
  `${operator} is not among the admin API's constraint operators (Unleash's 15); the evaluator (unleash-client 6.12) knows it`;

/**
 * Features whose state the admin API refuses: their cases cannot be expressed. The builder
 * asserts each refusal (a 4xx at some step of building the feature), so an entry cannot outlive it.
 */
const REFUSED_FEATURES: Record<string, Record<string, string>> = {
  '13-constraint-operators.json': { 'F7.invalid-operator': 'NOT_A_VALID_OPERATOR is no operator: refused, as Unleash refuses it' },
  '14-constraint-semver-operators.json': {
    'F8.semverGTE': NEW_OPERATOR('SEMVER_GTE'),
    'F8.semverLTE': NEW_OPERATOR('SEMVER_LTE'),
    'F8.invalidSemverWithLeadingV':
      'SEMVER_EQ "v2.0.0": this service refuses a version SDKs never match (Unleash\'s admin API accepts it: semver.valid strips the v)',
  },
  '15-global-constraints.json': { 'F9.withMissingSegment': 'names segment 404, which does not exist: refused, as Unleash refuses it' },
  '17-dependent-features.json': {
    'child.with.cycle': 'a dependency cycle: refused (its parent already has a parent), as Unleash refuses it',
    'child.with.transitive.dependency': 'a parent that has a parent: refused, as Unleash allows one level only',
    'parents.not.exist.child.enabled': 'a parent that does not exist: refused, as Unleash refuses it',
  },
  '18-utf8-flag-names.json': everyFeatureOf('18-utf8-flag-names.json', 'a name that is not URL-friendly: refused, as Unleash refuses it'),
  '21-regex-constraint-operators.json': everyFeatureOf('21-regex-constraint-operators.json', NEW_OPERATOR('REGEX')),
  '22-cidr-constraint-operators.json': everyFeatureOf('22-cidr-constraint-operators.json', NEW_OPERATOR('IN_CIDR')),
};

const RESPREAD =
  'variant weights: Unleash\'s admin API spreads "variable" weights over 1,000 (and wants one such), and the SDKs hash into the weights\' sum, so the spec\'s sum picks other variants';

/**
 * Features whose variants the admin API stores with other weights than the spec's (checked
 * against what it stored): their variant cases cannot be expressed, their on/off cases can.
 */
const RESPREAD_FEATURES: Record<string, string[]> = {
  '08-variants.json': ['Feature.Variants.B', 'Feature.Variants.C', 'Feature.Variants.D', 'Feature.Variants.override.D'],
  '12-custom-stickiness.json': ['Feature.flexible.rollout.custom.stickiness_100'],
  '15-global-constraints.json': ['F9.globalSegmentOn'],
  '16-strategy-variants.json': ['Feature.strategy.multiple.variants', 'Feature.strategy.numeric.variants', 'Feature.strategy.variants.stickiness'],
};

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

/**
 * The delta-protocol files hold events, not a state: the state they lead to is what SDKs
 * evaluate. (19's hydration lists a segment on the feature itself, which no SDK reads: segments
 * belong to strategies, so nothing is built from it.)
 */
function stateOf(spec: Spec): { features: SpecFeature[]; segments: SpecSegment[] } {
  if (!spec.state.events) return { features: spec.state.features ?? [], segments: spec.state.segments ?? [] };
  const features = new Map<string, SpecFeature>();
  const segments = new Map<number, SpecSegment>();
  for (const event of spec.state.events) {
    if (event.type === 'hydration') {
      features.clear();
      segments.clear();
      for (const feature of event.features) features.set(feature.name, feature);
      for (const segment of event.segments) segments.set(segment.id, segment);
    } else if (event.type === 'feature-updated') features.set(event.feature.name, event.feature);
    else if (event.type === 'feature-removed') features.delete(event.featureName);
    else if (event.type === 'segment-updated') segments.set(event.segment.id, event.segment);
    else segments.delete(event.segmentId);
  }
  return { features: [...features.values()], segments: [...segments.values()] };
}

/** The environment a case's SDK runs in: the Frontend API takes it from the token, so a token per environment. */
const environmentOf = (context: SpecContext): string => context.environment ?? 'development';

const constraint = (given: SpecConstraint) => ({
  contextName: given.contextName,
  operator: given.operator,
  values: given.values ?? [],
  ...(given.value !== undefined ? { value: given.value } : {}),
  inverted: given.inverted ?? false,
  caseInsensitive: given.caseInsensitive ?? false,
});

/**
 * A spec variant as the admin API takes it: `variable`, as Unleash wants at least one such, so
 * the weights are spread over 1,000 as Unleash spreads them (see RESPREAD_FEATURES).
 */
const variant = (given: SpecVariant, withOverrides: boolean) => ({
  name: given.name,
  weight: given.weight,
  weightType: 'variable',
  ...(given.stickiness ? { stickiness: given.stickiness } : {}),
  ...(given.payload ? { payload: given.payload } : {}),
  ...(withOverrides && given.overrides ? { overrides: given.overrides } : {}),
});

/** The context fields a state names: in constraints, variant overrides and stickiness. */
function contextFieldsOf(features: SpecFeature[], segments: SpecSegment[]): Set<string> {
  const names = new Set<string>();
  const variants = (list: SpecVariant[] = []) => {
    for (const given of list) {
      if (given.stickiness) names.add(given.stickiness);
      for (const override of given.overrides ?? []) names.add(override.contextName);
    }
  };
  for (const segment of segments) for (const given of segment.constraints) names.add(given.contextName);
  for (const feature of features) {
    variants(feature.variants);
    for (const strategy of feature.strategies ?? []) {
      for (const given of strategy.constraints ?? []) names.add(given.contextName);
      if (strategy.parameters?.stickiness) names.add(strategy.parameters.stickiness);
      variants(strategy.variants);
    }
  }
  for (const builtIn of ['default', 'random']) names.delete(builtIn);
  return names;
}

type Frontend = (environment: string, context: Record<string, unknown>) => Promise<ApiResponse>;
type Case = { kind: 'toggle'; test: ToggleCase } | { kind: 'variant'; test: VariantCase };

const casesOf = (spec: Spec): Case[] => [
  ...(spec.tests ?? []).map((test) => ({ kind: 'toggle' as const, test })),
  ...(spec.variantTests ?? []).map((test) => ({ kind: 'variant' as const, test })),
];

/**
 * Builds one spec file's state on an instance of its own through the admin API, checks the
 * listed refusals and respread weights, and answers a caller of its Frontend API.
 */
async function build(file: string): Promise<Frontend> {
  const spec = specOf(file);
  const cases = casesOf(spec);
  const refused = REFUSED_FEATURES[file] ?? {};
  const respread = RESPREAD_FEATURES[file] ?? [];
  const frontendTokens = new Map<string, string>();
  const services = await freshInstanceServices();
  const call = apiClient(services);
  const token = await adminToken(services);
  // A 503 writes nothing (a transaction that met a concurrent one): sending it again is safe.
  const admin = (method: string, path: string, body?: unknown) => resendWhileUnavailable(() => call({ method, path, token, body }));
  const ok = (res: ApiResponse, what: string) => {
    if (res.status >= 300) throw new Error(`${file}: ${what} answered ${res.status}: ${res.text}`);
    return res;
  };
  const { features, segments } = stateOf(spec);
  const environments = [...new Set(cases.map(({ test }) => environmentOf(test.context)))];
  const existing = new Set(
    (ok(await admin('GET', '/api/admin/environments'), 'environments').body.environments as Array<{ name: string }>).map((e) => e.name),
  );
  for (const environment of environments) {
    if (!existing.has(environment)) {
      ok(await admin('POST', '/api/admin/environments', { name: environment, type: 'test' }), `environment ${environment}`);
    }
    const added = await admin('POST', '/api/admin/projects/default/environments', { environment });
    if (added.status !== 409) ok(added, `project environment ${environment}`); // 409: the project has it already
  }

  // Unleash refuses a constraint or a stickiness on a context field it does not know: define them first.
  const known = new Set(
    (ok(await admin('GET', '/api/admin/context'), 'context fields').body as Array<{ name: string }>).map((field) => field.name),
  );
  for (const name of contextFieldsOf(features, segments)) {
    if (!known.has(name)) ok(await admin('POST', '/api/admin/context', { name, stickiness: true }), `context field ${name}`);
  }

  const segmentIds = new Map<number, number>();
  for (const segment of segments) {
    const created = ok(await admin('POST', '/api/admin/segments', {
      name: `spec-segment-${segment.id}`, constraints: segment.constraints.map(constraint),
    }), `segment ${segment.id}`);
    segmentIds.set(segment.id, created.body.id);
  }

  // Features in parallel, each one's steps in order (they change the same feature).
  const failures: Record<string, ApiResponse> = {};
  const base = (name: string) => `/api/admin/projects/default/features/${encodeURIComponent(name)}`;
  const steps = async (feature: SpecFeature): Promise<ApiResponse | undefined> => {
    const created = await admin('POST', '/api/admin/projects/default/features', { name: feature.name });
    if (created.status >= 300) return created;
    for (const environment of environments) {
      for (const strategy of feature.strategies ?? []) {
        const res = await admin('POST', `${base(feature.name)}/environments/${environment}/strategies`, {
          name: strategy.name,
          parameters: strategy.parameters ?? {},
          constraints: (strategy.constraints ?? []).map(constraint),
          segments: (strategy.segments ?? []).map((id) => segmentIds.get(id) ?? id),
          // Unleash's admin API requires a strategy variant's stickiness; the SDKs read a missing
          // one as the strategy's, so that is the stickiness that expresses the spec's state.
          variants: (strategy.variants ?? []).map((given) =>
            variant({ ...given, stickiness: given.stickiness ?? strategy.parameters?.stickiness ?? 'default' }, false)),
        });
        if (res.status >= 300) return res;
      }
      if (feature.variants?.length) {
        const res = await admin('PUT', `${base(feature.name)}/environments/${environment}/variants`, feature.variants.map((given) => variant(given, true)));
        if (res.status >= 300) return res;
      }
      if (feature.enabled) {
        const res = await admin('POST', `${base(feature.name)}/environments/${environment}/on`);
        if (res.status >= 300) return res;
      }
    }
    return undefined;
  };
  await Promise.all(features.map(async (feature) => {
    const failure = await steps(feature);
    if (failure) failures[feature.name] = failure;
  }));
  // Dependencies once every parent exists, those on top-level parents first: Unleash allows one
  // level, so of a chain or a cycle the link that makes it deeper is the one refused.
  const isChild = new Set(features.filter((feature) => feature.dependencies?.length).map((feature) => feature.name));
  const links = features.flatMap((feature) => (feature.dependencies ?? []).map((dependency) => ({ feature, dependency })));
  links.sort((a, b) => Number(isChild.has(a.dependency.feature)) - Number(isChild.has(b.dependency.feature)));
  for (const { feature, dependency } of links) {
    if (failures[feature.name]) continue;
    const res = await admin('POST', `${base(feature.name)}/dependencies`, dependency);
    if (res.status >= 300) failures[feature.name] = res;
  }
  const unexpected = Object.entries(failures).filter(([name]) => !(name in refused));
  if (unexpected.length > 0) {
    throw new Error(`${file}: could not be built:\n${unexpected.map(([name, res]) => `${name}: ${res.status} ${res.text}`).join('\n')}`);
  }
  for (const [name, res] of Object.entries(failures)) {
    expect(res.status, `${file}: ${name} is listed as refused`).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
  for (const name of Object.keys(refused)) {
    expect(failures[name], `${file}: ${name} is listed as refused but the admin API took it: run its cases`).toBeDefined();
  }
  // The weights as stored, in the first environment (every environment gets the same).
  const respreadFound: string[] = [];
  for (const feature of features) {
    if (failures[feature.name]) continue;
    const stored = ok(await admin('GET', base(feature.name)), `feature ${feature.name}`).body;
    const development = stored.environments.find((e: { name: string }) => e.name === environments[0]);
    const weights = (list: Array<{ weight: number }> = []) => list.map((given) => given.weight).join(',');
    const lists = [
      [feature.variants, development.variants],
      ...(feature.strategies ?? []).map((strategy, index) => [strategy.variants, development.strategies[index]?.variants]),
    ] as Array<[SpecVariant[] | undefined, Array<{ weight: number }> | undefined]>;
    if (lists.some(([given, kept]) => (given?.length ?? 0) > 1 && weights(given) !== weights(kept))) respreadFound.push(feature.name);
  }
  expect(respreadFound.sort(), `${file}: the features whose variant weights the admin API changed`).toEqual([...respread].sort());

  for (const environment of environments) {
    const created = ok(await admin('POST', '/api/admin/api-tokens', {
      tokenName: `spec-${environment}`, type: 'frontend', environment, projects: ['default'],
    }), `frontend token for ${environment}`);
    frontendTokens.set(environment, created.body.secret);
  }
  return async (environment, context) => {
    const res = await call({ method: 'POST', path: '/api/frontend', token: frontendTokens.get(environment) as string, body: { context } });
    return ok(res, 'POST /api/frontend');
  };
}

/** A few files built at once, each on its own table; more would only queue in the local engine. */
const BUILDS_AT_ONCE = 2;
const builds = new Map<string, Promise<Frontend>>();
beforeAll(() => {
  const waiting: Array<() => void> = [];
  let free = BUILDS_AT_ONCE;
  const slot = () => (free > 0 ? (free -= 1, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve)));
  const release = () => (waiting.length > 0 ? waiting.shift()?.() : (free += 1));
  for (const file of SPEC_FILES) {
    const built = slot().then(() => build(file)).finally(release);
    built.catch(() => {}); // reported by the file's own beforeAll, which awaits it
    builds.set(file, built);
  }
});

const counts = { run: 0, excluded: 0, total: 0 };

for (const file of SPEC_FILES) {
  const spec = specOf(file);
  const refused = REFUSED_FEATURES[file] ?? {};
  const unexpressible = UNEXPRESSIBLE_CASES[file] ?? {};
  const respread = RESPREAD_FEATURES[file] ?? [];
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

    for (const { kind, test } of cases) {
      counts.total += 1;
      const reason = refused[test.toggleName] ?? unexpressible[test.description]
        ?? (kind === 'variant' && respread.includes(test.toggleName) ? RESPREAD : undefined);
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

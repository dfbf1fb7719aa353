import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { resendWhileUnavailable } from './api.js';

/**
 * The `@unleash/client-specification` worlds, built through this service's admin API: each spec
 * file's state (its fixed feature names seed variant hashing, so each file gets an instance of
 * its own), with the features the admin API refuses and the variants whose weights it respreads
 * checked and listed by name, and API tokens to evaluate it with. The Frontend API's spec test
 * (test/integration/frontend-spec.test.ts) builds through the handlers; the clients' suite
 * (test/clients/) through a started server: both pass a `call`.
 */

const require = createRequire(import.meta.url);
const SPEC_DIR = join(dirname(require.resolve('@unleash/client-specification/package.json')), 'specifications');
export const SPEC_FILES: string[] = JSON.parse(readFileSync(join(SPEC_DIR, 'index.json'), 'utf8'));

export interface SpecConstraint { contextName: string; operator: string; values?: string[]; value?: string; inverted?: boolean; caseInsensitive?: boolean }
export interface SpecPayload { type: string; value: string }
export interface SpecVariant { name: string; weight: number; stickiness?: string; payload?: SpecPayload; overrides?: Array<{ contextName: string; values: string[] }> }
interface SpecStrategy { name: string; parameters?: Record<string, string>; constraints?: SpecConstraint[]; segments?: number[]; variants?: SpecVariant[] }
export interface SpecFeature {
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
export interface SpecContext { environment?: string; [field: string]: unknown }
interface SpecCaseBase { description: string; context: SpecContext; toggleName: string }
export interface ToggleCase extends SpecCaseBase { expectedResult: boolean }
export interface ExpectedVariant { name: string; enabled: boolean; payload?: SpecPayload; feature_enabled?: boolean }
export interface VariantCase extends SpecCaseBase { expectedResult: ExpectedVariant }
export interface Spec {
  name: string;
  state: { features?: SpecFeature[]; segments?: SpecSegment[]; events?: SpecEvent[] };
  tests?: ToggleCase[];
  variantTests?: VariantCase[];
}
export type SpecCase = { kind: 'toggle'; test: ToggleCase } | { kind: 'variant'; test: VariantCase };

export const specOf = (file: string): Spec => JSON.parse(readFileSync(join(SPEC_DIR, file), 'utf8'));

export const casesOf = (spec: Spec): SpecCase[] => [
  ...(spec.tests ?? []).map((test) => ({ kind: 'toggle' as const, test })),
  ...(spec.variantTests ?? []).map((test) => ({ kind: 'variant' as const, test })),
];

const everyFeatureOf = (file: string, reason: string) =>
  Object.fromEntries((specOf(file).state.features ?? []).map((feature) => [feature.name, reason]));

const NEW_OPERATOR = (operator: string) =>
  `${operator} is not among the admin API's constraint operators (Unleash's 15); the evaluator (unleash-client 6.12) knows it`;

/**
 * Features whose state the admin API refuses: their cases cannot be expressed. The builder
 * asserts each refusal (a 4xx at some step of building the feature), so an entry cannot outlive it.
 */
export const REFUSED_FEATURES: Record<string, Record<string, string>> = {
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

export const RESPREAD =
  'variant weights: Unleash\'s admin API spreads "variable" weights over 1,000 (and wants one such), and the SDKs hash into the weights\' sum, so the spec\'s sum picks other variants';

/**
 * Features whose variants the admin API stores with other weights than the spec's (checked
 * against what it stored): their variant cases cannot be expressed, their on/off cases can.
 */
export const RESPREAD_FEATURES: Record<string, string[]> = {
  '08-variants.json': ['Feature.Variants.B', 'Feature.Variants.C', 'Feature.Variants.D', 'Feature.Variants.override.D'],
  '12-custom-stickiness.json': ['Feature.flexible.rollout.custom.stickiness_100'],
  '15-global-constraints.json': ['F9.globalSegmentOn'],
  '16-strategy-variants.json': ['Feature.strategy.multiple.variants', 'Feature.strategy.numeric.variants', 'Feature.strategy.variants.stickiness'],
};

/** Why a case's state cannot be built through the admin API, or undefined when it can. */
export function unbuildableReason(file: string, { kind, test }: SpecCase): string | undefined {
  return REFUSED_FEATURES[file]?.[test.toggleName]
    ?? (kind === 'variant' && (RESPREAD_FEATURES[file] ?? []).includes(test.toggleName) ? RESPREAD : undefined);
}

/** The environment a case's SDK runs in: the API takes it from the token, so a token per environment. */
export const environmentOf = (context: SpecContext): string => context.environment ?? 'development';

/**
 * The delta-protocol files hold events, not a state: the state they lead to is what SDKs
 * evaluate. (19's hydration lists a segment on the feature itself, which no SDK reads: segments
 * belong to strategies, so nothing is built from it.)
 */
export function stateOf(spec: Spec): { features: SpecFeature[]; segments: SpecSegment[] } {
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

/** What the builder needs of an API: the handlers' test caller or HTTP to a started server (`httpCall`). */
export interface SpecCallResponse { status: number; body: any; text: string }
export type SpecCall = (request: { method: string; path: string; token?: string; body?: unknown }) => Promise<SpecCallResponse>;

/** A caller of a started server over HTTP, in the shape of the handlers' test caller. */
export function httpCall(baseUrl: string): SpecCall {
  return async ({ method, path, token, body }) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(token ? { Authorization: token } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
    return { status: res.status, body: json, text };
  };
}

export type SpecTokenType = 'frontend' | 'client';

export interface SpecWorld {
  file: string;
  spec: Spec;
  /** Every environment a case runs in, each a project environment of `default`. */
  environments: string[];
  /** A token of each asked type for each environment, scoped to project `default`. */
  tokens: Record<SpecTokenType, Map<string, string>>;
}

/**
 * Builds one spec file's state through the admin API of a fresh instance (`call` reaches it,
 * `adminToken` is an admin token of it), checks the listed refusals and respread weights, and
 * makes a token of each type in `tokenTypes` for every environment its cases run in.
 */
export async function buildSpecWorld(file: string, options: { call: SpecCall; adminToken: string; tokenTypes: SpecTokenType[] }): Promise<SpecWorld> {
  const { call, adminToken: token } = options;
  const spec = specOf(file);
  const cases = casesOf(spec);
  const refused = REFUSED_FEATURES[file] ?? {};
  const respread = RESPREAD_FEATURES[file] ?? [];
  // A 503 writes nothing (a transaction that met a concurrent one): sending it again is safe.
  const admin = (method: string, path: string, body?: unknown) => resendWhileUnavailable(() => call({ method, path, token, body }));
  const ok = (res: SpecCallResponse, what: string) => {
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

  const failures = await buildFeatures(features, environments, segmentIds, admin);
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
    const stored = ok(await admin('GET', featurePath(feature.name)), `feature ${feature.name}`).body;
    const first = stored.environments.find((e: { name: string }) => e.name === environments[0]);
    const weights = (list: Array<{ weight: number }> = []) => list.map((given) => given.weight).join(',');
    const lists = [
      [feature.variants, first.variants],
      ...(feature.strategies ?? []).map((strategy, index) => [strategy.variants, first.strategies[index]?.variants]),
    ] as Array<[SpecVariant[] | undefined, Array<{ weight: number }> | undefined]>;
    if (lists.some(([given, kept]) => (given?.length ?? 0) > 1 && weights(given) !== weights(kept))) respreadFound.push(feature.name);
  }
  expect(respreadFound.sort(), `${file}: the features whose variant weights the admin API changed`).toEqual([...respread].sort());

  const tokens: SpecWorld['tokens'] = { frontend: new Map(), client: new Map() };
  for (const type of options.tokenTypes) {
    for (const environment of environments) {
      const created = ok(await admin('POST', '/api/admin/api-tokens', {
        tokenName: `spec-${type}-${environment}`, type, environment, projects: ['default'],
      }), `${type} token for ${environment}`);
      tokens[type].set(environment, created.body.secret);
    }
  }
  return { file, spec, environments, tokens };
}

const featurePath = (name: string) => `/api/admin/projects/default/features/${encodeURIComponent(name)}`;

type Admin = (method: string, path: string, body?: unknown) => Promise<SpecCallResponse>;

/**
 * Creates every feature in every environment, features in parallel and each one's steps in
 * order (they change the same feature), then the dependencies; answers the refusals by feature.
 */
async function buildFeatures(features: SpecFeature[], environments: string[], segmentIds: Map<number, number>, admin: Admin) {
  const failures: Record<string, SpecCallResponse> = {};
  const steps = async (feature: SpecFeature): Promise<SpecCallResponse | undefined> => {
    const created = await admin('POST', '/api/admin/projects/default/features', { name: feature.name });
    if (created.status >= 300) return created;
    for (const environment of environments) {
      for (const strategy of feature.strategies ?? []) {
        const res = await admin('POST', `${featurePath(feature.name)}/environments/${environment}/strategies`, {
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
        const res = await admin('PUT', `${featurePath(feature.name)}/environments/${environment}/variants`, feature.variants.map((given) => variant(given, true)));
        if (res.status >= 300) return res;
      }
      if (feature.enabled) {
        const res = await admin('POST', `${featurePath(feature.name)}/environments/${environment}/on`);
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
    const res = await admin('POST', `${featurePath(feature.name)}/dependencies`, dependency);
    if (res.status >= 300) failures[feature.name] = res;
  }
  return failures;
}

/**
 * Runs `build` for every file, at most `atOnce` at a time (more only queue in the local engine),
 * and answers each file's promise; a failure is reported by whoever awaits that file.
 */
export function buildEach<T>(files: string[], atOnce: number, build: (file: string) => Promise<T>): Map<string, Promise<T>> {
  const waiting: Array<() => void> = [];
  let free = atOnce;
  const slot = () => (free > 0 ? (free -= 1, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve)));
  const release = () => (waiting.length > 0 ? waiting.shift()?.() : (free += 1));
  const builds = new Map<string, Promise<T>>();
  for (const file of files) {
    const built = slot().then(() => build(file)).finally(release);
    built.catch(() => {}); // reported by whoever awaits it
    builds.set(file, built);
  }
  return builds;
}

import { isDeepStrictEqual } from 'node:util';
import { environmentOf, specOf, stateOf, unbuildableReason, type SpecCase, type SpecFeature, type SpecPayload } from '../../support/client-spec.js';
import type { ClientUnderTest, EvaluatorKind } from './client.js';
import type { OfrepCase, OfrepResult, OfrepType, SdkCase, SdkResult } from './evaluator.js';

/**
 * How a `@unleash/client-specification` case becomes a request of the evaluator protocol
 * (test/clients/README.md), for each kind, what answer the specification expects of it, and the
 * comparisons between kinds and clients.
 */

/** A spec case as one kind asks it: the environment whose token runs it, the request, the expected answer. */
export interface Planned<Request> {
  title: string;
  environment: string;
  request: Request;
  /** Whether the evaluator's answer is what the specification expects; else a description of how it differs. */
  check(answer: unknown): string | undefined;
}

export const titleOf = ({ kind, test }: SpecCase) => `${kind === 'variant' ? 'variant: ' : ''}${test.description}`;

const NOT_A_STRING =
  'a property that is not a string (null): the evaluator protocol carries properties as strings, as the SDKs\' context types of Java, Go and Python do';

/** Why the protocol cannot carry this case's context, when it cannot. */
function contextReason({ test }: SpecCase): string | undefined {
  const { properties } = test.context as { properties?: Record<string, unknown> };
  return Object.values(properties ?? {}).some((value) => typeof value !== 'string') ? NOT_A_STRING : undefined;
}

/** The Unleash context of a case, as every SDK takes it; the environment is the token's (and the SDK's). */
function sdkContext({ test }: SpecCase): Record<string, unknown> {
  return test.context;
}

export function planSdk(file: string, specCase: SpecCase): Planned<SdkCase> | { title: string; excluded: string } {
  const title = titleOf(specCase);
  const excluded = unbuildableReason(file, specCase) ?? contextReason(specCase);
  if (excluded) return { title, excluded };
  const { kind, test } = specCase;
  const environment = environmentOf(test.context);
  const request: SdkCase = { flag: test.toggleName, type: kind === 'toggle' ? 'boolean' : 'variant', context: sdkContext(specCase) };
  if (kind === 'toggle') {
    return {
      title, environment, request,
      check: (answer) => {
        const enabled = (answer as { enabled?: unknown }).enabled;
        return enabled === test.expectedResult ? undefined : `enabled ${String(enabled)}, the specification says ${test.expectedResult}`;
      },
    };
  }
  const expected = test.expectedResult;
  return {
    title, environment, request,
    check: (answer) => {
      const variant = (answer as { variant?: { name: string; enabled: boolean; payload: SpecPayload | null; featureEnabled: boolean | null } }).variant;
      if (!variant) return `no variant in ${JSON.stringify(answer)}`;
      const got = { name: variant.name, enabled: variant.enabled, payload: variant.payload ?? undefined };
      const want = { name: expected.name, enabled: expected.enabled, payload: expected.payload };
      if (!isDeepStrictEqual(got, want)) return `variant ${JSON.stringify(got)}, the specification says ${JSON.stringify(want)}`;
      // featureEnabled only where both the SDK exposes it and the specification states it.
      if (variant.featureEnabled !== null && expected.feature_enabled !== undefined && variant.featureEnabled !== expected.feature_enabled) {
        return `featureEnabled ${variant.featureEnabled}, the specification says ${expected.feature_enabled}`;
      }
      return undefined;
    },
  };
}

/** The OpenFeature type a payload answers as, by the mapping in the README (json → object). */
const OFREP_TYPES: Record<string, OfrepType> = { string: 'string', number: 'number', json: 'object' };
const DEFAULTS: Record<OfrepType, unknown> = { boolean: false, string: 'the-default', number: -1, object: { default: true } };

/**
 * The caller's default for a typed request expecting `value`: a number default is whole when the
 * value is, since a language with two number types (Java's Integer and Double) asks for the one
 * its default is, as an application would.
 */
export function defaultFor(type: OfrepType, value: unknown): unknown {
  if (type === 'number') return Number.isInteger(value) ? -1 : -1.5;
  return DEFAULTS[type];
}

/** A variant payload as the typed value an OpenFeature caller gets for it. */
export function payloadValue(payload: SpecPayload): unknown {
  if (payload.type === 'number') return Number(payload.value);
  if (payload.type === 'json') return JSON.parse(payload.value);
  return payload.value;
}

/**
 * The Unleash context as an OpenFeature evaluation context, by the mapping in the README:
 * `userId` is the targeting key, the other fields and the properties flat attributes; the
 * environment is the token's, so it is not sent.
 */
export function ofrepContext(context: Record<string, unknown>): Record<string, unknown> {
  const { userId, environment: _environment, properties, ...fields } = context as { userId?: unknown; environment?: unknown; properties?: Record<string, unknown> };
  return { ...(userId !== undefined ? { targetingKey: userId } : {}), ...fields, ...(properties ?? {}) };
}

/** A spec feature whose variants (its own or its strategies') carry a payload. */
const hasPayloads = (feature: SpecFeature) =>
  [...(feature.variants ?? []), ...(feature.strategies ?? []).flatMap((strategy) => strategy.variants ?? [])].some((given) => given.payload);

/**
 * What OFREP answers a boolean request for, besides a boolean: a flag the state does not have is
 * FLAG_NOT_FOUND (the specification's `false`: the caller gets its default), and an enabled flag
 * whose variant carries a payload answers the payload (README, "OpenFeature (OFREP)": OFREP
 * carries no type in the request, so the payload's decides), which the provider reports as
 * TYPE_MISMATCH to a boolean request (the specification's `true`).
 */
function booleanOutcome(file: string, flag: string, expected: boolean): 'boolean' | 'FLAG_NOT_FOUND' | 'TYPE_MISMATCH when on' {
  const feature = stateOf(specOf(file)).features.find((candidate) => candidate.name === flag);
  if (!feature) return 'FLAG_NOT_FOUND';
  return expected && hasPayloads(feature) ? 'TYPE_MISMATCH when on' : 'boolean';
}

/**
 * The kind of token an OFREP evaluator calls with: a frontend token's answers hold only the flags
 * on for the caller (README, "OpenFeature (OFREP)"), so a flag off or unmatched is FLAG_NOT_FOUND
 * to it, and its caller gets its default, which for a boolean request is the specification's false.
 */
export type OfrepTokenType = 'client' | 'frontend';

export function planOfrep(file: string, specCase: SpecCase, unexpressible: Record<string, string> = {}, tokenType: OfrepTokenType = 'client'): Planned<OfrepCase> | { title: string; excluded: string } {
  const title = titleOf(specCase);
  const { kind, test } = specCase;
  const excluded = unbuildableReason(file, specCase) ?? contextReason(specCase) ?? unexpressible[title]
    ?? (kind === 'variant' && !OFREP_TYPES[test.expectedResult.payload?.type ?? '']
      ? `OFREP asks for a typed value: only a variant with a ${Object.keys(OFREP_TYPES).join(', ')} payload is one (this one: ${test.expectedResult.payload?.type ?? 'none'})`
      : undefined);
  if (excluded) return { title, excluded };
  const environment = environmentOf(test.context);
  const context = ofrepContext(test.context);
  if (kind === 'toggle') {
    return {
      title, environment,
      request: { flag: test.toggleName, type: 'boolean', default: DEFAULTS.boolean, context },
      check: (answer) => {
        const { value, errorCode } = answer as OfrepResult;
        const outcome = booleanOutcome(file, test.toggleName, test.expectedResult);
        if (outcome === 'FLAG_NOT_FOUND') {
          return errorCode === 'FLAG_NOT_FOUND' && value === DEFAULTS.boolean ? undefined : `${JSON.stringify(answer)}, expected FLAG_NOT_FOUND: the state has no ${test.toggleName}`;
        }
        if (tokenType === 'frontend' && !test.expectedResult) {
          return errorCode === 'FLAG_NOT_FOUND' && value === DEFAULTS.boolean ? undefined : `${JSON.stringify(answer)}, expected FLAG_NOT_FOUND with the default: the flag is off for the caller, which a frontend token does not see`;
        }
        if (outcome === 'TYPE_MISMATCH when on') {
          return errorCode === 'TYPE_MISMATCH' ? undefined : `${JSON.stringify(answer)}, expected TYPE_MISMATCH: the flag is on and its variant carries a payload`;
        }
        if (errorCode) return `error ${errorCode} (value ${JSON.stringify(value)}), the specification says ${test.expectedResult}`;
        return value === test.expectedResult ? undefined : `value ${JSON.stringify(value)}, the specification says ${test.expectedResult}`;
      },
    };
  }
  const payload = test.expectedResult.payload as SpecPayload;
  const type = OFREP_TYPES[payload.type] as OfrepType;
  return {
    title, environment,
    request: { flag: test.toggleName, type, default: defaultFor(type, payloadValue(payload)), context },
    check: (answer) => {
      const { value, variant, errorCode } = answer as OfrepResult;
      const want = { value: payloadValue(payload), variant: test.expectedResult.name, errorCode: null };
      const got = { value, variant, errorCode };
      return isDeepStrictEqual(got, want) ? undefined : `${JSON.stringify(got)}, the specification's variant says ${JSON.stringify(want)}`;
    },
  };
}

/**
 * Whether an OFREP answer says what an SDK answer of the same case says: a boolean request the
 * SDK's `isEnabled`, a typed request the SDK's variant (its name and its payload as typed).
 */
export function ofrepAgreesWithSdk(ofrep: OfrepResult, sdk: SdkResult): string | undefined {
  if ('enabled' in sdk) {
    // A flag the SDK does not know is off for it; OFREP says it is not found (the caller's default).
    if (ofrep.errorCode === 'FLAG_NOT_FOUND' && !sdk.enabled) return undefined;
    // An on flag whose variant carries a payload answers the payload, not a boolean (booleanOutcome).
    if (ofrep.errorCode === 'TYPE_MISMATCH' && sdk.enabled) return undefined;
    return ofrep.value === sdk.enabled && !ofrep.errorCode ? undefined : `OFREP ${JSON.stringify(ofrep.value)} (${ofrep.errorCode ?? ofrep.reason}), SDK enabled ${sdk.enabled}`;
  }
  const { variant } = sdk;
  const want = variant.payload ? { value: payloadValue(variant.payload), variant: variant.name } : { value: 'a payload', variant: variant.name };
  const got = { value: ofrep.value, variant: ofrep.variant };
  return isDeepStrictEqual(got, want) ? undefined : `OFREP ${JSON.stringify(got)} (${ofrep.errorCode ?? ofrep.reason}), SDK ${JSON.stringify(want)}`;
}

/**
 * The client's own listed difference for a case, if any: keyed by the case's title (the
 * description, `variant: ` before a variant case's), or `sdk: <title>` / `ofrep: <title>` for one kind.
 */
export function knownDifference(client: ClientUnderTest, kind: EvaluatorKind, file: string, title: string): string | undefined {
  const listed = client.knownDifferences?.[file];
  return listed?.[`${kind}: ${title}`] ?? listed?.[title];
}

/** Every key a client lists for `file` that names no case of it, so a stale entry is reported. */
export function unknownDifferenceKeys(client: ClientUnderTest, file: string, titles: string[]): string[] {
  const known = new Set(titles.flatMap((title) => [title, `sdk: ${title}`, `ofrep: ${title}`]));
  return Object.keys(client.knownDifferences?.[file] ?? {}).filter((key) => !known.has(key));
}

import type { Context } from 'unleash-client';
import type { FeatureInterface } from 'unleash-client/lib/feature.js';
import type { StrategyTransportInterface } from 'unleash-client/lib/strategy/strategy.js';
import type { FlagEvaluator } from '../frontend/evaluator.js';
import type { OfrepErrorCode } from './errors.js';

/** Why a flag answered what it did, in OpenFeature's words. */
export type OfrepReason = 'STATIC' | 'TARGETING_MATCH' | 'SPLIT' | 'DEFAULT' | 'DISABLED' | 'UNKNOWN';

/**
 * What a caller can use besides the value: whether impressions are on, and for a server-side
 * (client) token the flag's project, type and staleness too.
 */
export type OfrepMetadata = Record<string, string | boolean>;

export interface OfrepSuccess {
  key: string;
  value: boolean | string | number | object;
  reason: OfrepReason;
  /** Unleash's variant name, as its SDKs' getVariant answers it: `disabled` when off or without variants. */
  variant: string;
  metadata: OfrepMetadata;
}

export interface OfrepFailure {
  key: string;
  errorCode: OfrepErrorCode;
  errorDetails: string;
  metadata: OfrepMetadata;
}

export type OfrepEvaluation = OfrepSuccess | OfrepFailure;

/** What the counters need of one evaluation: on or off, and the variant the caller got. */
export interface EvaluationOutcome {
  evaluation: OfrepEvaluation;
  enabled: boolean;
  variant: string | undefined;
}

/** Strategy types whose whole point is who the caller is: on by them is a targeting match. */
const TARGETING_STRATEGIES = new Set(['userWithId', 'remoteAddress', 'applicationHostname']);

/** Percentage parameters of the rollout strategy types: below 100, some callers are left out. */
const ROLLOUT_PARAMETERS: Record<string, string> = {
  flexibleRollout: 'rollout',
  gradualRolloutUserId: 'percentage',
  gradualRolloutSessionId: 'percentage',
  gradualRolloutRandom: 'percentage',
};

/** The variant name Unleash's SDKs answer for a flag that is off, or on without variants. */
const NO_VARIANT = 'disabled';

/**
 * One flag of the token's scope for one context, as OFREP answers it (README, "OpenFeature
 * (OFREP)"): off in the environment is `false` with `DISABLED`; on in the environment but on for
 * no strategy (or a parent not as required) is `false` with `DEFAULT`; on is the variant's
 * payload, typed by its type (json → object, number → number, else text), or `true` when the
 * variant carries none or there is no variant, with the reason the deciding strategy gives.
 * `false` rather than no value for an off flag: the server providers that are published read a
 * success without a value as a malformed answer, and a boolean request then gets Unleash's answer.
 * Every success names a variant (Python's provider reads it from each one).
 */
export function evaluateFlag(feature: FeatureInterface, evaluator: FlagEvaluator, context: Context, audience: OfrepAudience = 'server'): EvaluationOutcome {
  const metadata = metadataOf(feature, audience);
  const key = feature.name;
  if (!feature.enabled) return off({ key, value: false, reason: 'DISABLED', variant: NO_VARIANT, metadata });
  const verdict = evaluator.variantOf(key, context);
  if (!verdict.feature_enabled) return off({ key, value: false, reason: 'DEFAULT', variant: NO_VARIANT, metadata });
  const variant = verdict.enabled ? verdict : undefined;
  const reason = reasonOf(feature, evaluator, context, variant?.name);
  const payload = variant?.payload;
  const outcome = { enabled: true, variant: variant?.name };
  if (!payload) return { ...outcome, evaluation: { key, value: true, reason, variant: variant?.name ?? NO_VARIANT, metadata } };
  const typed = typedPayload(payload);
  if ('error' in typed) {
    return { ...outcome, evaluation: { key, errorCode: 'PARSE_ERROR', errorDetails: typed.error, metadata } };
  }
  return {
    ...outcome,
    evaluation: { key, value: typed.value, reason, variant: variant!.name, metadata: { ...metadata, payloadType: payload.type } },
  };
}

function off(evaluation: OfrepSuccess): EvaluationOutcome {
  return { evaluation, enabled: false, variant: undefined };
}

/**
 * Who an answer is for: a frontend token ships in web pages, so its answers say no more of a flag
 * than the Frontend API does (impressionData); a client token's holder may read the whole payload.
 */
export type OfrepAudience = 'public' | 'server';

function metadataOf(feature: FeatureInterface, audience: OfrepAudience): OfrepMetadata {
  if (audience === 'public') return { impressionData: Boolean(feature.impressionData) };
  // Set one by one in the answer's key order: spreading optional parts made an object for each
  // (a third of a bulk evaluation's own time at 10,000 flags, besides the engine's).
  const metadata: OfrepMetadata = {};
  if (feature.project !== undefined) metadata.project = feature.project;
  if (feature.type !== undefined) metadata.featureType = feature.type;
  metadata.impressionData = Boolean(feature.impressionData);
  if (feature.stale) metadata.stale = true;
  return metadata;
}

/**
 * The variant's payload as the JSON type the OpenFeature caller asks for: OFREP carries no flag
 * type (the providers infer it from the value), so the payload's type decides it.
 */
function typedPayload(payload: { type: string; value: string }): { value: string | number | object } | { error: string } {
  if (payload.type === 'number') {
    const value = Number(payload.value);
    return payload.value.trim() !== '' && Number.isFinite(value) ? { value } : { error: `The variant's number payload "${payload.value}" is not a number.` };
  }
  if (payload.type === 'json') {
    try {
      return { value: JSON.parse(payload.value) as object };
    } catch {
      return { error: 'The variant\'s json payload is not valid JSON.' };
    }
  }
  return { value: payload.value };
}

/**
 * Why an enabled flag is on for this context, from the first strategy on for it (the one the
 * engine went by): its constraints or segments matched, or it is a strategy about who calls
 * (user ids, addresses, host names): `TARGETING_MATCH`; a percentage below 100, or a variant
 * drawn by weight among several: `SPLIT`; on for everyone, no strategy at all included:
 * `STATIC`. A strategy type the engine does not know (a custom one) is never on: `UNKNOWN`.
 */
function reasonOf(feature: FeatureInterface, evaluator: FlagEvaluator, context: Context, variant: string | undefined): OfrepReason {
  const strategies = feature.strategies ?? [];
  const deciding = strategies.length === 0 ? undefined : strategies.find((strategy) => evaluator.strategyEnabled(strategy, context));
  if (strategies.length > 0 && deciding === undefined) return 'UNKNOWN';
  if (deciding && (deciding.constraints?.length > 0 || (deciding.segments?.length ?? 0) > 0 || TARGETING_STRATEGIES.has(deciding.name))) {
    return 'TARGETING_MATCH';
  }
  if ((deciding && isPartialRollout(deciding)) || (variant !== undefined && drawnAmongSeveral(deciding, feature))) return 'SPLIT';
  return 'STATIC';
}

function isPartialRollout(strategy: StrategyTransportInterface): boolean {
  const parameter = ROLLOUT_PARAMETERS[strategy.name];
  if (parameter === undefined) return false;
  const percentage = Number(strategy.parameters?.[parameter] ?? 100);
  return Number.isFinite(percentage) && percentage < 100;
}

/** The variants the engine drew from (the strategy's, else the flag's) hold more than one with a weight. */
function drawnAmongSeveral(strategy: StrategyTransportInterface | undefined, feature: FeatureInterface): boolean {
  const variants = strategy?.variants?.length ? strategy.variants : (feature.variants ?? []);
  return variants.filter((variant) => variant.weight > 0).length > 1;
}

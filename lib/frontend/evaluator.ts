import clientModule from 'unleash-client/lib/client.js';
import type { FeatureInterface } from 'unleash-client/lib/feature.js';
import type { RepositoryInterface } from 'unleash-client/lib/repository/index.js';
import { defaultStrategies } from 'unleash-client/lib/strategy/index.js';
import type { Segment, StrategyTransportInterface } from 'unleash-client/lib/strategy/strategy.js';
import type { Variant, VariantWithFeatureStatus } from 'unleash-client/lib/variant.js';
import type { Context } from 'unleash-client';
import { log } from '../log.js';

/** One toggle of a Frontend API answer: only enabled toggles are listed, as in Unleash. */
export interface FrontendToggle {
  name: string;
  enabled: true;
  variant: {
    name: string;
    enabled: boolean;
    payload?: { type: string; value: string };
    feature_enabled: boolean;
    featureEnabled: boolean;
  };
  impressionData: boolean;
}

/** One flag's verdict for a context, on or off (the admin playground). */
export interface FlagVerdict {
  enabled: boolean;
  variant: { name: string; enabled: boolean; payload?: { type: string; value: string }; feature_enabled: boolean };
  /** A parent it depends on is not in the state it asks for (or not known). */
  hasUnsatisfiedDependency: boolean;
}

/** The engine's verdict on one strategy alone, with each of its constraints and segments. */
export interface StrategyVerdict {
  enabled: boolean;
  variant?: Variant;
  constraints: boolean[];
  /** Per segment id: each constraint; a segment the payload does not hold is `undefined` (the strategy is off). */
  segments: Array<boolean[] | undefined>;
}

/** What the evaluator is built from: the SDK payload of the caller's scope (`/api/client/features`). */
export interface EvaluatedPayload {
  features: FeatureInterface[];
  segments?: Segment[];
}

/** One payload as evaluated: its engine, and its features in order and by name. */
export interface PayloadEvaluation {
  evaluator: FlagEvaluator;
  features: FeatureInterface[];
  byName: ReadonlyMap<string, FeatureInterface>;
}

const evaluations = new WeakMap<object, PayloadEvaluation>();

/**
 * The evaluation of one served payload (the SDK path's cached answer for a revision and scope),
 * parsed and built once per process whoever asks: the Frontend API and OFREP, served by the same
 * function, share it rather than each parsing the payload and building an engine of its own.
 * Kept as long as the payload object is.
 */
export function evaluationOf(payload: { readonly json: string }): PayloadEvaluation {
  let evaluation = evaluations.get(payload);
  if (!evaluation) {
    const parsed = JSON.parse(payload.json) as EvaluatedPayload;
    const evaluator = new FlagEvaluator(parsed, payload.json);
    // The engine's own index of the features serves OFREP's look-ups too (50,000 entries at 50,000 flags).
    evaluation = { evaluator, features: parsed.features, byName: evaluator.byName };
    evaluations.set(payload, evaluation);
  }
  return evaluation;
}

/**
 * The class is the CommonJS module's `default`: Node's import hands over the whole module, a
 * bundler or vitest's may hand over the default already.
 */
type UnleashClientClass = typeof clientModule.default;
const UnleashClient: UnleashClientClass =
  typeof clientModule === 'function' ? (clientModule as unknown as UnleashClientClass) : clientModule.default;

/**
 * Evaluates every flag of one payload for a context with the official Node SDK's own evaluation
 * engine (unleash-client's `UnleashClient`: strategies, constraints, segments, variants, parent
 * dependencies), so the Frontend API answers exactly what a server-side SDK holding the same
 * payload evaluates. The engine only looks features and segments up through the two functions
 * given here: it makes no request, starts no timer and needs no start-up. Deep imports: the
 * package's entry would load its fetchers and metrics too (~3× the bundle and the cold import).
 */
export class FlagEvaluator {
  private readonly client: InstanceType<typeof UnleashClient>;
  private readonly features: FeatureInterface[];
  /** The payload's features by name, as the engine looks them up (read only). */
  readonly byName: ReadonlyMap<string, FeatureInterface>;
  private readonly lookup: Pick<RepositoryInterface, 'getToggle' | 'getSegment'>;

  /** `text`: the payload's JSON text, when at hand: `deterministic` is then read from it, which is quicker than walking every object. */
  constructor(
    private readonly payload: EvaluatedPayload,
    private readonly text?: string,
  ) {
    this.features = payload.features;
    const toggles = new Map(payload.features.map((feature) => [feature.name, feature]));
    this.byName = toggles;
    const segments = new Map((payload.segments ?? []).map((segment) => [segment.id, segment]));
    this.lookup = {
      getToggle: (name) => toggles.get(name),
      getSegment: (id) => segments.get(id),
    };
    this.client = new UnleashClient(this.lookup as RepositoryInterface, defaultStrategies);
    // The engine reports a malformed feature as an 'error' event; unheard, Node would throw it.
    this.client.on('error', (error: unknown) => log.warn('Frontend API: a feature could not be evaluated', { error: String(error) }));
  }

  /**
   * Whether the answer depends on nothing but the payload and the context, so that the same
   * context may be answered again from memory: the engine draws a random number for
   * gradualRolloutRandom, for a stickiness other than `default` (`random`, or a field the context
   * lacks), and reads the clock for date constraints. (With `default` stickiness it falls back to
   * the sessionId: the service caches only for callers that send one.) Decided once per payload,
   * conservatively, when first asked: the playground, which never asks, pays nothing for it.
   */
  get deterministic(): boolean {
    this.contextOnly ??= this.text === undefined ? dependsOnlyOnContext(this.payload) : textDependsOnlyOnContext(this.text);
    return this.contextOnly;
  }
  private contextOnly: boolean | undefined;

  /** The enabled toggles for this context, in the payload's order (by name), each with its variant. */
  enabledToggles(context: Context): FrontendToggle[] {
    const toggles: FrontendToggle[] = [];
    for (const feature of this.features) {
      // Off in the environment is off whatever the context (the engine answers `disabled` too).
      if (!feature.enabled) continue;
      // One call answers both: whether the flag is on (feature_enabled) and which variant. The
      // `force` form is getVariant without its impression event, which nobody here listens to
      // (the answer's impressionData tells the browser SDK to emit its own).
      const variant = this.client.forceGetVariant(feature.name, context);
      if (!variant.feature_enabled) continue;
      toggles.push({
        name: feature.name,
        enabled: true,
        variant: {
          name: variant.name,
          enabled: variant.enabled,
          ...(variant.payload ? { payload: { type: variant.payload.type, value: variant.payload.value } } : {}),
          feature_enabled: true,
          featureEnabled: true,
        },
        impressionData: Boolean(feature.impressionData),
      });
    }
    return toggles;
  }

  /** One flag of the payload for this context, whatever its answer: the same engine call as `enabledToggles`. */
  verdict(name: string, context: Context): FlagVerdict {
    const feature = this.lookup.getToggle(name);
    const variant = this.client.forceGetVariant(name, context);
    return {
      enabled: variant.feature_enabled ?? false,
      variant: {
        name: variant.name,
        enabled: variant.enabled,
        ...(variant.payload ? { payload: { type: variant.payload.type, value: variant.payload.value } } : {}),
        feature_enabled: variant.feature_enabled ?? false,
      },
      hasUnsatisfiedDependency: feature === undefined || !this.client.isParentDependencySatisfied(feature, context),
    };
  }

  /**
   * The engine's variant of one flag of the payload for this context, `feature_enabled` saying
   * whether the flag is on: the call `verdict` makes, without copying its answer or checking the
   * flag's parents a second time (OFREP asks this of every flag of the payload per request).
   */
  variantOf(name: string, context: Context): VariantWithFeatureStatus {
    return this.client.forceGetVariant(name, context);
  }

  /**
   * Whether one strategy alone is on for this context, as `strategyVerdict` says `enabled`, without
   * choosing its variant or checking each constraint again to explain it; `undefined` for a
   * strategy type the engine does not implement.
   */
  strategyEnabled(strategy: StrategyTransportInterface, context: Context): boolean | undefined {
    const implementation = defaultStrategies.find((known) => known.name === strategy.name);
    // getResult's `enabled` is this call's answer; the variant it then draws is not needed here.
    return implementation?.isEnabledWithConstraints(strategy.parameters, context, this.client.yieldConstraintsFor(strategy));
  }

  /**
   * One strategy checked alone by the engine's own implementation of its type, as the engine
   * checks it inside a flag (its constraints, then its segments' constraints, then its
   * parameters), and each constraint on its own, to explain a verdict. `undefined` for a
   * strategy type the engine does not implement: a custom strategy, which it evaluates as off.
   */
  strategyVerdict(strategy: StrategyTransportInterface, context: Context): StrategyVerdict | undefined {
    const implementation = defaultStrategies.find((known) => known.name === strategy.name);
    if (!implementation) return undefined;
    const result = implementation.getResult(strategy.parameters, context, this.client.yieldConstraintsFor(strategy), strategy.variants);
    return {
      enabled: result.enabled,
      ...(result.enabled && result.variant ? { variant: result.variant } : {}),
      constraints: (strategy.constraints ?? []).map((constraint) => implementation.checkConstraint(constraint, context)),
      segments: (strategy.segments ?? []).map((id) =>
        this.lookup.getSegment(id)?.constraints.map((constraint) => implementation.checkConstraint(constraint, context))),
    };
  }
}

/** Strategies and constraint operators whose result is not a function of the context alone. */
const RANDOM_STRATEGY = 'gradualRolloutRandom';
const CLOCK_OPERATORS = new Set(['DATE_AFTER', 'DATE_BEFORE']);

/** The payload holds no random strategy, no stickiness but `default`, no date constraint (segments included). */
function dependsOnlyOnContext(payload: EvaluatedPayload): boolean {
  const pending: unknown[] = [payload];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...(value as unknown[]));
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        // An empty stickiness is a field named '' to the variant selection, which it never finds.
        if (key === 'stickiness' && inner !== undefined && inner !== null && inner !== 'default') return false;
        if (key === 'operator' && CLOCK_OPERATORS.has(String(inner))) return false;
        if (key === 'name' && inner === RANDOM_STRATEGY) return false;
        // Both are strings in every payload the service writes; an object or a list there is one
        // the engine was never shown, and the text scan could not tell what `String` makes of it.
        if ((key === 'operator' || key === 'name') && inner !== null && typeof inner === 'object') return false;
        if (typeof inner === 'object') pending.push(inner);
      }
    }
  }
  return true;
}

/**
 * `dependsOnlyOnContext` read from the payload's JSON text (as JSON.stringify writes it): a
 * quote inside a string is escaped, so `"stickiness":` and the like only ever match keys, at any
 * depth, as the walk visits them. The same verdict without building a list of every object.
 */
export function textDependsOnlyOnContext(text: string): boolean {
  return !DEPENDS_ON_MORE.test(text);
}
/**
 * A key the verdict looks at, with a value that decides: JSON.stringify writes every key right
 * after `{` or `,`, and a quote after either inside a string is escaped, so a key's quote is
 * never taken for one that ends a string. `"default"` right after the colon is that whole string
 * (its closing quote is not escaped), and `{` there also opens the object's own first key, which
 * the search still visits (`{"operator":{"stickiness":"random"}}`): each occurrence of a key is
 * looked at, as a walk of the objects looks at each. Nothing after the colon, or a line break, is
 * no value a payload holds and decides nothing. One pattern that matches only the deciding values
 * is about twice as quick as visiting every `name` key (30 ms against 62 on 50 MB, 50,000 flags).
 */
const DEPENDS_ON_MORE =
  /[{,]"(?:stickiness":(?!"default"|null|[\n\r\u2028\u2029]|$)|operator":(?:"DATE_AFTER"|"DATE_BEFORE"|[{[])|name":(?:"gradualRolloutRandom"|[{[]))/;

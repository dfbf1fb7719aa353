import type { Environment } from '../environments/model.js';
import type { LifecycleStage } from './rules/lifecycle.js';
/**
 * The feature aggregate: a feature's metadata, its state in each environment (enabled,
 * strategies, variants), its tags and its parent dependency are read and written together,
 * guarded by `version` (DESIGN §2).
 */

export const CONSTRAINT_OPERATORS = [
  'NOT_IN', 'IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS',
  'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE',
  'DATE_AFTER', 'DATE_BEFORE', 'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT',
] as const;
export type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];

export interface Constraint {
  contextName: string;
  operator: ConstraintOperator;
  /** Always present (possibly empty): old SDKs read it even for single-value operators. */
  values: string[];
  value?: string;
  caseInsensitive: boolean;
  inverted: boolean;
}

export type WeightType = 'variable' | 'fix';

export interface VariantPayload {
  type: 'json' | 'csv' | 'string' | 'number';
  value: string;
}

export interface StrategyVariant {
  name: string;
  weight: number;
  weightType: WeightType;
  stickiness: string;
  payload?: VariantPayload;
}

export interface VariantOverride {
  contextName: string;
  values: string[];
}

/** A feature-level (per-environment) variant. */
export interface Variant {
  name: string;
  weight: number;
  weightType: WeightType;
  stickiness: string;
  payload?: VariantPayload;
  overrides: VariantOverride[];
}

/** An activation strategy instance on one feature in one environment. */
export interface FeatureStrategy {
  id: string;
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  constraints: Constraint[];
  parameters: Record<string, string>;
  variants: StrategyVariant[];
  segments: number[];
}

export interface FeatureEnvironment {
  enabled: boolean;
  strategies: FeatureStrategy[];
  variants: Variant[];
}

export interface Tag {
  type: string;
  value: string;
}

/** The parent this feature depends on (at most one, as in Unleash). */
export interface Dependency {
  feature: string;
  enabled: boolean;
  variants: string[];
}

/** Who created a flag, as Unleash shows `createdBy`: the person (or Unleash's admin-token user), named as at creation. */
export interface FeatureCreator {
  id: number;
  name: string;
  imageUrl: string;
}

export interface Feature {
  name: string;
  project: string;
  type: string;
  description: string | null;
  impressionData: boolean;
  stale: boolean;
  archived: boolean;
  archivedAt: string | null;
  createdAt: string;
  /** Absent on flags created before creators were recorded: Unleash's "unknown". */
  createdBy?: FeatureCreator | undefined;
  /**
   * State per environment name. An environment of the project that has no entry is off, with
   * no strategies and no variants.
   */
  environments: Record<string, FeatureEnvironment>;
  tags: Tag[];
  dependencies: Dependency[];
  /** Names of features that depend on this one, kept in the same transaction as theirs. */
  children: string[];
  /** The lifecycle stages entered, oldest first (rules/lifecycle.ts); absent on flags stored before stages were recorded. */
  lifecycle?: LifecycleStage[] | undefined;
  /** Links to issues, code or dashboards (Unleash 7's flag links), at most MAX_FEATURE_LINKS. */
  links?: FeatureLink[] | undefined;
  /** Optimistic-concurrency version: every write is conditional on the version it read. */
  version: number;
}

/** Unleash's bound on the links of one flag. */
export const MAX_FEATURE_LINKS = 10;

export interface FeatureLink {
  id: string;
  /** Normalised: a scheme is added when missing. */
  url: string;
  title: string | null;
}

export function environmentOf(feature: Feature, environment: string): FeatureEnvironment {
  // Own properties only: `?environment=toString` must find nothing, not Object.prototype's method.
  return (Object.hasOwn(feature.environments, environment) ? feature.environments[environment] : undefined) ?? {
    enabled: false,
    strategies: [],
    variants: [],
  };
}

/**
 * The feature types Unleash knows (reference §6.1) and how long a feature of each is expected to
 * live before it counts as potentially stale; `null` means it is meant to stay. A feature's
 * `type` is an open set, as in Unleash: a type not listed here is accepted and never ages.
 */
export const FEATURE_TYPES = [
  { id: 'release', name: 'Release', description: 'Ships a new feature gradually, then goes away', lifetimeDays: 40 },
  { id: 'experiment', name: 'Experiment', description: 'Compares variants of a feature while an experiment runs', lifetimeDays: 40 },
  { id: 'operational', name: 'Operational', description: 'Controls how a change is rolled out and operated', lifetimeDays: 7 },
  { id: 'kill-switch', name: 'Kill switch', description: 'Turns a critical function off quickly when it misbehaves', lifetimeDays: null },
  { id: 'permission', name: 'Permission', description: 'Grants a function to some users only', lifetimeDays: null },
] as const satisfies ReadonlyArray<{ id: string; name: string; description: string; lifetimeDays: number | null }>;

/**
 * The expected lifetimes an admin set (PUT /api/admin/feature-types/{type}/lifetime), by type id;
 * a type not named keeps its default above. Null or 0 means a feature of that type never ages.
 */
export type FeatureTypeLifetimes = Readonly<Record<string, number | null>>;

/** Days a feature of this type is expected to live; null for a permanent or unknown type. */
export function expectedLifetimeDays(type: string, lifetimes: FeatureTypeLifetimes = {}): number | null {
  if (Object.hasOwn(lifetimes, type)) return lifetimes[type] ?? null;
  return FEATURE_TYPES.find((known) => known.id === type)?.lifetimeDays ?? null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Not stale, not archived, and older than its type's expected lifetime. */
export function isPotentiallyStale(feature: Feature, now: Date, lifetimes: FeatureTypeLifetimes = {}): boolean {
  const lifetime = expectedLifetimeDays(feature.type, lifetimes);
  if (!lifetime || feature.stale || feature.archived) return false;
  return now.getTime() > Date.parse(feature.createdAt) + lifetime * DAY_MS;
}

/** Strategy type names that any strategy of the feature uses, in any environment. */
export function strategyTypeNamesOf(feature: Feature | undefined): Set<string> {
  const names = new Set<string>();
  if (!feature) return names;
  for (const environment of Object.values(feature.environments)) {
    for (const strategy of environment.strategies) names.add(strategy.name);
  }
  return names;
}

/** Segment ids that any strategy of the feature refers to. */
export function segmentIdsOf(feature: Feature | undefined): Set<number> {
  const ids = new Set<number>();
  if (!feature) return ids;
  for (const environment of Object.values(feature.environments)) {
    for (const strategy of environment.strategies) for (const id of strategy.segments) ids.add(id);
  }
  return ids;
}

/** Where one strategy sits: how the admin UI lists the strategies that use a segment or a context field. */
export interface StrategyUsage {
  id: string;
  projectId: string;
  featureName: string;
  strategyName: string;
  environment: string;
}

/**
 * The strategies `matches` picks, of features that are not archived (Unleash leaves an archived
 * feature's strategies out of these lists). Scans features already in memory, never the table.
 */
export function strategiesWhere(features: readonly Feature[], matches: (strategy: FeatureStrategy) => boolean): StrategyUsage[] {
  const found: StrategyUsage[] = [];
  for (const feature of features) {
    if (feature.archived) continue;
    for (const [environment, state] of Object.entries(feature.environments)) {
      for (const strategy of state.strategies) {
        if (matches(strategy)) {
          found.push({ id: strategy.id, projectId: feature.project, featureName: feature.name, strategyName: strategy.name, environment });
        }
      }
    }
  }
  return found;
}

/** What a feature's admin view needs besides the aggregate: its project's environments and when SDKs last saw it. */
export interface FeatureViewContext {
  environments: Environment[];
  lastSeen: Record<string, string>;
}

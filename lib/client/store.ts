import type { LastSeenReader } from '../features/ports.js';

/** Yes/no evaluation counts of one feature in one environment during one hour. */
export interface HourlyCount {
  /** `yyyy-mm-ddThh` (UTC). */
  hour: string;
  feature: string;
  environment: string;
  yes: number;
  no: number;
  /** The applications that reported counts in this hour (insights count them). */
  apps?: string[] | undefined;
  /** Evaluations per variant name. */
  variants?: Record<string, number> | undefined;
}

export interface SeenFeature {
  feature: string;
  environment: string;
  /** When it was reported (ISO). */
  at: string;
}

/** What a batch of writes left undone: the items not started in time or failed, and the first failure. */
export interface WritesLeft<T> {
  left: T[];
  failure?: unknown;
}

/**
 * The SDK usage port: counters and last-seen times. None of these writes moves the revision,
 * so metrics never invalidate the SDK payload or its ETag.
 */
export interface MetricsStore extends LastSeenReader {
  /**
   * Adds to the stored counters (atomic increments, so concurrent writers add up) and sets their
   * expiry (ADR 15). A write is started only while `startWhile` says so; the answer is what was
   * not written (never started, or failed).
   */
  addHourlyCounts(counts: HourlyCount[], startWhile?: () => boolean): Promise<WritesLeft<HourlyCount>>;
  /**
   * Sets the last-seen time only where the stored one is older than `intervalMs` before it, so
   * the item changes at most once per interval and never moves backwards; `startWhile` as above.
   */
  markSeen(seen: SeenFeature[], options?: { startWhile?: () => boolean; intervalMs?: number }): Promise<WritesLeft<SeenFeature>>;
  /** Every counter of one UTC day (`yyyy-mm-dd`) that has not expired. */
  hourlyCounts(day: string): Promise<HourlyCount[]>;
  /** One feature's counters of these hours (`yyyy-mm-ddThh`) that have not expired: one small Query a day. */
  hourlyCountsOf(feature: string, hours: readonly string[]): Promise<HourlyCount[]>;
}

/**
 * An application that registered through an SDK: one entry per appName and token scope
 * (environment and projects); the latest instance in that scope wins.
 */
export interface ClientApplication {
  appName: string;
  instanceId: string | null;
  sdkVersion: string | null;
  strategies: string[];
  environment: string;
  /** The registering token's projects, sorted; `['*']` for every project. */
  projects: string[];
  /** When the SDK says it started, as it sent it. */
  started: string | null;
  /** The metrics interval in ms. */
  interval: number | null;
  lastSeen: string;
  /**
   * When it lapses unless registered again (epoch seconds; the table's TTL). Registrations
   * stored before registrations expired have none and lapse `expiryDays` after `lastSeen`.
   */
  expiresAt?: number | undefined;
}

export type ClientApplicationScope = Pick<ClientApplication, 'environment' | 'projects'>;

/** The bounds a registration is stored within (lib/limits.ts's APPLICATION_REGISTRATIONS by default). */
export interface RegistrationBounds {
  /** At most this many live applications per token scope; a new name past it is not stored. */
  perScope: number;
  now: Date;
}

export interface ClientApplicationStore {
  /**
   * Replaces the registration of the same appName and scope only. A name the scope does not
   * hold yet is stored only while the scope holds fewer than `perScope` live ones: answers
   * whether it was stored. A few DynamoDB requests whatever the scope holds.
   */
  register(application: ClientApplication & { expiresAt: number }, bounds: RegistrationBounds): Promise<boolean>;
  /** `scope` defaults to every project of the default SDK environment (a `*` token's record); lapsed ones are not found. */
  get(appName: string, scope?: ClientApplicationScope, now?: Date): Promise<ClientApplication | undefined>;
}

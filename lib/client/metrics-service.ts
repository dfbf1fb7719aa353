import { DomainError, ServiceUnavailable } from '../errors.js';
import { APPLICATION_REGISTRATIONS } from '../limits.js';
import { log } from '../log.js';
import { DEFAULT_SDK_ENVIRONMENT } from '../projects/defaults.js';
import { ALL, type Caller } from '../tokens/model.js';
import type { ClientFeatureService } from './features-service.js';
import type { MetricsEntry, UnknownFlagReport } from './metrics-aggregation.js';
import { LAST_SEEN_INTERVAL_MS, sendEntries, type MetricsQueue } from './metrics-stages.js';
import type { ClientApplicationStore } from './store.js';

/** POST /api/client/register as far as it could be read; every field may be missing. */
export interface RegistrationReport {
  appName?: string | undefined;
  instanceId?: string | undefined;
  sdkVersion?: string | undefined;
  environment?: string | undefined;
  strategies?: string[] | undefined;
  started?: string | number | undefined;
  interval?: number | undefined;
}

export interface ToggleCount {
  yes: number;
  no: number;
  /** Evaluations per variant name, as the SDK sent it (read leniently). */
  variants?: unknown;
}

/** POST /api/client/metrics as far as it could be read. */
export interface MetricsReport {
  appName?: string | undefined;
  environment?: string | undefined;
  bucket?: { start?: string | number | undefined; toggles: Record<string, ToggleCount> } | undefined;
  /** Sent by today's SDKs; not kept (dropImpactMetrics). */
  impactMetrics?: unknown;
}

/** One feature's counts with the application, environment and time they belong to. */
export interface CountReport extends ToggleCount {
  feature: string;
  appName?: string | undefined;
  environment?: string | undefined;
  /** When the counting started (the bucket's start); its UTC hour is the one counted. */
  at?: string | number | undefined;
}

/**
 * What SDKs report about themselves. Both reports are accepted whatever they hold (the Node
 * SDK stops reporting for good after a 400), so the unusable parts are dropped with a warning
 * instead of refused; only a report above SDK_REPORT_LIMITS is refused, by its schema. Nothing
 * here moves the SDK revision.
 */
export class ClientMetricsService {
  /** When this process last queued each unknown (name, appName, environment), so a repeating SDK queues it once per interval. */
  private readonly unknownQueuedAt = new Map<string, number>();

  constructor(
    /** Where reports wait to be summed (ADR 15). */
    private readonly queue: MetricsQueue,
    private readonly applications: ClientApplicationStore,
    /** Decides which features a token may report on, from the SDK path's shared snapshot. */
    private readonly features: Pick<ClientFeatureService, 'servedNames'>,
    private readonly now: () => Date = () => new Date(),
    /** How many applications a token scope keeps (a test gives a small number). */
    private readonly registrations: { perScope: number } = APPLICATION_REGISTRATIONS,
  ) {}

  /**
   * One record per application and token scope (environment and projects). The reference
   * does not say how Unleash keeps a project-scoped token from rewriting an application another
   * project registered; here a registration replaces only the one made under the same scope,
   * so a token of another project adds its own record instead of clobbering the first.
   *
   * Whoever holds a frontend token (it ships in web pages) chooses the appName, so a scope keeps
   * at most APPLICATION_REGISTRATIONS.perScope live applications and each lapses when not
   * registered again for APPLICATION_REGISTRATIONS.expiryDays. A new name past the cap is
   * not stored and only logged: the SDK is answered as always (the Node SDK only warns on a
   * failed register, and a refusal would tell the sender nothing it could act on).
   */
  async register(caller: Caller, report: RegistrationReport): Promise<void> {
    if (!report.appName) return warn('register without a usable appName; nothing stored');
    const now = this.now();
    const stored = await this.applications.register({
      appName: report.appName,
      instanceId: report.instanceId ?? null,
      sdkVersion: report.sdkVersion ?? null,
      strategies: report.strategies ?? [],
      environment: reportingEnvironment(caller, report.environment),
      projects: reportingProjects(caller),
      started: report.started === undefined ? null : String(report.started),
      interval: report.interval ?? null,
      lastSeen: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + APPLICATION_REGISTRATIONS.expiryDays * 24 * 60 * 60,
    }, { perScope: this.registrations.perScope, now });
    if (!stored) {
      log.warn('register of a new application past the token scope’s cap; nothing stored', {
        appName: report.appName, perScope: this.registrations.perScope,
      });
    }
  }

  /**
   * Queues the report's counts for the metrics stages (ADR 15), for the features the token is
   * served only: other projects' features, archived ones and names of no feature are ignored
   * (counted in the log). Nothing is written to the table here: the stages sum every
   * instance's reports first, so DynamoDB writes do not grow with the number of instances.
   * A queue that refuses is a 503: the SDK keeps its bucket and sends it again, and nothing was
   * queued (a report split into several messages may have queued its first ones).
   */
  async recordMetrics(caller: Caller, report: MetricsReport): Promise<void> {
    const impact = dropImpactMetrics(report.impactMetrics, report.appName);
    // Today's SDKs send `bucket: null` (or none) when a report carries impact metrics only.
    if (!report.bucket) return impact ? undefined : warn('metrics without a usable bucket; nothing stored', report.appName);
    const environment = reportingEnvironment(caller, report.environment);
    const { start, toggles } = report.bucket;
    await this.recordCounts(caller, [environment], Object.entries(toggles).map(([feature, count]) => ({
      feature, appName: report.appName, environment, at: start, yes: count.yes, no: count.no, variants: count.variants,
    })));
  }

  /**
   * Counts as a bulk report lists them (Unleash Edge's `metrics`): each names its own
   * environment, application and time. As Unleash does, an SDK token's report keeps only the
   * counts of the token's own environment (an Edge sends each environment with a token of it),
   * and the rest are dropped, counted in the log; an admin token's keeps each environment.
   * Then the same rule as a single report's: only features the token is served.
   */
  async recordBulkCounts(caller: Caller, counts: readonly CountReport[]): Promise<void> {
    const kept = counts.filter((count): count is CountReport & { environment: string } => caller.type === 'admin'
      ? count.environment !== undefined && isStorableName(count.environment)
      : count.environment === caller.environment);
    if (kept.length < counts.length) {
      log.info('bulk metrics of another environment than the token’s ignored', { environment: caller.environment, recorded: kept.length, ignored: counts.length - kept.length });
    }
    await this.recordCounts(caller, [...new Set(kept.map((count) => count.environment))], kept);
  }

  /**
   * The counts of features the token is served in each of `environments` (the counts'), queued
   * for the stages. The served names are asked for even when there are no counts: an SDK's
   * first, empty report warms the snapshot its later ones are checked against.
   */
  private async recordCounts(caller: Caller, environments: readonly string[], counts: ReadonlyArray<CountReport & { environment: string }>): Promise<void> {
    const now = this.now();
    const served = new Map<string, Set<string>>();
    for (const environment of environments) {
      const names = counts.filter((count) => count.environment === environment).map((count) => count.feature);
      served.set(environment, await this.features.servedNames(caller, { environment }, names));
    }
    const recorded = counts.filter((count) => served.get(count.environment)?.has(count.feature));
    if (recorded.length < counts.length) {
      const appNames = [...new Set(counts.map((count) => count.appName).filter((name) => name !== undefined))];
      log.info('metrics for names that are no feature of the token’s scope ignored', {
        ...(appNames.length === 1 ? { appName: appNames[0] } : {}), environments: [...served.keys()], recorded: recorded.length, ignored: counts.length - recorded.length,
      });
    }
    const seenAt = now.toISOString();
    const unknown = this.unknownToQueue(counts.filter((count) => !served.get(count.environment)?.has(count.feature)), seenAt, now.getTime());
    if (recorded.length === 0 && unknown.length === 0) return;
    const entries: MetricsEntry[] = recorded.map((count) => ({
      hour: hourOf(count.at, now), environment: count.environment, feature: count.feature, yes: count.yes, no: count.no,
      variants: variantCounts(count.variants), apps: count.appName ? [count.appName] : [], seenAt,
    }));
    try {
      await sendEntries(this.queue, entries, unknown);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      log.error('metrics queue refused a report', { error: String(error) });
      throw new ServiceUnavailable('Metrics could not be queued; send them again.');
    }
    for (const report of unknown) this.unknownQueuedAt.set(unknownKey(report), now.getTime());
  }

  /**
   * The names not served that go on to the store stage, which keeps those that are no flag at
   * all (Unleash's unknown flags; other projects' and archived flags are left out there). As
   * Unleash does, only names evaluated at least once, from a named application; each (name,
   * appName, environment) at most once per LAST_SEEN_INTERVAL_MS from this process, so an SDK
   * reporting the same typo every minute adds nothing to its reports' queue messages.
   */
  private unknownToQueue(unserved: ReadonlyArray<CountReport & { environment: string }>, seenAt: string, nowMs: number): UnknownFlagReport[] {
    if (this.unknownQueuedAt.size > MAX_REMEMBERED_UNKNOWN) this.unknownQueuedAt.clear();
    const reports = new Map<string, UnknownFlagReport>();
    for (const count of unserved) {
      if (!count.appName || count.yes + count.no <= 0 || !isRecordableUnknownName(count.feature) || count.appName.length > MAX_UNKNOWN_NAME_LENGTH) continue;
      const report = { name: count.feature, appName: count.appName, environment: count.environment, seenAt };
      const key = unknownKey(report);
      if (nowMs - (this.unknownQueuedAt.get(key) ?? -Infinity) < LAST_SEEN_INTERVAL_MS) continue;
      reports.set(key, report);
    }
    return [...reports.values()];
  }
}

/** Unleash keeps unknown names of up to 255 characters (its column's size); an application name is held to the same. */
export const MAX_UNKNOWN_NAME_LENGTH = 255;

/** How many unknown reports a process remembers having queued before it forgets them all (and queues each once more). */
const MAX_REMEMBERED_UNKNOWN = 10_000;

/** Unknown names may be what no flag can be called (Unleash lists those too), within a key's size. */
function isRecordableUnknownName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_UNKNOWN_NAME_LENGTH;
}

const unknownKey = (report: UnknownFlagReport) => JSON.stringify([report.name, report.appName, report.environment]);

/**
 * Impact metrics (application-level counters, gauges and histograms that today's SDKs and Edge
 * send beside the toggle counts) are not kept: Unleash shows them only in its commercial
 * editions. One log line per report says how many were dropped; answers whether there were any.
 */
export function dropImpactMetrics(impactMetrics: unknown, appName?: string): boolean {
  if (!Array.isArray(impactMetrics) || impactMetrics.length === 0) return false;
  log.info('impact metrics are not kept; dropped', { ...(appName ? { appName } : {}), metrics: impactMetrics.length });
  return true;
}

/** At most this many variants per toggle are counted (a feature has far fewer). */
export const MAX_VARIANTS_PER_TOGGLE = 100;

/**
 * A toggle's variant counts as the SDKs send them (`variants: {name: count}`), kept where the
 * name is 1–100 characters and the count a whole number; the rest is dropped, as every unusable
 * part of a report is.
 */
export function variantCounts(raw: unknown): Record<string, number> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const counts = Object.entries(raw as Record<string, unknown>)
    .filter((entry): entry is [string, number] => Number.isSafeInteger(entry[1]) && (entry[1] as number) > 0 && entry[0].length > 0 && entry[0].length <= 100)
    .slice(0, MAX_VARIANTS_PER_TOGGLE);
  return Object.fromEntries(counts);
}

/**
 * SDK tokens report for their own environment whatever the body says; an admin token names it
 * in the body (Unleash 7's default otherwise).
 */
export function reportingEnvironment(caller: Caller, bodyEnvironment: string | undefined): string {
  if (caller.type !== 'admin') return caller.environment;
  return bodyEnvironment && isStorableName(bodyEnvironment) ? bodyEnvironment : DEFAULT_SDK_ENVIRONMENT;
}

/** The projects a report speaks for: the token's, sorted; every project (`*`) for admin tokens. */
export function reportingProjects(caller: Caller): string[] {
  return caller.type === 'admin' || caller.projects.includes(ALL) ? [ALL] : [...new Set(caller.projects)].sort();
}

/**
 * The UTC hour a bucket belongs to (`yyyy-mm-ddThh`), by its start as Unleash does. A start
 * that is unreadable or ahead of the server's clock counts in the current hour.
 */
export function hourOf(start: string | number | undefined, now: Date): string {
  const parsed = start === undefined ? Number.NaN : new Date(start).getTime();
  const at = Number.isFinite(parsed) && parsed <= now.getTime() ? new Date(parsed) : now;
  return at.toISOString().slice(0, 13);
}

/**
 * Names become parts of table keys, so only the URL-friendly names features and environments
 * can have are stored; anything else could not match a feature anyway.
 */
export function isStorableName(name: string): boolean {
  return name.length > 0 && name.length <= 100 && encodeURIComponent(name) === name;
}

function warn(message: string, appName?: string): void {
  log.warn(message, appName ? { appName } : {});
}

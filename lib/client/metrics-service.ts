import { log } from '../log.js';
import { DEFAULT_SDK_ENVIRONMENT } from '../projects/defaults.js';
import { ALL, type Caller } from '../tokens/model.js';
import { FUNCTION_TIMEOUT_MS, WRITE_BUDGET_MS } from '../time-budget.js';
import type { ClientFeatureService } from './features-service.js';
import type { ClientApplicationStore, HourlyCount, MetricsStore, SeenFeature } from './store.js';

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
}

/** POST /api/client/metrics as far as it could be read. */
export interface MetricsReport {
  appName?: string | undefined;
  environment?: string | undefined;
  bucket?: { start?: string | number | undefined; toggles: Record<string, ToggleCount> } | undefined;
}

/**
 * What SDKs report about themselves. Both reports are accepted whatever they hold (the Node
 * SDK stops reporting for good after a 400), so the unusable parts are dropped with a warning
 * instead of refused; only a report above SDK_REPORT_LIMITS is refused, by its schema. Nothing
 * here moves the SDK revision.
 */
export class ClientMetricsService {
  constructor(
    private readonly metrics: MetricsStore,
    private readonly applications: ClientApplicationStore,
    /** Decides which features a token may report on, from the SDK path's shared snapshot. */
    private readonly features: Pick<ClientFeatureService, 'servedNames'>,
    private readonly now: () => Date = () => new Date(),
    private readonly writeWindowMs: number = REPORT_WRITE_WINDOW_MS,
  ) {}

  /**
   * One record per application and token scope (environment and projects). The reference
   * does not say how Unleash keeps a project-scoped token from rewriting an application another
   * project registered; here a registration replaces only the one made under the same scope,
   * so a token of another project adds its own record instead of clobbering the first.
   */
  async register(caller: Caller, report: RegistrationReport): Promise<void> {
    if (!report.appName) return warn('register without a usable appName; nothing stored');
    await this.applications.save({
      appName: report.appName,
      instanceId: report.instanceId ?? null,
      sdkVersion: report.sdkVersion ?? null,
      strategies: report.strategies ?? [],
      environment: reportingEnvironment(caller, report.environment),
      projects: reportingProjects(caller),
      started: report.started === undefined ? null : String(report.started),
      interval: report.interval ?? null,
      lastSeen: this.now().toISOString(),
    });
  }

  /**
   * Adds each toggle's yes/no to its hourly counter and marks the feature seen in the
   * environment, for the features the token is served only: other projects' features,
   * archived ones and names of no feature are ignored (counted in the log), so a report writes
   * at most two items per feature in the token's scope.
   */
  async recordMetrics(caller: Caller, report: MetricsReport): Promise<void> {
    if (!report.bucket) return warn('metrics without a usable bucket; nothing stored', report.appName);
    const until = performance.now() + this.writeWindowMs;
    const now = this.now();
    const environment = reportingEnvironment(caller, report.environment);
    const hour = hourOf(report.bucket.start, now);
    const reported = Object.entries(report.bucket.toggles);
    const served = await this.features.servedNames(caller, { environment }, reported.map(([feature]) => feature));
    const toggles = reported.filter(([feature]) => served.has(feature));
    const about = { ...(report.appName ? { appName: report.appName } : {}), environment };
    if (toggles.length < reported.length) {
      log.info('metrics for names that are no feature of the token’s scope ignored', {
        ...about, recorded: toggles.length, ignored: reported.length - toggles.length,
      });
    }
    const counts: HourlyCount[] = toggles
      .filter(([, count]) => count.yes + count.no > 0)
      .map(([feature, count]) => ({ hour, feature, environment, yes: count.yes, no: count.no, apps: report.appName ? [report.appName] : [] }));
    const seen: SeenFeature[] = toggles.map(([feature]) => ({ feature, environment }));
    const written = await this.writeUntil(until, counts, seen, now.toISOString());
    if (written < counts.length + seen.length) {
      log.warn('metrics report too slow to store in time; the rest dropped', { ...about, written, dropped: counts.length + seen.length - written });
    }
  }

  /**
   * Starts writes only within the report's window, so it answers 202 before the function's
   * end whatever the store's speed. A 503 would be worse than a loss: the SDK keeps its bucket
   * and sends it again, and the counters already added would count twice.
   */
  private async writeUntil(until: number, counts: HourlyCount[], seen: SeenFeature[], at: string): Promise<number> {
    const inTime = () => performance.now() < until;
    const [counted, marked] = await Promise.all([this.metrics.addHourlyCounts(counts, inTime), this.metrics.markSeen(seen, at, inTime)]);
    return counted + marked;
  }
}

/**
 * How long a report may go on starting writes: the admin API's rule (a write starts only while
 * WRITE_BUDGET_MS of the function's time is left, lib/time-budget.ts), counted from the report's
 * start, so a started write ends before the function has to answer.
 */
export const REPORT_WRITE_WINDOW_MS = FUNCTION_TIMEOUT_MS - WRITE_BUDGET_MS;

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

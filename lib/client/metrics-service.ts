import { log } from '../log.js';
import { DEFAULT_SDK_ENVIRONMENT } from '../projects/defaults.js';
import type { Caller } from '../tokens/model.js';
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
 * instead of refused. Nothing here moves the SDK revision.
 */
export class ClientMetricsService {
  constructor(
    private readonly metrics: MetricsStore,
    private readonly applications: ClientApplicationStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async register(caller: Caller, report: RegistrationReport): Promise<void> {
    if (!report.appName) return warn('register without a usable appName; nothing stored');
    await this.applications.save({
      appName: report.appName,
      instanceId: report.instanceId ?? null,
      sdkVersion: report.sdkVersion ?? null,
      strategies: report.strategies ?? [],
      environment: reportingEnvironment(caller, report.environment),
      started: report.started === undefined ? null : String(report.started),
      interval: report.interval ?? null,
      lastSeen: this.now().toISOString(),
    });
  }

  /** Adds each toggle's yes/no to its hourly counter and marks the feature seen in the environment. */
  async recordMetrics(caller: Caller, report: MetricsReport): Promise<void> {
    if (!report.bucket) return warn('metrics without a usable bucket; nothing stored', report.appName);
    const now = this.now();
    const environment = reportingEnvironment(caller, report.environment);
    const hour = hourOf(report.bucket.start, now);
    const toggles = Object.entries(report.bucket.toggles).filter(([feature]) => isStorableName(feature));
    const counts: HourlyCount[] = toggles
      .filter(([, count]) => count.yes + count.no > 0)
      .map(([feature, count]) => ({ hour, feature, environment, yes: count.yes, no: count.no, apps: report.appName ? [report.appName] : [] }));
    const seen: SeenFeature[] = toggles.map(([feature]) => ({ feature, environment }));
    await Promise.all([this.metrics.addHourlyCounts(counts), this.metrics.markSeen(seen, now.toISOString())]);
  }
}

/**
 * SDK tokens report for their own environment whatever the body says; an admin token names it
 * in the body (Unleash 7's default otherwise).
 */
export function reportingEnvironment(caller: Caller, bodyEnvironment: string | undefined): string {
  if (caller.type !== 'admin') return caller.environment;
  return bodyEnvironment && isStorableName(bodyEnvironment) ? bodyEnvironment : DEFAULT_SDK_ENVIRONMENT;
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

import type { HourlyCount } from '../client/store.js';
import { NotFound } from '../errors.js';
import type { UsageReader } from './ports.js';
import type { FeatureStore } from './store.js';

/** The hours of counters kept (they expire after Unleash's 48 hours, ADR 15), and the most asked for. */
export const USAGE_HOURS = 48;
/** Unleash's answer when no or a longer span is asked for. */
export const DEFAULT_USAGE_HOURS = 24;

const HOUR_MS = 60 * 60 * 1000;

export interface EnvironmentUsage {
  featureName: string;
  /**
   * The application that reported the counts. Counters are kept per feature, environment and
   * hour with the set of applications that reported them (ADR 15), not per application: an hour
   * reported by several applications names them all (`app-a, app-b`), so the metrics tab's
   * application filter shows them as one group rather than counts split by guess.
   */
  appName: string;
  environment: string;
  /** The start of the hour (ISO). */
  timestamp: string;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

/**
 * A feature's SDK usage, as the admin UI's metrics tab reads it, from the hourly counters the
 * metrics path wrote (ADR 15): one small Query of the feature's hours per day, never a whole day.
 */
export class FeatureUsageService {
  constructor(
    private readonly features: Pick<FeatureStore, 'get'>,
    private readonly usage: UsageReader,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The current hour's counts by environment, and every application that reported it in the hours kept. */
  async lastHour(name: string): Promise<{ lastHourUsage: Array<Omit<EnvironmentUsage, 'featureName' | 'variants' | 'appName'>>; seenApplications: string[] }> {
    const hours = hoursUntil(this.now(), USAGE_HOURS);
    const counts = await this.countsOf(name, hours);
    return {
      lastHourUsage: counts
        .filter((count) => count.hour === hours[0])
        .map(({ environment, hour, yes, no }) => ({ environment, timestamp: hourStart(hour), yes, no }))
        .sort((a, b) => a.environment.localeCompare(b.environment)),
      seenApplications: [...new Set(counts.flatMap((count) => count.apps ?? []))].sort(),
    };
  }

  /** Counts by hour and environment over the last `hoursBack` hours, oldest first. */
  async hourly(name: string, hoursBack: number): Promise<EnvironmentUsage[]> {
    const counts = await this.countsOf(name, hoursUntil(this.now(), hoursBack));
    return counts
      .map(({ environment, hour, yes, no, variants, apps }) => ({
        featureName: name, appName: appNameOf(apps), environment, timestamp: hourStart(hour), yes, no, variants: variants ?? {},
      }))
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.environment.localeCompare(b.environment));
  }

  private async countsOf(name: string, hours: string[]): Promise<HourlyCount[]> {
    const [feature, counts] = await Promise.all([this.features.get(name), this.usage.hourlyCountsOf(name, hours)]);
    if (!feature) throw new NotFound(`Could not find feature with name ${name}`);
    return counts;
  }
}

/** The `count` hours up to and including the current one, newest first, as counters name them. */
function hoursUntil(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, back) => new Date(now.getTime() - back * HOUR_MS).toISOString().slice(0, 13));
}

const hourStart = (hour: string) => `${hour}:00:00.000Z`;

/** Counters written before applications were recorded name none: Unleash's word for an application it does not know. */
const UNKNOWN_APPLICATION = 'unknown';

function appNameOf(apps: readonly string[] | undefined): string {
  return apps && apps.length > 0 ? [...apps].sort().join(', ') : UNKNOWN_APPLICATION;
}

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
}

export interface SeenFeature {
  feature: string;
  environment: string;
}

/**
 * The SDK usage port: counters and last-seen times. None of these writes moves the revision,
 * so metrics never invalidate the SDK payload or its ETag.
 */
export interface MetricsStore extends LastSeenReader {
  /** Adds to the stored counters (atomic increments, so concurrent reports add up). */
  addHourlyCounts(counts: HourlyCount[]): Promise<void>;
  /** Sets the last-seen time, never moving it backwards. */
  markSeen(seen: SeenFeature[], at: string): Promise<void>;
  /** Every counter of one UTC day (`yyyy-mm-dd`). */
  hourlyCounts(day: string): Promise<HourlyCount[]>;
}

/** An application that registered through an SDK (one entry per appName; the latest instance wins). */
export interface ClientApplication {
  appName: string;
  instanceId: string | null;
  sdkVersion: string | null;
  strategies: string[];
  environment: string;
  /** When the SDK says it started, as it sent it. */
  started: string | null;
  /** The metrics interval in ms. */
  interval: number | null;
  lastSeen: string;
}

export interface ClientApplicationStore {
  save(application: ClientApplication): Promise<void>;
  get(appName: string): Promise<ClientApplication | undefined>;
}

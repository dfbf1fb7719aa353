/**
 * What Unleash 7 keeps of the names SDKs report that are no flag: each (name, application,
 * environment) with the time it was last reported, listed for 24 hours after that, at most 1,000
 * names in the list (Unleash's limit on its answer). Here the same bounds also hold what is
 * stored, so an SDK reporting made-up names cannot fill the table: at most `names` names, each
 * with at most `reportsPerName` application and environment pairs (the admin UI shows 20
 * applications of 10 environments at most), every item gone by DynamoDB's TTL after `retentionHours`.
 */
export const UNKNOWN_FLAG_LIMITS = { names: 1_000, reportsPerName: 20, retentionHours: 24 } as const;

export interface UnknownFlagBounds {
  names: number;
  reportsPerName: number;
  retentionHours: number;
}

/** One application's report of a name in one environment. */
export interface StoredReport {
  appName: string;
  environment: string;
  /** ISO. */
  seenAt: string;
}

export interface StoredUnknownFlag {
  name: string;
  reports: StoredReport[];
}

/** Unleash's unknownFlagSchema. */
export interface UnknownFlag {
  name: string;
  lastSeenAt: string;
  /** The newest change event about the name: it was a flag once (deleted since). */
  lastEventAt: string | null;
  reports: Array<{ appName: string; environments: Array<{ environment: string; seenAt: string }> }>;
}

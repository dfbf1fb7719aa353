import type { StoredReport, StoredUnknownFlag } from './model.js';

/** The unknown-flag store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface UnknownFlagStore {
  /** Every stored name with all its reports, lapsed ones included. */
  list(): Promise<StoredUnknownFlag[]>;
  /** Every stored name and when it lapses (epoch seconds), without its reports. */
  expiries(): Promise<Map<string, number>>;
  /**
   * Stores a name that is absent or lapsed (before `nowSeconds`) with these reports only;
   * false when a live one is there (another writer made it meanwhile).
   */
  create(name: string, reports: StoredReport[], expiresAt: number, nowSeconds: number): Promise<boolean>;
  /**
   * Sets these reports of a live name; false when the name is absent, or holds `maxReports`
   * and not every one of these pairs already.
   */
  addReports(name: string, reports: StoredReport[], expiresAt: number, maxReports: number): Promise<boolean>;
  /** The reports a name holds, lapsed ones included; undefined when it is not stored. */
  reportsOf(name: string): Promise<StoredReport[] | undefined>;
  /**
   * Removes `remove` and sets `set` in one write, while the name still holds `sizeRead` reports
   * (false when another write changed it meanwhile). A pair is never in both.
   */
  rewriteReports(name: string, change: { remove: StoredReport[]; set: StoredReport[]; expiresAt: number; sizeRead: number }): Promise<boolean>;
}

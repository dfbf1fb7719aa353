import type { ClientMetricsService, ToggleCount } from '../client/metrics-service.js';
import type { Caller } from '../http/caller.js';
import { log } from '../log.js';
import type { EvaluationOutcome } from './evaluation.js';

/**
 * How long evaluations are summed in the function before they go to the metrics path: an
 * OpenFeature provider reports nothing itself, so the server counts what it evaluated, and sends
 * one report per token scope and application per interval, as a frontend SDK would every 30 s.
 */
export const OFREP_USAGE_INTERVAL_MS = 30_000;

/**
 * Applications counted apart per token scope and interval: whoever holds a frontend token names
 * the appName, so beyond this many the counts go on without one rather than grow the memory.
 */
export const OFREP_USAGE_APPS = 50;

interface PendingScope {
  caller: Caller;
  /** By application name ('' when the context names none), then by flag. */
  apps: Map<string, Map<string, { yes: number; no: number; variants: Record<string, number> }>>;
}

/**
 * Counts OFREP evaluations as metrics and last-seen (ADR 15's path, the one SDK reports take):
 * in memory first, so the queue gets one message per scope and application per interval
 * instead of one per evaluation; the request that finds the interval over sends them.
 */
export class EvaluationCounter {
  private pending = new Map<string, PendingScope>();
  private since: number | undefined;

  constructor(
    private readonly usage: Pick<ClientMetricsService, 'recordMetrics'>,
    private readonly intervalMs: number = OFREP_USAGE_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async count(caller: Caller, appName: string | undefined, outcomes: readonly EvaluationOutcome[]): Promise<void> {
    const scopeKey = `${caller.type}\n${caller.tokenName}\n${caller.environment}\n${caller.projects.join(',')}`;
    let scope = this.pending.get(scopeKey);
    if (!scope) this.pending.set(scopeKey, (scope = { caller, apps: new Map() }));
    const app = appName !== undefined && (scope.apps.has(appName) || scope.apps.size < OFREP_USAGE_APPS) ? appName : '';
    let flags = scope.apps.get(app);
    if (!flags) scope.apps.set(app, (flags = new Map()));
    for (const { evaluation, enabled, variant } of outcomes) {
      let counted = flags.get(evaluation.key);
      if (!counted) flags.set(evaluation.key, (counted = { yes: 0, no: 0, variants: {} }));
      if (enabled) counted.yes += 1;
      else counted.no += 1;
      if (variant !== undefined) counted.variants[variant] = (counted.variants[variant] ?? 0) + 1;
    }
    this.since ??= this.now();
    if (this.now() - this.since >= this.intervalMs) await this.flush();
  }

  /**
   * Sends what was counted. A report the metrics path refuses is logged and dropped: the
   * evaluation it came with has been answered, and a provider never sends counts again.
   */
  async flush(): Promise<void> {
    const pending = this.pending;
    const start = this.since === undefined ? undefined : new Date(this.since).toISOString();
    this.pending = new Map();
    this.since = undefined;
    for (const { caller, apps } of pending.values()) {
      for (const [appName, flags] of apps) {
        const toggles: Record<string, ToggleCount> = Object.fromEntries(flags);
        try {
          await this.usage.recordMetrics(caller, { ...(appName === '' ? {} : { appName }), bucket: { start, toggles } });
        } catch (error) {
          log.warn('OFREP evaluation counts could not be recorded; dropped', { error: String(error), flags: flags.size });
        }
      }
    }
  }
}

import type { Environment } from '../environments/model.js';
import type { MetricsStageRecorder } from '../features/ports.js';
import { log } from '../log.js';

/** How long this process trusts what it learnt of a flag that may still move (and of the environments). */
export const STAGE_RECHECK_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Moves flags' lifecycle stages forward from the SDK metrics the store stage writes, as Unleash
 * does when metrics arrive (pre-live, then live from a production-type environment). Each flag
 * is read and written only until this process knows nothing more can move: once live, never
 * again; once pre-live from a non-production environment, never again for that environment; a
 * production environment where the flag was off, or a name that is not a flag, again after
 * STAGE_RECHECK_INTERVAL_MS. Stages are a flag's own business: a failure is logged, never the batch's.
 */
export class MetricsLifecycle {
  private readonly settled = new Set<string>();
  private readonly checkedAt = new Map<string, number>();
  private environments: { at: number; byName: Map<string, Environment> } | undefined;

  constructor(
    private readonly recorder: MetricsStageRecorder,
    private readonly listEnvironments: () => Promise<Environment[]>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the stages of each (feature, environment) that counted evaluations, one at a time. */
  async record(reported: ReadonlyArray<{ feature: string; environment: string }>, startWhile: () => boolean = () => true): Promise<void> {
    const now = this.now();
    // One look per flag and environment however many hours of it the batch holds.
    const distinct = new Map(reported.map(({ feature, environment }) => [key(feature, environment), { feature, environment }]));
    const due = [...distinct.values()].filter(({ feature, environment }) => !this.settled.has(feature) && !this.settled.has(key(feature, environment))
      && now - (this.checkedAt.get(key(feature, environment)) ?? -Infinity) >= STAGE_RECHECK_INTERVAL_MS);
    if (due.length === 0) return;
    let environments: Map<string, Environment>;
    try {
      environments = await this.environmentsByName(now);
    } catch (error) {
      log.warn('lifecycle stages from metrics not recorded: environments unreadable', { error: String(error) });
      return;
    }
    // Entered when recorded, as Unleash dates a stage by its insert, so it never precedes the flag's earlier ones.
    const enteredAt = new Date(now).toISOString();
    for (const { feature, environment } of due) {
      // What is not started before the writer's deadline is not remembered, so a later batch does it.
      if (!startWhile()) return;
      const known = environments.get(environment);
      // Unleash moves no stage for metrics of an environment it does not know.
      if (!known) {
        this.checkedAt.set(key(feature, environment), now);
        continue;
      }
      try {
        const outcome = await this.recorder.recordFromMetrics(feature, known, enteredAt);
        // A flag deleted since its counts were queued: the unknown flags are kept from the
        // report's own queue message (MetricsWriterOptions.unknownFlags), not from here.
        if (outcome === 'unknown') {
          this.checkedAt.set(key(feature, environment), now);
        } else if (outcome.stages.includes('live')) {
          this.settled.add(feature);
        } else if (known.type !== 'production') {
          this.settled.add(key(feature, environment));
        } else {
          this.checkedAt.set(key(feature, environment), now);
        }
      } catch (error) {
        log.warn('lifecycle stage from metrics not recorded', { feature, environment, error: String(error) });
      }
    }
  }

  private async environmentsByName(now: number): Promise<Map<string, Environment>> {
    if (!this.environments || now - this.environments.at >= STAGE_RECHECK_INTERVAL_MS) {
      const list = await this.listEnvironments();
      this.environments = { at: now, byName: new Map(list.map((environment) => [environment.name, environment])) };
    }
    return this.environments.byName;
  }
}

const key = (feature: string, environment: string) => JSON.stringify([feature, environment]);

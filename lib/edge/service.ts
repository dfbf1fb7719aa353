import { AuthenticationRequired, RateLimited, ServiceUnavailable } from '../errors.js';
import { WrittenBeforeFailure } from '../request-deadline.js';
import { clientAddressOf } from '../auth/model.js';
import { log } from '../log.js';
import { BoundedCache } from '../bounded-cache.js';
import type { RegistrationReport } from '../client/metrics-service.js';
import { dropImpactMetrics, reportingEnvironment, reportingProjects } from '../client/metrics-service.js';
import type { Caller } from '../tokens/model.js';
import {
  EDGE_VALIDATION, MAX_BULK_REGISTRATIONS, REGISTRATION_CONCURRENCY, REMEMBERED_REGISTRATIONS, validationWindow, type EdgeValidationLimits, type ValidatedToken,
} from './model.js';
import type { EdgePorts } from './ports.js';
import type { BulkMetricsReport, EdgeInstanceReport } from './schemas.js';
import type { ValidationCountStore } from './store.js';

/**
 * `POST /edge/validate`: which of the tokens an Edge holds are valid, decided by the same check
 * every request's token meets (expiry included, a deleted token refused within the revision
 * check interval). Counted per client address before any token is looked up.
 */
export class EdgeTokenValidation {
  constructor(
    private readonly tokens: EdgePorts['tokens'],
    private readonly counts: ValidationCountStore,
    private readonly now: () => Date = () => new Date(),
    private readonly limits: EdgeValidationLimits = EDGE_VALIDATION,
  ) {}

  async validate(tokens: readonly string[], sourceIp: string | undefined): Promise<ValidatedToken[]> {
    const asked = [...new Set(tokens)];
    await this.count(clientAddressOf(sourceIp), Math.max(1, asked.length));
    const answers = await Promise.all(asked.map((token) => this.validated(token)));
    return answers.filter((answer): answer is ValidatedToken => answer !== undefined);
  }

  /** Counts first, so a refused request is counted too: asking faster never buys more checks. */
  private async count(address: string, tokens: number): Promise<void> {
    const window = validationWindow(this.now());
    const counted = await this.counts.add(address, window.minute, tokens, window.expiresAt);
    if (counted <= this.limits.tokensPerMinute) return;
    log.warn('edge token validation over its rate; refused', { address, counted, perMinute: this.limits.tokensPerMinute });
    throw new RateLimited(
      `This address asked about ${counted} tokens this minute; at most ${this.limits.tokensPerMinute} are checked a minute. Try again in ${window.secondsLeft} s.`,
      window.secondsLeft,
    );
  }

  private async validated(token: string): Promise<ValidatedToken | undefined> {
    try {
      const { caller } = await this.tokens.authenticate(token);
      return { token, type: caller.type, environment: caller.environment, projects: [...caller.projects] };
    } catch (error) {
      if (error instanceof AuthenticationRequired) return undefined;
      throw error;
    }
  }
}

/**
 * What an Edge reports upstream besides polling: its SDKs' registrations and counts in bulk,
 * and what it says about itself. Every rule is the SDK API's own (ports.usage): a registration
 * is an SDK's registration, a count an SDK's count.
 *
 * Edge sends the same registrations every minute, so each container remembers the ones it has
 * written today (`written`) and writes them again only on a later UTC day: the day is the unit
 * the application store renews by (a repeat the same day only replaces the record, its place in
 * the scope's count unchanged), so what is skipped is that same-day replacement. A registration
 * whose SDK version or strategies changed is written again at once.
 */
export class EdgeUsage {
  private readonly written = new BoundedCache<string, string>(REMEMBERED_REGISTRATIONS);

  constructor(
    private readonly usage: EdgePorts['usage'],
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Registrations first (one record per application, environment and token scope, so instances
   * of one application are written once, and an admin token's report keeps each environment's),
   * at most MAX_BULK_REGISTRATIONS of them; then the counts. `seenTokens` is not kept: token
   * records here have no last-seen that a report would move.
   */
  async recordBulk(caller: Caller, report: BulkMetricsReport): Promise<void> {
    const byApplication = new Map<string, RegistrationReport>();
    for (const application of report.applications) {
      byApplication.set(JSON.stringify([application.appName, reportingEnvironment(caller, application.environment)]), application);
    }
    const registrations = [...byApplication.values()];
    if (registrations.length > MAX_BULK_REGISTRATIONS) {
      log.warn('bulk report names more applications than one report may register; the rest dropped', {
        registrations: registrations.length, registered: MAX_BULK_REGISTRATIONS,
      });
    }
    await this.registerOnceADay(caller, registrations.slice(0, MAX_BULK_REGISTRATIONS));
    dropImpactMetrics(report.impactMetrics, 'unleash-edge bulk');
    if (Array.isArray(report.seenTokens) && report.seenTokens.length > 0) {
      log.info('seen tokens of a bulk report are not kept', { tokens: report.seenTokens.length });
    }
    await this.usage.recordBulkCounts(caller, report.metrics.map((count) => ({
      feature: count.featureName, appName: count.appName, environment: count.environment, at: count.timestamp,
      yes: count.yes, no: count.no, variants: count.variants,
    })));
  }

  /**
   * `POST /api/client/metrics/edge`: Unleash's open-source server has no such endpoint (its
   * commercial editions chart Edge traffic). Here the Edge, and each Edge connected to it, is
   * kept as a registered application named as the Edge names itself, with `unleash-edge:<version>`
   * as its SDK version: an admin sees every running Edge and its version in the applications
   * list, and the registration stays live as long as the Edge keeps reporting (Edge registers
   * through /api/client/register only when it starts). Traffic and latency figures are not kept.
   */
  async recordInstance(caller: Caller, report: EdgeInstanceReport): Promise<void> {
    const instances = [report, ...report.connectedEdges].filter((instance) => instance.appName !== undefined);
    if (instances.length === 0) return log.warn('edge instance report without a usable appName; nothing stored', {});
    await this.registerOnceADay(caller, instances.map((instance) => ({
      appName: instance.appName,
      instanceId: instance.identifier,
      sdkVersion: instance.edgeVersion ? `unleash-edge:${instance.edgeVersion}` : undefined,
      started: instance.started,
      strategies: [],
    })));
  }

  /**
   * Registers those not yet written today by this container under the same token scope. One
   * that fails is not remembered, so the next report tries it again; one refused past the
   * scope's cap is, as the cap is read again on the next day anyway.
   */
  private async registerOnceADay(caller: Caller, registrations: readonly RegistrationReport[]): Promise<void> {
    const today = this.now().toISOString().slice(0, 10);
    const due = registrations.map((registration) => ({ registration, ...this.remembered(caller, registration, today) }))
      .filter(({ key, value }) => this.written.get(key) !== value);
    let wrote = false;
    try {
      await inBatches(due, async ({ registration, key, value }) => {
        await this.usage.register(caller, registration);
        wrote = true;
        this.written.set(key, value);
      });
    } catch (error) {
      // A later registration refused after an earlier one was stored: the 503 says so (route fuzz, seed 72058).
      if (wrote && error instanceof ServiceUnavailable && !(error instanceof WrittenBeforeFailure)) throw new WrittenBeforeFailure(error);
      throw error;
    }
  }

  /** What a written registration is remembered by: its record's identity, and the day with what the record says. */
  private remembered(caller: Caller, registration: RegistrationReport, today: string): { key: string; value: string } {
    const environment = reportingEnvironment(caller, registration.environment);
    return {
      key: JSON.stringify([environment, reportingProjects(caller), registration.appName]),
      value: JSON.stringify([today, registration.sdkVersion ?? null, registration.strategies ?? []]),
    };
  }
}

/** Runs `write` over the items a few at a time: a report's writes never all start at once. */
async function inBatches<T>(items: readonly T[], write: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += REGISTRATION_CONCURRENCY) {
    await Promise.all(items.slice(start, start + REGISTRATION_CONCURRENCY).map(write));
  }
}

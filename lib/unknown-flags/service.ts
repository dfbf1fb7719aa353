import { UNKNOWN_FLAG_LIMITS, type UnknownFlag, type UnknownFlagBounds } from './model.js';
import type { FlagHistory } from './ports.js';
import type { UnknownFlagStore } from './store.js';

/**
 * The admin UI's list of unknown flags, as Unleash 7 answers it: the names reported in the last
 * `retentionHours` that are no flag now (a flag created since drops out, archived ones included),
 * sorted by name, at most `names` of them, each with the time it was last reported, its newest
 * change event (a name that was a flag once) and its reports by application and environment.
 */
export class UnknownFlagService {
  constructor(
    private readonly store: UnknownFlagStore,
    private readonly history: FlagHistory,
    private readonly bounds: UnknownFlagBounds = UNKNOWN_FLAG_LIMITS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<UnknownFlag[]> {
    const since = this.now().getTime() - this.bounds.retentionHours * 60 * 60 * 1000;
    const reported = (await this.store.list())
      .map(({ name, reports }) => ({ name, reports: reports.filter((report) => Date.parse(report.seenAt) > since) }))
      .filter(({ reports }) => reports.length > 0);
    const flags = await this.history.existing(reported.map(({ name }) => name));
    const unknown = reported.filter(({ name }) => !flags.has(name)).sort((a, b) => byText(a.name, b.name)).slice(0, this.bounds.names);
    const lastEvents = await this.history.lastEventAt(unknown.map(({ name }) => name));
    return unknown.map(({ name, reports }) => {
      const apps = new Map<string, Array<{ environment: string; seenAt: string }>>();
      for (const { appName, environment, seenAt } of reports) apps.set(appName, [...(apps.get(appName) ?? []), { environment, seenAt }]);
      return {
        name,
        lastSeenAt: reports.map((report) => report.seenAt).reduce((latest, seenAt) => (seenAt > latest ? seenAt : latest)),
        lastEventAt: lastEvents.get(name) ?? null,
        reports: [...apps].sort(([a], [b]) => byText(a, b)).map(([appName, environments]) => ({
          appName, environments: environments.sort((a, b) => byText(a.environment, b.environment)),
        })),
      };
    });
  }
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

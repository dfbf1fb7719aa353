import type { ClientApplication } from '../client/store.js';

/** Where an application was used: a project (or `*`, every project) and its environments, as Unleash's usage lists them. */
export interface ApplicationUsage {
  project: string;
  environments: string[];
}

/** One application, gathered from its registrations (one per token scope). */
export interface Application {
  appName: string;
  /** The SDK of the newest registration. */
  sdkVersion: string | null;
  /** Every strategy type any registration named. */
  strategies: string[];
  usage: ApplicationUsage[];
  registrations: ClientApplication[];
}

/** The registrations of one application name as one application; `registrations` is not empty. */
export function applicationOf(registrations: ClientApplication[]): Application {
  const newest = [...registrations].sort((a, b) => (a.lastSeen < b.lastSeen ? 1 : -1));
  const usage = new Map<string, Set<string>>();
  for (const { projects, environment } of registrations) {
    for (const project of projects) usage.set(project, (usage.get(project) ?? new Set()).add(environment));
  }
  return {
    appName: newest[0]!.appName,
    sdkVersion: newest.find((registration) => registration.sdkVersion)?.sdkVersion ?? null,
    strategies: [...new Set(registrations.flatMap((registration) => registration.strategies))].sort(),
    usage: [...usage].sort(([a], [b]) => (a < b ? -1 : 1)).map(([project, environments]) => ({ project, environments: [...environments].sort() })),
    registrations: newest,
  };
}

/**
 * Unleash tells frontend SDKs by the endpoint they registered through; a registration here does
 * not record it, so the browser SDK's own name (unleash-proxy-client, `unleash-client-js:<version>`)
 * tells instead, and every other SDK counts as a backend one.
 */
export function isFrontendSdk(sdkVersion: string): boolean {
  return /^(unleash-client-js|unleash-proxy-client)\b/.test(sdkVersion);
}

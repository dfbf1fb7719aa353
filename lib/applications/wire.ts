import type * as z from 'zod';
import type { Application } from './model.js';
import type { applicationSchema, projectApplicationsSchema } from './schemas.js';

export function applicationWire(application: Application): z.input<typeof applicationSchema> {
  return {
    appName: application.appName,
    ...(application.sdkVersion ? { sdkVersion: application.sdkVersion } : {}),
    strategies: application.strategies,
    usage: application.usage,
  };
}

/** `<sdk>:<version>`, as SDKs send sdkVersion, split into Unleash's SDK name and versions. */
export function projectApplicationWire(application: Application): z.input<typeof projectApplicationsSchema>['applications'][number] {
  const versions = new Map<string, Set<string>>();
  for (const { sdkVersion } of application.registrations) {
    if (!sdkVersion) continue;
    const at = sdkVersion.lastIndexOf(':');
    const [name, version] = at > 0 ? [sdkVersion.slice(0, at), sdkVersion.slice(at + 1)] : [sdkVersion, ''];
    versions.set(name, (versions.get(name) ?? new Set()).add(version));
  }
  return {
    name: application.appName,
    environments: [...new Set(application.registrations.map((registration) => registration.environment))].sort(),
    instances: [...new Set(application.registrations.flatMap((registration) => (registration.instanceId ? [registration.instanceId] : [])))].sort(),
    sdks: [...versions].map(([name, known]) => ({ name, versions: [...known].filter(Boolean).sort() })),
  };
}

/**
 * What one page of applications may hold: 4 MB of JSON. Lambda returns at most 6 MB, counted
 * after gzip and the base64 that carries it (4/3): 4 MB that do not compress still fit, so a
 * page is never refused as too large, whatever the SDKs registered (an application may name
 * 100 strategy types of 100 characters).
 */
export const PAGE_BYTES = 4 * 1024 * 1024;

/**
 * The first applications of a page that fit in PAGE_BYTES, at least one. A page past it holds
 * fewer than its limit; the total still counts every match, so the next page starts at the
 * offset plus the number answered.
 */
export function withinPageBytes<T>(applications: T[]): T[] {
  let bytes = 0;
  const fitting: T[] = [];
  for (const application of applications) {
    bytes += Buffer.byteLength(JSON.stringify(application)) + 1;
    if (bytes > PAGE_BYTES && fitting.length > 0) break;
    fitting.push(application);
  }
  return fitting;
}

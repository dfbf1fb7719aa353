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

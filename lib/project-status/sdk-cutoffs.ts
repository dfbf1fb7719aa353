/**
 * The oldest version of each SDK that Unleash 7.6.5 does not call outdated, by the name the SDK
 * registers with (`sdkVersion` is `<name>:<version>`): the cut-offs Unleash publishes in its
 * source (src/lib/features/metrics/instance/findOutdatedSdks.ts), the one place they are kept
 * here. An SDK not listed is never outdated.
 */
export const SDK_CUTOFFS: Readonly<Record<string, string>> = {
  'unleash-client-node': '5.3.2',
  'unleash-client-nextjs': '1.6.2',
  'unleash-client-java': '9.2.0',
  'unleash-client-go': '4.1.0',
  'unleash-client-python': '5.11.0',
  'unleash-client-ruby': '5.0.0',
  'unleash-client-dotnet': '4.1.3',
  'unleash-client-php': '2.3.0',
  // The names the SDKs register with since they were renamed.
  'unleash-node-sdk': '6.6.0',
  'unleash-nextjs-sdk': '1.6.2',
  'unleash-java-sdk': '11.0.2',
  'unleash-go-sdk': '5.0.3',
  'unleash-python-sdk': '6.3.0',
  'unleash-ruby-sdk': '6.3.1',
  'unleash-dotnet-sdk': '5.3.0',
  'unleash-php-sdk': '2.9.1',
};

interface Version {
  numbers: [number, number, number];
  preRelease: string | undefined;
}

/** A semantic version as `semver.valid` reads one (a leading `v` allowed); undefined for anything else. */
function parseVersion(text: string): Version | undefined {
  const match = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { numbers: [Number(match[1]), Number(match[2]), Number(match[3])], preRelease: match[4] };
}

/** Whether `a` comes before `b`; a pre-release comes before its release (pre-releases compared as text). */
function isBefore(a: Version, b: Version): boolean {
  for (let index = 0; index < 3; index += 1) {
    const [x, y] = [a.numbers[index] as number, b.numbers[index] as number];
    if (x !== y) return x < y;
  }
  if (a.preRelease === undefined) return false;
  if (b.preRelease === undefined) return true;
  return a.preRelease < b.preRelease;
}

/** Unleash's rule: a listed SDK reporting a valid version older than its cut-off. */
export function isOutdatedSdk(sdkVersion: string | null): boolean {
  if (!sdkVersion) return false;
  const [name = '', version = ''] = sdkVersion.split(':');
  const cutoff = SDK_CUTOFFS[name];
  const reported = parseVersion(version);
  return cutoff !== undefined && reported !== undefined && isBefore(reported, parseVersion(cutoff) as Version);
}

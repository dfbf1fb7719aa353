/**
 * The longest landing path kept, as resolved. The login under way carries it in a cookie, and a
 * browser may carry a few of them (lib/oidc/login.ts keeps at most 4): together with the session
 * they stay far below the 10 KB API Gateway takes for all of a request's headers.
 */
const MAX_LANDING = 512;

/**
 * Where a person lands after a single sign-on login: only a path under the service, never another
 * site (an open redirect). `redirect` is resolved against `publicUrl` as a browser would resolve
 * it (tabs and newlines dropped, dot segments and their encodings `%2e` applied, so
 * `/a/..//evil.example` is `//evil.example`) and the answer is built from that resolved URL, never
 * from the text given: it must stay on the public URL's origin, under its path, and start with
 * exactly one `/` (see `isOwnPath`). Anything else lands on the UI's start.
 */
export function landingOf(redirect: string | undefined, publicUrl: string): string {
  const root = new URL(publicUrl);
  const basePath = root.pathname.replace(/\/+$/, '');
  const start = `${basePath}/`;
  if (!redirect || redirect.length > MAX_LANDING || !redirect.startsWith('/') || /[\x00-\x1f\\]/.test(redirect)) return start;
  const target = parsed(basePath && redirect.startsWith(start) ? redirect : `${basePath}${redirect}`, root.origin);
  if (!target || target.origin !== root.origin || !target.pathname.startsWith(start)) return start;
  const landing = `${target.pathname}${target.search}${target.hash}`;
  return isOwnPath(landing) && landing.length <= MAX_LANDING ? landing : start;
}

/** `//` with nothing after it names no host: not a URL at all. */
function parsed(url: string, base: string): URL | undefined {
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}

/**
 * Whether a Location names a path on the answering site: one `/` and then anything but `/` or
 * `\`. Browsers read `//host` and `/\host` as another site.
 */
export const isOwnPath = (location: string): boolean => /^\/(?![/\\])/.test(location);

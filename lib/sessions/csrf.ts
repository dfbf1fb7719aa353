/**
 * Whether a request that a session cookie alone authenticates comes from another site. Browsers
 * say where a request comes from: `Sec-Fetch-Site` (when sent) must be `same-origin` (or `none`,
 * a request the person made themselves), and `Origin` must be the service's own origin: the host
 * the request was sent to, UNLEASH_URL's origin (the public address, e.g. CloudFront in front
 * of the API), or ADMIN_UI_URL's. A request with neither header is not from a browser page (browsers send `Origin`
 * on every request that is not a GET or HEAD), so cookies it carries were not sent on someone
 * else's behalf.
 */
export function isCrossSite(headers: Record<string, string | undefined>, ownOrigins: readonly string[]): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  if (ownOrigins.includes(origin)) return false;
  const host = headers['x-forwarded-host'] ?? headers.host;
  return host === undefined || !sameHost(origin, host);
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Methods that change nothing, which the check leaves alone (as SameSite=Lax does). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

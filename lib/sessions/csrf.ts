/**
 * Whether a request that a session cookie alone authenticates comes from another site. Browsers
 * say where a request comes from: `Sec-Fetch-Site` (when sent) must be `same-origin` (or `none`,
 * a request the person made themselves), and `Origin` (scheme, host and port) must be one of the
 * service's own origins exactly: UNLEASH_URL's, ADMIN_UI_URL's, and on a laptop the address the
 * local server listens on (lib/sessions/model.ts sessionSettingsOf). Nothing the client sends
 * besides `Origin` decides it: `Host` and `X-Forwarded-Host` are whatever the sender wrote, so an
 * origin that merely matches them is still another site. A request with neither header is not
 * from a browser page (browsers send `Origin` on every request that is not a GET or HEAD), so
 * cookies it carries were not sent on someone else's behalf.
 */
export function isCrossSite(headers: Record<string, string | undefined>, ownOrigins: readonly string[]): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  // Browsers serialize it as URL.origin does (lower case, no default port), as ownOrigins are built.
  return !ownOrigins.includes(origin.trim());
}

/** Methods that change nothing, which the check leaves alone (as SameSite=Lax does). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

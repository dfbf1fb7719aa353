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

/**
 * Whether a GET navigation (no `Origin` on it) was made from the service's own pages or by the
 * person themselves, for GETs that change something (GET /logout). `Sec-Fetch-Site` says it when
 * sent: `same-origin` or `none`. A browser that does not send it still sends `Referer` on a link
 * followed from a page of ours; its origin must be one of ours exactly. Without either header
 * nothing tells another site's link apart, so it counts as not ours.
 */
export function isOwnNavigation(headers: Record<string, string | undefined>, ownOrigins: readonly string[]): boolean {
  if (isCrossSite(headers, ownOrigins)) return false;
  if (headers['sec-fetch-site'] !== undefined) return true;
  const referer = headers.referer?.trim();
  if (!referer) return false;
  try {
    return ownOrigins.includes(new URL(referer).origin);
  } catch {
    return false;
  }
}

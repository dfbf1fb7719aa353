/**
 * What the server writes into the UI's index.html before sending it, as unleash-server 7.6
 * does when it loads the page: the base path the app routes and calls the API under, the CDN
 * prefix its assets come from, the favicon's prefix, the UI flags and Unleash's own frontend
 * token (none here), and every `/static` reference moved under the CDN prefix or the base path.
 */
export interface IndexHtmlSettings {
  /** The service's BASE_URI_PATH (`''` or `/toggles`), no trailing slash. */
  baseUriPath: string;
  /** Where the assets are served from when not from the service itself; none here. */
  cdnPrefix?: string;
  /** Flags the app reads before it asks the API (Unleash's `ui.flags`); none here. */
  uiFlags?: Record<string, unknown>;
  /**
   * Whether the page asks the browser to fetch the UI's first API requests at once
   * (API_PRELOADS); on unless switched off, which only the UI benchmark's A/B does.
   */
  preloadApi?: boolean;
  /**
   * The modules the entry script imports, as the template names assets (`/static/…`), linked as
   * `modulepreload` (lib/ui/module-preloads.ts finds them in the build); none when not given.
   */
  modulePreloads?: readonly string[];
}

/**
 * The API requests the 7.6.5 app makes first on every page, logged in or not (its bootstrap
 * asks who is signed in and for the UI's configuration, and renders nothing until both have
 * answered), as the app spells them below the base path. The browser can only send them once
 * index.html, the bundle and the bundle's start-up script (about a second of the browser's own
 * work) are done; preloaded, they are sent while index.html is parsed and their answers wait in
 * the page's preload cache for the app's own `fetch`, which takes them from there instead of
 * asking again. That happens only when the preload is the same request: same URL, a `cors` mode
 * request with the credentials mode `same-origin` of a plain `fetch(url)`, which is what
 * `as="fetch"` with a bare `crossorigin` makes (`use-credentials` would be `include`, another
 * request, and Chromium would warn that the preload went unused). The answers stay the
 * caller's: a preload lives in this page's memory, not in a shared cache, and the API's
 * answers keep their own Cache-Control.
 */
export const API_PRELOADS = ['/api/admin/user', '/api/admin/ui-config'] as const;

export function fillIndexHtml(template: string, settings: IndexHtmlSettings): string {
  const cdnPrefix = settings.cdnPrefix ?? '';
  // The app decodes it with decodeURI then JSON.parse; encodeURI also keeps quotes out of the attribute.
  const uiFlags = encodeURI(JSON.stringify(settings.uiFlags ?? {}));
  // Replacement functions, so a `$` in a value is never read as a replacement pattern.
  const filled = template
    .replace(/::baseUriPath::/gi, () => escapeAttribute(settings.baseUriPath))
    .replace(/::cdnPrefix::/gi, () => escapeAttribute(cdnPrefix))
    .replace(/::faviconPrefix::/gi, () => escapeAttribute(cdnPrefix))
    .replace(/::uiFlags::/gi, () => uiFlags)
    .replace(/::unleashToken::/gi, () => '')
    .replace(/\/static/gi, () => `${escapeAttribute(cdnPrefix || settings.baseUriPath)}/static`);
  const assetPrefix = escapeAttribute(cdnPrefix || settings.baseUriPath);
  const preloads = [
    ...(settings.preloadApi === false ? [] : API_PRELOADS.map(
      (path) => `<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(settings.baseUriPath)}${path}" />`,
    )),
    // `crossorigin` as on the entry's own script tag: the same request, so the module map reuses it.
    ...(settings.modulePreloads ?? []).map((path) => `<link rel="modulepreload" crossorigin href="${assetPrefix}${escapeAttribute(path)}" />`),
  ];
  if (preloads.length === 0) return filled;
  // First in <head>: the preload scanner dispatches them before the style sheets and the bundle.
  return filled.replace(/<head\b[^>]*>/i, (head) => `${head}\n        ${preloads.join('\n        ')}`);
}

/** The base path is configuration, not markup: it lands in attributes, so it is escaped for them. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

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
}

export function fillIndexHtml(template: string, settings: IndexHtmlSettings): string {
  const cdnPrefix = settings.cdnPrefix ?? '';
  // The app decodes it with decodeURI then JSON.parse; encodeURI also keeps quotes out of the attribute.
  const uiFlags = encodeURI(JSON.stringify(settings.uiFlags ?? {}));
  // Replacement functions, so a `$` in a value is never read as a replacement pattern.
  return template
    .replace(/::baseUriPath::/gi, () => escapeAttribute(settings.baseUriPath))
    .replace(/::cdnPrefix::/gi, () => escapeAttribute(cdnPrefix))
    .replace(/::faviconPrefix::/gi, () => escapeAttribute(cdnPrefix))
    .replace(/::uiFlags::/gi, () => uiFlags)
    .replace(/::unleashToken::/gi, () => '')
    .replace(/\/static/gi, () => `${escapeAttribute(cdnPrefix || settings.baseUriPath)}/static`);
}

/** The base path is configuration, not markup: it lands in attributes, so it is escaped for them. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

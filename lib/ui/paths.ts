/**
 * Which request paths belong to the API and which to the admin UI, as one rule for the local
 * server and for CloudFront, whose cache behaviours these patterns become
 * (infra/constructs/admin-ui.ts): a path one of them matches goes to the API (API Gateway's own
 * 404 included), every other path is the UI's.
 *
 * Patterns use CloudFront's path-pattern syntax: case-sensitive, `*` any run of characters
 * (none included), `?` exactly one. A test holds every route-table path to one of them
 * (test/unit/ui-paths.test.ts), so a route under a new prefix cannot end up behind the UI.
 */
export const API_PATH_PATTERNS = ['/api/*', '/auth/*', '/logout', '/invite/*', '/health', '/docs', '/docs/*', '/ofrep/*', '/edge/*'] as const;

const patternRegExps = API_PATH_PATTERNS.map(
  (pattern) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 's'),
);

export function isApiPath(path: string): boolean {
  return patternRegExps.some((pattern) => pattern.test(path));
}

/**
 * The top of the UI's folder: the files and the folders right under it. Only those are served
 * as files; every other path is a client-side route and gets index.html. Deciding by name, not
 * by "has a dot", keeps routes such as `/projects/default/features/checkout.v2` (feature names
 * may hold dots) on the app.
 */
export interface UiEntries {
  files: readonly string[];
  folders: readonly string[];
}

export const INDEX_HTML = 'index.html';

/**
 * The object a UI path is answered with (its key, without the leading slash): the file itself
 * for a file or anything under a folder of the UI, index.html for everything else (`/`,
 * `/projects/default`). `path` is below the base path and starts with `/`.
 */
export function uiObjectKey(path: string, entries: UiEntries): string {
  const key = path.replace(/^\/+/, '');
  const [first = ''] = key.split('/');
  if (entries.folders.includes(first) && key.length > first.length + 1) return key;
  if (!key.includes('/') && entries.files.includes(key)) return key;
  return INDEX_HTML;
}

/**
 * How long a browser may keep a file. The build names everything under `static/` by its
 * content's hash (vite), so those never change under their name and are kept for a year;
 * everything else (index.html, which names the current hashes, and the few unhashed pictures)
 * is revalidated on every load, which costs a 304.
 */
export function cacheControlFor(key: string): string {
  return key.startsWith('static/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  txt: 'text/plain; charset=utf-8',
};

/** The Content-Type of a UI file by its extension; the licence files (no extension) are text. */
export function contentTypeFor(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot < 0) return CONTENT_TYPES.txt!;
  return CONTENT_TYPES[name.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}

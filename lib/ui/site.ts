import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { fillIndexHtml, type IndexHtmlSettings } from './index-html.js';
import { cacheControlFor, contentTypeFor, INDEX_HTML, isApiPath, uiObjectKey, type UiEntries } from './paths.js';
import { UI_FETCH_COMMAND, UI_RELEASE, type InstalledUi } from './release.js';
import { uiSecurityHeaders } from './security-headers.js';

export interface UiAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The admin UI as the local server serves it, next to the API (CloudFront and S3 in the cloud). */
export interface UiSite {
  readonly installed: boolean;
  /** What is served, or why nothing is, for `npm start`'s banner. */
  readonly status: string;
  /**
   * The answer to a request below the base path, or undefined when the request is the API's
   * (an API path, or a method other than GET and HEAD, which CloudFront's default behaviour
   * does not take either).
   */
  answer(method: string, path: string, headers: Record<string, string | undefined>): Promise<UiAnswer | undefined>;
}

export function createUiSite(installed: InstalledUi | undefined, settings: IndexHtmlSettings): UiSite {
  const serve = installed ? servingFrom(installed, settings) : missingUi;
  return {
    installed: installed !== undefined,
    status: installed
      ? `Unleash ${UI_RELEASE.version}'s, from ${installed.buildDir}`
      : `not installed, the API works without it; run \`${UI_FETCH_COMMAND}\` and restart`,
    async answer(method, path, headers) {
      if ((method !== 'GET' && method !== 'HEAD') || isApiPath(path)) return undefined;
      // A HEAD answer's body is dropped by node's HTTP server, its Content-Length kept.
      return serve(path, headers);
    },
  };
}

type Serve = (path: string, headers: Record<string, string | undefined>) => Promise<UiAnswer>;

function servingFrom(installed: InstalledUi, settings: IndexHtmlSettings): Serve {
  const root = resolve(installed.buildDir);
  const entries = uiEntries(installed);
  // Filled once: what it is filled with is fixed for the server's life.
  const index = Buffer.from(fillIndexHtml(readFileSync(join(root, INDEX_HTML), 'utf8'), settings));
  const indexTag = `"${createHash('sha256').update(index).digest('base64url').slice(0, 27)}"`;
  // On every answer, not only the page: an SVG or HTML file opened on its own is a document too.
  const security = uiSecurityHeaders(index.toString());
  return async (path, headers) => {
    const key = uiObjectKey(path, entries);
    if (key === INDEX_HTML) {
      const fresh = headers['if-none-match'] === indexTag;
      return answer(fresh ? 304 : 200, key, fresh ? Buffer.alloc(0) : index, { etag: indexTag, ...security });
    }
    const file = installed.licenceFiles[key] ?? fileUnder(root, key);
    const body = file === undefined ? undefined : await readFile(file).catch(() => undefined);
    return body ? answer(200, key, body, security) : notFound(security);
  };
}

/** The UI's top-level files and folders, with the licence files served beside them. */
export function uiEntries(installed: InstalledUi): UiEntries {
  const top = readdirSync(installed.buildDir, { withFileTypes: true });
  return {
    files: [...top.filter((entry) => entry.isFile()).map((entry) => entry.name), ...Object.keys(installed.licenceFiles)],
    folders: top.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
  };
}

/** The file a key names inside `root`, or undefined for a key that is not a plain path inside it. */
function fileUnder(root: string, key: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    return undefined;
  }
  if (decoded.split('/').some((segment) => segment === '' || segment === '.' || segment === '..') || /[\\\0]/.test(decoded)) return undefined;
  const file = resolve(root, decoded);
  return file.startsWith(root + sep) ? file : undefined;
}

function answer(statusCode: number, key: string, body: Buffer, extra: Record<string, string> = {}): UiAnswer {
  return {
    statusCode,
    headers: { 'content-type': contentTypeFor(key), 'cache-control': cacheControlFor(key), 'x-content-type-options': 'nosniff', ...extra },
    body,
  };
}

/** A missing file under a UI folder: not the app (a script tag given HTML fails confusingly). */
function notFound(security: Record<string, string>): UiAnswer {
  return { statusCode: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache', ...security }, body: Buffer.from('Not Found\n') };
}

/** What is served, locally and from the bucket, when the install step could not fetch the UI. */
export const missingUiPage = Buffer.from(
  [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Admin UI not installed</title></head><body>',
    `<h1>The admin UI is not installed</h1>`,
    `<p>The API is running; the admin UI (Unleash ${UI_RELEASE.version}'s, from the npm package <code>${UI_RELEASE.packageName}</code>) `,
    'could not be fetched when the project was installed, probably because the npm registry was not reachable.</p>',
    `<p>Run <code>${UI_FETCH_COMMAND}</code>, then restart <code>npm start</code>.</p>`,
    '</body></html>',
    '',
  ].join('\n'),
);

async function missingUi(): Promise<UiAnswer> {
  return {
    statusCode: 404,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...uiSecurityHeaders(missingUiPage.toString()) },
    body: missingUiPage,
  };
}

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { join, resolve, sep } from 'node:path';
import { fillIndexHtml, type IndexHtmlSettings } from './index-html.js';
import { entryModulePreloads } from './module-preloads.js';
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
  const template = readFileSync(join(root, INDEX_HTML), 'utf8');
  const index = Buffer.from(fillIndexHtml(template, { modulePreloads: entryModulePreloads(root, template), ...settings }));
  const indexTag = `"${createHash('sha256').update(index).digest('base64url').slice(0, 27)}"`;
  // On every answer, not only the page: an SVG or HTML file opened on its own is a document too.
  const security = uiSecurityHeaders(index.toString());
  const compressed = compressedCopies();
  return async (path, headers) => {
    const key = uiObjectKey(path, entries);
    if (key === INDEX_HTML) {
      const fresh = headers['if-none-match'] === indexTag;
      if (fresh) return answer(304, key, Buffer.alloc(0), { etag: indexTag, ...security });
      return compressed.answer(answer(200, key, index, { etag: indexTag, ...security }), key, headers['accept-encoding']);
    }
    const file = installed.licenceFiles[key] ?? fileUnder(root, key);
    const body = file === undefined ? undefined : await readFile(file).catch(() => undefined);
    return body ? compressed.answer(answer(200, key, body, security), key, headers['accept-encoding']) : notFound(security);
  };
}

/** What CloudFront compresses (its `compress: true` behaviour, infra/constructs/admin-ui.ts): text of 1,000 bytes to 10 MB. */
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg\+xml)/;
const MIN_COMPRESSED_BYTES = 1_000;
const MAX_COMPRESSED_BYTES = 10_000_000;
type Encoding = 'br' | 'gzip';
const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 5: most of brotli's gain over gzip at a fraction of its maximum's CPU; each file is compressed once.
  br: (body) => promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
};

/** The encoding a browser's Accept-Encoding allows, brotli first as CloudFront prefers it. */
export function chosenEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const quality = params.find((param) => param.startsWith('q='));
    if (quality === undefined || Number(quality.slice(2)) > 0) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/**
 * The UI's files compressed as CloudFront serves them in the cloud: the build's scripts are
 * some 3 MB, about a third of that compressed, and a first visit downloads them all. Each file
 * is compressed once per encoding and kept (the build does not change while the server runs).
 */
function compressedCopies() {
  const copies = new Map<string, Promise<Buffer>>();
  return {
    async answer(plain: UiAnswer, key: string, acceptEncoding: string | undefined): Promise<UiAnswer> {
      const type = plain.headers['content-type'] ?? '';
      const size = plain.body.length;
      if (!COMPRESSIBLE.test(type) || size < MIN_COMPRESSED_BYTES || size > MAX_COMPRESSED_BYTES) return plain;
      const headers = { ...plain.headers, vary: 'Accept-Encoding' };
      const encoding = chosenEncoding(acceptEncoding);
      if (!encoding) return { ...plain, headers };
      const id = `${encoding} ${key}`;
      let copy = copies.get(id);
      if (!copy) {
        copy = compressors[encoding](plain.body);
        copies.set(id, copy);
        copy.catch(() => copies.delete(id));
      }
      return { ...plain, headers: { ...headers, 'content-encoding': encoding }, body: await copy };
    },
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

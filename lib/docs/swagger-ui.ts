import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once, textAsset, type TextAsset } from './text-asset.js';

/**
 * Swagger UI, served by the service itself (no CDN): the two files of `swagger-ui-dist` the page
 * needs. The Lambda bundle carries them in `SWAGGER_UI_BUNDLE_DIR` beside its `index.mjs`
 * (copied there at bundling; see infra/constructs/group-functions.ts); from source they are
 * read from node_modules.
 */
export const SWAGGER_UI_FILES = {
  styles: { file: 'swagger-ui.css', contentType: 'text/css; charset=utf-8' },
  script: { file: 'swagger-ui-bundle.js', contentType: 'text/javascript; charset=utf-8' },
} as const;
export type SwaggerUiFile = keyof typeof SWAGGER_UI_FILES;

export const SWAGGER_UI_PACKAGE = 'swagger-ui-dist';
export const SWAGGER_UI_BUNDLE_DIR = 'swagger-ui';

/** Browsers may keep the files an hour; they change only when the package is upgraded. */
export const ASSET_CACHE_CONTROL = 'public, max-age=3600';

const loaders = Object.fromEntries(
  Object.entries(SWAGGER_UI_FILES).map(([name, { file }]) => [
    name,
    once(async () => textAsset(await readFile(join(assetDirectory(), file), 'utf8'))),
  ]),
) as Record<SwaggerUiFile, () => Promise<TextAsset>>;

/** A file's text and its gzip form, read and compressed once per process. */
export function swaggerUiAsset(name: SwaggerUiFile): Promise<TextAsset> {
  return loaders[name]();
}

function assetDirectory(): string {
  const bundled = fileURLToPath(new URL(`./${SWAGGER_UI_BUNDLE_DIR}/`, import.meta.url));
  if (existsSync(bundled)) return bundled;
  return dirname(fileURLToPath(import.meta.resolve(`${SWAGGER_UI_PACKAGE}/package.json`)));
}

export interface SwaggerUiPage {
  html: string;
  /** The headers the page is sent with: its Content-Security-Policy and what keeps it out of frames. */
  headers: Record<string, string>;
}

/**
 * The page; the paths are the route table's, after the service's base path (BASE_URI_PATH, the
 * custom domain's API mapping key; '' at the root of the `$default` stage). `validatorUrl: null` keeps Swagger UI from
 * sending the document to an outside validator for its badge.
 *
 * The page is sent under a strict Content-Security-Policy: scripts and styles from this origin
 * only, and of the inline blocks exactly the two below, named by their SHA-256 (CSP level 2), so
 * no 'unsafe-inline' or 'unsafe-eval' is needed and injected markup cannot run. Hashes rather than
 * a served start-up script: the policy is as strict and the page needs no extra route or request.
 * Swagger UI draws its icons from `data:` images in its style sheet and calls the API on this
 * origin ("Try it out"), which `default-src 'self'` covers.
 */
export function swaggerUiPage(paths: { document: string; styles: string; script: string }): SwaggerUiPage {
  const style = 'body { margin: 0; }';
  const start = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(paths.document)}, dom_id: '#swagger-ui', validatorUrl: null });`;
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>serverless-toggles API</title>
  <link rel="stylesheet" href="${paths.styles}">
  <style>${style}</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${paths.script}"></script>
  <script>${start}</script>
</body>
</html>
`;
  const policy = [
    "default-src 'self'",
    `script-src 'self' ${hashSource(start)}`,
    `style-src 'self' ${hashSource(style)}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    html,
    headers: {
      'content-security-policy': policy,
      // For browsers that predate frame-ancestors.
      'x-frame-options': 'DENY',
      // The page is public, but nothing about who read it needs to travel with the links it holds.
      'referrer-policy': 'no-referrer',
    },
  };
}

const hashSource = (content: string): string => `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;

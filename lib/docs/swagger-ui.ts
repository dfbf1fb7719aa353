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

/**
 * The page; the paths are the route table's. They are absolute because the API is served from the root of its domain (the
 * `$default` stage). `validatorUrl: null` keeps Swagger UI from sending the document to an
 * outside validator for its badge.
 */
export function swaggerUiPage(paths: { document: string; styles: string; script: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>serverless-toggles API</title>
  <link rel="stylesheet" href="${paths.styles}">
  <style>body { margin: 0; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${paths.script}"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(paths.document)}, dom_id: '#swagger-ui', validatorUrl: null });
  </script>
</body>
</html>
`;
}

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminUi } from '../../infra/constructs/admin-ui.js';
import { API_PRELOADS } from '../../lib/ui/index-html.js';

// CloudFront serves index.html as uploaded, so the preloads the local server adds to it
// (lib/ui/index-html.ts) are only in AWS if the deployment's copy holds them: the API's first
// requests and the entry module's static imports.
describe('the index.html the admin UI deployment uploads', () => {
  let dir: string;
  let uploaded: string[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'admin-ui-index-'));
    const buildDir = join(dir, 'build');
    mkdirSync(join(buildDir, 'static'), { recursive: true });
    writeFileSync(join(buildDir, 'index.html'), [
      '<!doctype html><html><head><meta name="baseUriPath" content="::baseUriPath::" />',
      '<script type="module" crossorigin src="/static/index-abc.js"></script></head><body></body></html>',
    ].join(''));
    writeFileSync(join(buildDir, 'static', 'index-abc.js'), 'import{a as e}from"./chunk-def.js";import"./style-ghi.js";console.log(e)');
    writeFileSync(join(buildDir, 'static', 'chunk-def.js'), 'export const a=1;');
    writeFileSync(join(buildDir, 'static', 'style-ghi.js'), 'console.log(2)');
    writeFileSync(join(dir, 'LICENSE'), 'Apache License');

    const outdir = join(dir, 'cdk.out');
    const app = new App({ outdir });
    const stack = new Stack(app, 'UiOnly');
    new AdminUi(stack, 'AdminUi', { api: new HttpApi(stack, 'Api'), ui: { buildDir, licenceFiles: { LICENSE: join(dir, 'LICENSE') } } });
    app.synth();
    // The build's own folder is uploaded without its index.html: the filled one is an asset of its own.
    uploaded = readdirSync(outdir)
      .filter((name) => name.startsWith('asset.') && existsSync(join(outdir, name, 'index.html')))
      .map((name) => readFileSync(join(outdir, name, 'index.html'), 'utf8'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("holds the API preloads and the entry's module preloads, first in <head>", () => {
    expect(uploaded).toHaveLength(1);
    const head = /<head>([\s\S]*?)<meta/.exec(uploaded[0]!)?.[1] ?? '';
    const links = head.trim().split(/\s*\n\s*/);
    expect(links).toEqual([
      ...API_PRELOADS.map((path) => `<link rel="preload" as="fetch" crossorigin href="${path}" />`),
      '<link rel="modulepreload" crossorigin href="/static/chunk-def.js" />',
      '<link rel="modulepreload" crossorigin href="/static/style-ghi.js" />',
    ]);
    expect(uploaded[0]).toContain('<meta name="baseUriPath" content="" />');
  });
});

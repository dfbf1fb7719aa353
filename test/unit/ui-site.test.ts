import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUiSite, type UiSite } from '../../lib/ui/site.js';

/** A UI folder shaped as the install step leaves it: the build, with the licence beside it. */
function fixture(): { dir: string; installed: { buildDir: string; licenceFiles: Record<string, string> } } {
  const dir = mkdtempSync(join(tmpdir(), 'ui-site-'));
  const buildDir = join(dir, 'build');
  mkdirSync(join(buildDir, 'static'), { recursive: true });
  writeFileSync(join(buildDir, 'index.html'), '<meta name="baseUriPath" content="::baseUriPath::" /><script src="/static/app-abc.js"></script>');
  writeFileSync(join(buildDir, 'static', 'app-abc.js'), 'console.log(1)');
  writeFileSync(join(buildDir, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  writeFileSync(join(dir, 'LICENSE'), 'Apache License');
  writeFileSync(join(dir, 'secret.txt'), 'outside the build');
  return { dir, installed: { buildDir, licenceFiles: { LICENSE: join(dir, 'LICENSE') } } };
}

describe('the admin UI as the local server serves it', () => {
  let dir: string;
  let site: UiSite;
  beforeAll(() => {
    const made = fixture();
    dir = made.dir;
    site = createUiSite(made.installed, { baseUriPath: '/toggles' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the app and every client-side route with the filled index.html, revalidated each load', async () => {
    const root = await site.answer('GET', '/', {});
    const route = await site.answer('GET', '/projects/default', {});

    expect(root?.statusCode).toBe(200);
    expect(root?.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    expect(root?.body.toString()).toBe('<meta name="baseUriPath" content="/toggles" /><script src="/toggles/static/app-abc.js"></script>');
    expect(route?.body).toEqual(root?.body);
  });

  it('answers 304 to a browser that holds the current index.html', async () => {
    const first = await site.answer('GET', '/', {});
    const again = await site.answer('GET', '/', { 'if-none-match': first?.headers.etag });

    expect(again?.statusCode).toBe(304);
    expect(again?.body.length).toBe(0);
  });

  it('serves hashed assets for a year and the licence beside them', async () => {
    const script = await site.answer('GET', '/static/app-abc.js', {});
    const licence = await site.answer('HEAD', '/LICENSE', {});

    expect(script?.statusCode).toBe(200);
    expect(script?.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(script?.body.toString()).toBe('console.log(1)');
    expect(licence?.body.toString()).toBe('Apache License');
  });

  it('answers 404, not the app, for a missing asset or a path that leaves the build', async () => {
    for (const path of ['/static/gone.js', '/static/../../secret.txt', '/static/%2e%2e/%2e%2e/secret.txt', '/static//app-abc.js', '/static/%zz']) {
      const answer = await site.answer('GET', path, {});
      expect(answer?.statusCode, path).toBe(404);
      expect(answer?.body.toString(), path).toBe('Not Found\n');
    }
  });

  it('leaves API paths and other methods to the API', async () => {
    expect(await site.answer('GET', '/api/admin/user', {})).toBeUndefined();
    expect(await site.answer('GET', '/health', {})).toBeUndefined();
    expect(await site.answer('POST', '/projects/default', {})).toBeUndefined();
  });
});

describe('without the UI (the install step could not fetch it)', () => {
  it('says at / and on every UI path that the UI is missing and how to fetch it', async () => {
    const site = createUiSite(undefined, { baseUriPath: '' });

    const answer = await site.answer('GET', '/', {});

    expect(site.installed).toBe(false);
    expect(site.status).toContain('npm run ui:fetch');
    expect(answer?.statusCode).toBe(404);
    expect(answer?.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer?.body.toString()).toContain('<code>npm run ui:fetch</code>');
    expect(await site.answer('GET', '/api/admin/user', {})).toBeUndefined();
  });
});

describe('the admin UI compressed as CloudFront compresses it', () => {
  let dir: string;
  let site: UiSite;
  const script = `const rows = [${Array.from({ length: 400 }, (_, index) => `"row-${index}"`).join(',')}];\n`;
  beforeAll(() => {
    const made = fixture();
    dir = made.dir;
    writeFileSync(join(made.installed.buildDir, 'static', 'big-abc.js'), script);
    writeFileSync(join(made.installed.buildDir, 'logo.png'), Buffer.alloc(5_000, 7));
    site = createUiSite(made.installed, { baseUriPath: '' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a text file of 1,000 bytes or more in brotli when the browser takes it, else gzip, else as it is', async () => {
    const br = await site.answer('GET', '/static/big-abc.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    const gz = await site.answer('GET', '/static/big-abc.js', { 'accept-encoding': 'gzip' });
    const plain = await site.answer('GET', '/static/big-abc.js', {});
    const refused = await site.answer('GET', '/static/big-abc.js', { 'accept-encoding': 'br;q=0, gzip;q=0' });

    expect(br?.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding', 'content-type': 'text/javascript; charset=utf-8' });
    expect(brotliDecompressSync(br!.body).toString()).toBe(script);
    expect(br!.body.length).toBeLessThan(script.length / 2);
    expect(gz?.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz!.body).toString()).toBe(script);
    expect(plain?.headers['content-encoding']).toBeUndefined();
    expect(plain?.headers.vary).toBe('Accept-Encoding');
    expect(plain?.body.toString()).toBe(script);
    expect(refused?.headers['content-encoding']).toBeUndefined();
  });

  it('leaves small files and pictures as they are', async () => {
    const small = await site.answer('GET', '/static/app-abc.js', { 'accept-encoding': 'br' });
    const picture = await site.answer('GET', '/logo.png', { 'accept-encoding': 'br' });

    expect(small?.headers['content-encoding']).toBeUndefined();
    expect(small?.body.toString()).toBe('console.log(1)');
    expect(picture?.headers['content-encoding']).toBeUndefined();
    expect(picture?.body.length).toBe(5_000);
  });
});

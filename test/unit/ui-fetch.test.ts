import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedUi, uiDirOf, UI_RELEASE, type UiRelease } from '../../lib/ui/release.js';
import { IntegrityMismatch, installUi } from '../../local/ui/fetch.js';

/**
 * The install step against a registry of our own on 127.0.0.1 serving a small tarball shaped
 * as unleash-server's (the UI build, a LICENSE, server code that must stay out), through the
 * real `npm pack`.
 */
describe('the install step that fetches the admin UI', () => {
  let dir: string;
  let registry: Server;
  let registryUrl: string;
  let release: UiRelease;

  /** npm reading only our registry, with a cache of its own and no retries. */
  const npmEnv = (url: string) => ({
    ...process.env, npm_config_registry: `${url}/`, npm_config_cache: join(dir, 'npm-cache'), npm_config_fetch_retries: '0',
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ui-fetch-'));
    const pkg = join(dir, 'pkg', 'package');
    mkdirSync(join(pkg, 'frontend', 'build', 'static'), { recursive: true });
    mkdirSync(join(pkg, 'dist'));
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'ui-fixture', version: '1.0.0' }));
    writeFileSync(join(pkg, 'frontend', 'build', 'index.html'), '<meta name="baseUriPath" content="::baseUriPath::" />');
    writeFileSync(join(pkg, 'frontend', 'build', 'static', 'app-abc.js'), 'console.log(1)');
    writeFileSync(join(pkg, 'LICENSE'), 'Apache License');
    writeFileSync(join(pkg, 'dist', 'server.js'), 'server code');
    const tarball = join(dir, 'ui-fixture-1.0.0.tgz');
    await create({ gzip: true, file: tarball, cwd: join(dir, 'pkg'), portable: true }, ['package']);
    const bytes = readFileSync(tarball);
    const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
    release = { ...UI_RELEASE, packageName: 'ui-fixture', version: '1.0.0', integrity };

    registry = createServer((req, res) => {
      if (req.url === '/ui-fixture') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({
          name: 'ui-fixture', 'dist-tags': { latest: '1.0.0' },
          versions: { '1.0.0': { name: 'ui-fixture', version: '1.0.0', dist: { tarball: `${registryUrl}/ui-fixture/-/ui-fixture-1.0.0.tgz`, integrity } } },
        }));
      } else if (req.url === '/ui-fixture/-/ui-fixture-1.0.0.tgz') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(bytes);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => registry?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('extracts only the UI build and the licence, marks it complete, and does nothing the second time', async () => {
    const root = join(dir, 'fresh');

    const first = await installUi(root, release, npmEnv(registryUrl));
    const second = await installUi(root, release, npmEnv('http://127.0.0.1:9'));

    expect(first).toBe('installed');
    expect(second).toBe('present');
    expect(readdirSync(join(root, uiDirOf(release))).sort()).toEqual(['.integrity', 'LICENSE', 'build']);
    expect(readdirSync(join(root, uiDirOf(release), 'build')).sort()).toEqual(['index.html', 'static']);
    expect(installedUi(root, release)?.licenceFiles).toEqual({ LICENSE: join(root, uiDirOf(release), 'LICENSE') });
  }, 60_000);

  it('refuses a tarball that is not the pinned one and leaves nothing behind', async () => {
    const root = join(dir, 'tampered');
    const pinnedElsewhere = { ...release, integrity: UI_RELEASE.integrity };

    const refusal = await installUi(root, pinnedElsewhere, npmEnv(registryUrl)).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(IntegrityMismatch);
    expect(String(refusal)).toContain('is not the pinned one');
    expect(readdirSync(join(root, '.ui'))).toEqual([]);
  }, 60_000);

  it('fails with npm\'s own reason when the registry cannot be reached, leaving nothing behind', async () => {
    const root = join(dir, 'offline');

    const failure = await installUi(root, release, npmEnv('http://127.0.0.1:9')).catch((error: unknown) => error);

    expect(failure).not.toBeInstanceOf(IntegrityMismatch);
    expect(String(failure)).toMatch(/npm pack ui-fixture@1\.0\.0: npm error/);
    expect(existsSync(join(root, uiDirOf(release)))).toBe(false);
  }, 60_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UiBrowser } from '../support/ui-browser.js';

/**
 * The UI tests' browser (test/support/ui-browser.ts) reports a Content-Security-Policy violation
 * as a fault: a page on loopback under a policy that refuses its inline script and an image.
 */
describe('a UI test browser under a Content-Security-Policy', () => {
  let server: Server;
  let origin: string;
  let ui: UiBrowser | undefined;
  const artifacts = mkdtempSync(join(tmpdir(), 'ui-browser-csp-'));

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url?.startsWith('/static/')) {
        response.writeHead(200, { 'content-type': 'text/javascript' });
        // The global-object probe of the UI's main bundle, and any other eval.
        return response.end(request.url.startsWith('/static/index-')
          ? "try { Function('return this')(); } catch { document.title = 'probed'; }"
          : "try { eval('1 + 1'); } catch { document.title = 'probed'; }");
      }
      if (request.url?.startsWith('/eval/')) {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'self'; script-src 'self' 'report-sample'" });
        return response.end(`<!doctype html><title>t</title><script src="/static/${request.url.slice('/eval/'.length)}"></script>`);
      }
      const strict = request.url === '/strict';
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': strict ? "default-src 'self'; img-src 'self'" : "default-src 'self' 'unsafe-inline' data:",
      });
      response.end('<!doctype html><title>t</title><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><script>document.title = "ran";</script>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ui = await UiBrowser.launch([origin], [], artifacts);
  });

  afterAll(async () => {
    await ui?.close();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('records nothing on a page the policy allows', async () => {
    const { page } = await ui!.person('allowed');
    await page.goto(`${origin}/allowed`);
    await page.waitForFunction('document.title === "ran"');

    expect(await ui!.faults.take()).toEqual([]);
  });

  it("excuses only the UI bundle's refused global-object probe, not another eval", async () => {
    const { page } = await ui!.person('eval');
    await page.goto(`${origin}/eval/index-abc123.js`);
    await page.waitForFunction('document.title === "probed"');
    expect(await ui!.faults.take()).toEqual([]);

    await page.goto(`${origin}/eval/chart-abc123.js`);
    await page.waitForFunction('document.title === "probed"');
    await expect.poll(async () => (await ui!.faults.take()).join('\n'), { timeout: 10_000 })
      .toMatch(/violation on .*\/eval\/chart-abc123\.js: script-src refused eval .* 1 \+ 1/);
  });

  it('records each refused inline script and image, naming the directive', async () => {
    const { page } = await ui!.person('strict');
    await page.goto(`${origin}/strict`);
    await page.waitForLoadState('load');

    await expect.poll(async () => (await ui!.faults.take()).join('\n'), { timeout: 10_000 })
      .toMatch(/Content-Security-Policy violation on .*\/strict: script-src-elem refused \(inline\)|img-src refused data/);
    expect(await page.title()).toBe('t');
  });
});

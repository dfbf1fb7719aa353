import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedUi } from '../../lib/ui/release.js';
import { createUiSite, type UiSite } from '../../lib/ui/site.js';

/** The policy's directives by name. */
const directives = (policy: string | undefined) => Object.fromEntries(
  (policy ?? '').split(';').map((part) => part.trim().split(/\s+/)).filter(([name]) => name).map(([name, ...sources]) => [name, sources]),
);

describe("the admin UI's answers keep it out of frames and under a Content-Security-Policy", () => {
  let dir: string;
  let site: UiSite;
  const inline = "window.started = 'yes';";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ui-headers-'));
    const buildDir = join(dir, 'build');
    mkdirSync(join(buildDir, 'static'), { recursive: true });
    writeFileSync(join(buildDir, 'index.html'), `<script>${inline}</script><script type="module" src="/static/app-abc.js"></script>`);
    writeFileSync(join(buildDir, 'static', 'app-abc.js'), 'console.log(1)');
    writeFileSync(join(buildDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    site = createUiSite({ buildDir, licenceFiles: {} }, { baseUriPath: '' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers / with frame-ancestors none, X-Frame-Options DENY, and scripts from its own origin plus its inline script by hash', async () => {
    const root = await site.answer('GET', '/', {});
    const policy = directives(root?.headers['content-security-policy']);

    expect(root?.statusCode).toBe(200);
    expect(root?.headers['x-frame-options']).toBe('DENY');
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['script-src']).toEqual(["'self'", "'report-sample'", `'sha256-${createHash('sha256').update(inline).digest('base64')}'`]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
  });

  it('sends the same headers with its other files, a 304 and a 404', async () => {
    const root = await site.answer('GET', '/', {});
    for (const answer of [
      await site.answer('GET', '/logo.svg', {}),
      await site.answer('GET', '/static/app-abc.js', {}),
      await site.answer('GET', '/', { 'if-none-match': root?.headers.etag }),
      await site.answer('GET', '/static/gone.js', {}),
    ]) {
      expect(answerHeaders(answer)).toEqual(answerHeaders(root));
    }
  });

  it("allows what Unleash's 7.6.5 build loads from elsewhere, and no inline or eval'd script", async () => {
    const installed = installedUi();
    if (!installed) return expect.fail('The admin UI is not installed: run `npm run ui:fetch`');
    const root = await createUiSite(installed, { baseUriPath: '' }).answer('GET', '/', {});
    const policy = directives(root?.headers['content-security-policy']);

    expect(policy['script-src']).toEqual(["'self'", "'report-sample'"]);
    expect(policy['style-src']).toContain('https://fonts.googleapis.com');
    expect(policy['font-src']).toEqual(["'self'", 'https://fonts.gstatic.com']);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'https://gravatar.com']);
    expect(policy['connect-src']).toEqual(["'self'"]);
    // Logging out posts a form that single sign-out redirects to the provider, wherever it is.
    expect(policy).not.toHaveProperty('form-action');
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(root?.headers['x-frame-options']).toBe('DENY');
  });
});

function answerHeaders(answer: { headers: Record<string, string> } | undefined) {
  return { csp: answer?.headers['content-security-policy'], frames: answer?.headers['x-frame-options'], sniff: answer?.headers['x-content-type-options'] };
}

import { describe, expect, it } from 'vitest';
import { fillIndexHtml } from '../../lib/ui/index-html.js';

/** The placeholders of unleash-server 7.6.5's frontend/build/index.html, as they stand in it. */
const TEMPLATE = [
  '<link rel="icon" href="::faviconPrefix::/favicon.ico" />',
  '<meta name="baseUriPath" content="::baseUriPath::" />',
  '<meta name="cdnPrefix" content="::cdnPrefix::" />',
  '<meta name="uiFlags" content="::uiFlags::" />',
  '<meta name="unleashToken" content="::unleashToken::" />',
  '<script type="module" crossorigin src="/static/index-Sdmd_3Nu.js"></script>',
  '<link rel="stylesheet" crossorigin href="/static/style-D9DNbuD5.css">',
].join('\n');

describe("index.html filled as Unleash's server fills it", () => {
  it('at the root: an empty base path, no CDN, empty flags, no token, assets at /static', () => {
    expect(fillIndexHtml(TEMPLATE, { baseUriPath: '' })).toBe([
      '<link rel="icon" href="/favicon.ico" />',
      '<meta name="baseUriPath" content="" />',
      '<meta name="cdnPrefix" content="" />',
      '<meta name="uiFlags" content="%7B%7D" />',
      '<meta name="unleashToken" content="" />',
      '<script type="module" crossorigin src="/static/index-Sdmd_3Nu.js"></script>',
      '<link rel="stylesheet" crossorigin href="/static/style-D9DNbuD5.css">',
    ].join('\n'));
  });

  it('under a base path: the app routes under it and loads its assets from under it', () => {
    const html = fillIndexHtml(TEMPLATE, { baseUriPath: '/toggles' });

    expect(html).toContain('<meta name="baseUriPath" content="/toggles" />');
    expect(html).toContain('src="/toggles/static/index-Sdmd_3Nu.js"');
    expect(html).toContain('href="/toggles/static/style-D9DNbuD5.css"');
    // Unleash prefixes the favicon with the CDN prefix only, never the base path.
    expect(html).toContain('href="/favicon.ico"');
  });

  it('from a CDN: assets and favicon from the prefix; flags encoded so the app can decodeURI and parse them', () => {
    const html = fillIndexHtml(TEMPLATE, { baseUriPath: '/toggles', cdnPrefix: 'https://cdn.example.com/ui', uiFlags: { T: false, note: 'a "b"' } });

    expect(html).toContain('src="https://cdn.example.com/ui/static/index-Sdmd_3Nu.js"');
    expect(html).toContain('href="https://cdn.example.com/ui/favicon.ico"');
    const flags = /name="uiFlags" content="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(JSON.parse(decodeURI(flags))).toEqual({ T: false, note: 'a "b"' });
  });

  it('keeps configuration from breaking out of the attribute it lands in', () => {
    const html = fillIndexHtml(TEMPLATE, { baseUriPath: '/a"><script>$&' });

    expect(html).toContain('content="/a&quot;&gt;&lt;script&gt;$&amp;"');
    expect(html).not.toContain('"><script>');
  });

  describe("the API requests every page makes first, preloaded", () => {
    const PAGE = ['<!DOCTYPE html>', '<html lang="en">', '    <head>', '        <meta charset="utf-8" />', TEMPLATE, '    </head>', '</html>'].join('\n');
    const preloads = (html: string) => [...html.matchAll(/<link rel="preload"[^>]*>/g)].map(([link]) => link);

    it('at the top of <head>, as requests a plain fetch() of the app reuses: cors, same-origin credentials', () => {
      const html = fillIndexHtml(PAGE, { baseUriPath: '' });

      expect(preloads(html)).toEqual([
        '<link rel="preload" as="fetch" crossorigin href="/api/admin/user" />',
        '<link rel="preload" as="fetch" crossorigin href="/api/admin/ui-config" />',
      ]);
      expect(html.indexOf('rel="preload"')).toBeGreaterThan(html.indexOf('<head>'));
      expect(html.indexOf('rel="preload"')).toBeLessThan(html.indexOf('<meta charset'));
      expect(html).not.toContain('use-credentials');
    });

    it('under the base path the app calls the API under, escaped for the attribute', () => {
      expect(preloads(fillIndexHtml(PAGE, { baseUriPath: '/toggles' }))).toEqual([
        '<link rel="preload" as="fetch" crossorigin href="/toggles/api/admin/user" />',
        '<link rel="preload" as="fetch" crossorigin href="/toggles/api/admin/ui-config" />',
      ]);
      expect(preloads(fillIndexHtml(PAGE, { baseUriPath: '/a"b' }))[0]).toBe('<link rel="preload" as="fetch" crossorigin href="/a&quot;b/api/admin/user" />');
    });

    it('left out when switched off, the page otherwise the same', () => {
      const without = fillIndexHtml(PAGE, { baseUriPath: '', preloadApi: false });

      expect(preloads(without)).toEqual([]);
      expect(fillIndexHtml(PAGE, { baseUriPath: '' }).replace(/\n\s*<link rel="preload"[^>]*>/g, '')).toBe(without);
    });
  });
});

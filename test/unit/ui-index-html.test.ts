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
});

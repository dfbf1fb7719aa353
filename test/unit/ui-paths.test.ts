import { describe, expect, it } from 'vitest';
import { routeTable } from '../../lib/route-table.js';
import { cacheControlFor, contentTypeFor, isApiPath, uiObjectKey } from '../../lib/ui/paths.js';

const entries = { files: ['index.html', 'favicon.ico', 'logo.png', 'LICENSE'], folders: ['static', 'flags-normal', 'openapi-static'] };

describe('which paths are the API and which the admin UI (the local server and CloudFront alike)', () => {
  it('sends every route of the route table to the API, so none ends up behind the UI', () => {
    const uncovered = Object.values(routeTable)
      .map((route) => route.path.replace(/\{[^}]+\}/g, 'x'))
      .filter((path) => !isApiPath(path));

    expect(uncovered).toEqual([]);
  });

  it('sends the API prefixes the UI calls to the API, unknown paths under them included', () => {
    for (const path of ['/api/admin/user', '/api/nowhere', '/auth/simple/login', '/logout', '/invite/abc/validate', '/health', '/docs', '/docs/openapi.json']) {
      expect(isApiPath(path), path).toBe(true);
    }
  });

  it('leaves the app and its client-side routes to the UI, even where a route merely starts like an API prefix', () => {
    for (const path of ['/', '/projects/default', '/static/index-x.js', '/login', '/new-user', '/healthy', '/apis', '/documentation', '/logout/x', '/API/admin']) {
      expect(isApiPath(path), path).toBe(false);
    }
  });
});

describe('the object a UI path is answered with', () => {
  it('serves the files at the top of the UI and anything under its folders as themselves', () => {
    expect(uiObjectKey('/favicon.ico', entries)).toBe('favicon.ico');
    expect(uiObjectKey('/LICENSE', entries)).toBe('LICENSE');
    expect(uiObjectKey('/static/index-Sdmd_3Nu.js', entries)).toBe('static/index-Sdmd_3Nu.js');
    expect(uiObjectKey('/static/missing.js', entries)).toBe('static/missing.js');
    expect(uiObjectKey('/flags-normal/se.png', entries)).toBe('flags-normal/se.png');
  });

  it('answers every client-side route with index.html, dotted feature names included', () => {
    for (const path of ['/', '', '/projects/default', '/projects/default/features/checkout.v2', '/static', '/static/', '/favicon.ico/x', '/robots.txt', '/index.html']) {
      expect(uiObjectKey(path, entries), path).toBe('index.html');
    }
  });
});

describe('how UI files are cached and typed', () => {
  it('keeps hashed assets for a year and revalidates index.html and the unhashed files every time', () => {
    expect(cacheControlFor('static/index-Sdmd_3Nu.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('index.html')).toBe('no-cache');
    expect(cacheControlFor('favicon.ico')).toBe('no-cache');
  });

  it('names the content type browsers need to run and show each kind of file', () => {
    expect(contentTypeFor('static/index-Sdmd_3Nu.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('static/style-D9DNbuD5.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeFor('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('static/Logo-go-DsgFcp5h.svg')).toBe('image/svg+xml');
    expect(contentTypeFor('favicon.ico')).toBe('image/x-icon');
    expect(contentTypeFor('logo.png')).toBe('image/png');
    expect(contentTypeFor('LICENSE')).toBe('text/plain; charset=utf-8');
    expect(contentTypeFor('static/blob.bin')).toBe('application/octet-stream');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOwnPath, landingOf } from '../../lib/oidc/landing.js';

/** Where the service is reached: at a domain's root, and under a base path. */
const PUBLIC_URLS = ['http://localhost:4242', 'https://flags.example.com/unleash'] as const;

/** The pieces hostile redirects are made of: slashes, dot segments and their encodings, other hosts, whitespace. */
const pieces = fc.constantFrom(
  '/', '//', '\\', '.', '..', '%2e', '%2E', '%2e%2e', '.%2e', '%2f', '%2F', '%5c', '%5C', '\t', '\n', ' ', '%09', '%20',
  'evil.example', '@evil.example', 'https:', 'http:', 'javascript:', ':', '?', '#', 'projects', 'unleash', 'a', '%00', 'é', '\u3002',
);
const hostileRedirect = fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(''));
/** Paths of segments: empty ones (`//`) and dot segments in every spelling, between ordinary names. */
const segments = fc.constantFrom('', '', '.', '..', '%2e', '%2E', '%2e%2e', '.%2e', '%2E.', 'a', 'unleash', 'evil.example', '\\', '%5c');
const dottedPath = fc.array(segments, { minLength: 1, maxLength: 8 }).map((parts) => `/${parts.join('/')}`);

describe('landingOf: where a single sign-on login may land', () => {
  it.each(PUBLIC_URLS)('always answers one path on %s, whatever the redirect', (publicUrl) => {
    const root = new URL(publicUrl);
    const start = `${root.pathname.replace(/\/+$/, '')}/`;
    fc.assert(
      fc.property(fc.oneof(hostileRedirect, dottedPath, fc.string({ maxLength: 40 })), (redirect) => {
        const landing = landingOf(redirect, publicUrl);

        expect(isOwnPath(landing)).toBe(true);
        // A browser at any site resolves it to that same site, under the service's path.
        const seen = new URL(landing, 'https://browser.invalid/');
        expect(seen.host).toBe('browser.invalid');
        expect(new URL(landing, root.origin).pathname.startsWith(start)).toBe(true);
        // An answer is its own landing: nothing is left for a second resolution to change.
        expect(landingOf(landing, publicUrl)).toBe(landing);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['/a/..//evil.example', '/'],
    ['/./..//x', '/'],
    ['/%2e%2e//x', '/'],
    ['/%2E./%2e%2e//evil.example/', '/'],
    ['/projects/../features?x=1#y', '/features?x=1#y'],
    ['/projects/default', '/projects/default'],
  ])('%s lands on %s', (redirect, landing) => {
    expect(landingOf(redirect, 'http://localhost:4242')).toBe(landing);
  });

  it('keeps a landing of up to 512 characters and lands a longer one on the start: the login under way carries it in a cookie', () => {
    const path = (length: number) => `/projects/${'a'.repeat(length - '/projects/'.length)}`;

    expect(landingOf(path(512), 'http://localhost:4242')).toBe(path(512));
    expect(landingOf(path(513), 'http://localhost:4242')).toBe('/');
    // What counts is the landing as resolved: characters a browser would encode count encoded.
    expect(landingOf(`/projects/${'é'.repeat(100)}`, 'http://localhost:4242')).toBe('/');
    expect(landingOf(path(505), 'https://flags.example.com/unleash')).toBe('/unleash/');
  });

  it('keeps a landing under the base path', () => {
    expect(landingOf('/projects', 'https://flags.example.com/unleash')).toBe('/unleash/projects');
    expect(landingOf('/unleash/projects', 'https://flags.example.com/unleash/')).toBe('/unleash/projects');
    expect(landingOf('/unleash/..//evil.example', 'https://flags.example.com/unleash')).toBe('/unleash/');
  });
});

describe('isOwnPath', () => {
  it('takes one slash and then anything but a slash or backslash', () => {
    expect(['/', '/x', '/login?errorMsg=a'].every(isOwnPath)).toBe(true);
    expect(['//x', '/\\x', 'x', 'https://x', ''].some(isOwnPath)).toBe(false);
  });
});

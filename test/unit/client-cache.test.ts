import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../lib/bounded-cache.js';
import { revisionNamedIn } from '../../lib/client/features-service.js';
import { loadConfig } from '../../lib/config.js';
import { acceptsGzip } from '../../lib/http/accept-encoding.js';
import { TokenAuthenticator } from '../../lib/tokens/authenticator.js';
import { hashSecret, type ApiToken } from '../../lib/tokens/model.js';

describe('the bounded cache', () => {
  it('forgets the least recently used entries once their bytes exceed the bound', () => {
    const cache = new BoundedCache<string, string>({ maxEntries: 10, maxWeight: 10, weigh: (text) => text.length });
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    cache.get('a');
    cache.set('c', 'cccc');

    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaa');
    expect(cache.weight).toBe(8);
  });

  it('does not store a value heavier than the whole bound, and keeps the rest', () => {
    const cache = new BoundedCache<string, string>({ maxEntries: 10, maxWeight: 10, weigh: (text) => text.length });
    cache.set('small', 'ss');

    const stored = cache.set('huge', 'x'.repeat(11));

    expect(stored).toBe(false);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBe('ss');
  });

  it('re-weighs a replaced entry', () => {
    const cache = new BoundedCache<string, string>({ maxEntries: 10, maxWeight: 100, weigh: (text) => text.length });
    cache.set('a', 'x'.repeat(40));
    cache.set('a', 'x'.repeat(5));

    expect(cache.weight).toBe(5);
    expect(cache.size).toBe(1);
  });
});

describe('content negotiation', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['*', true],
    ['gzip;q=0, *', false],
    ['identity', false],
    ['*;q=0', false],
    ['', false],
    [undefined, false],
  ])('Accept-Encoding %j admits gzip: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('the revision an If-None-Match names', () => {
  it.each([
    ['"a1b2c3d4:42"', 42],
    ['W/"a1b2c3d4:42"', 0],
    ['"a1b2c3d4:42:v1"', 0],
    ['"not-ours"', 0],
    [undefined, 0],
  ])('%j names revision %i', (header, revision) => {
    expect(revisionNamedIn(header)).toBe(revision);
  });
});

describe('the token cache', () => {
  const secret = 'default:development.0123456789abcdef';
  const token: ApiToken = {
    secretHash: hashSecret(secret), tokenId: 'id', secretHint: 'hint', tokenName: 'sdk', type: 'client',
    environment: 'development', projects: ['default'], createdAt: '2026-01-01T00:00:00.000Z', expiresAt: null, seenAt: null,
  };

  function setup(ttlMs: number, stored: ApiToken | null = token) {
    let now = Date.parse('2026-06-01T00:00:00.000Z');
    let lookups = 0;
    let current: ApiToken | undefined = stored ?? undefined;
    const store = { findByHash: async () => { lookups += 1; return current; } };
    const authenticator = new TokenAuthenticator(store, '', { ttlMs }, () => new Date(now));
    return {
      authenticator,
      store,
      lookups: () => lookups,
      advance: (ms: number) => { now += ms; },
      replace: (next: ApiToken | undefined) => { current = next; },
    };
  }

  it('looks a secret up once per TTL, concurrent requests sharing the read', async () => {
    const t = setup(60_000);

    await Promise.all([t.authenticator.authenticate(secret), t.authenticator.authenticate(secret)]);
    t.advance(59_999);
    const { caller } = await t.authenticator.authenticate(`Bearer ${secret}`);

    expect(caller).toEqual({ tokenName: 'sdk', type: 'client', environment: 'development', projects: ['default'] });
    expect(t.lookups()).toBe(1);
  });

  it('looks it up again after the TTL, so another container’s delete takes effect', async () => {
    const t = setup(60_000);
    await t.authenticator.authenticate(secret);

    t.replace(undefined);
    t.advance(60_000);

    await expect(t.authenticator.authenticate(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(t.lookups()).toBe(2);
  });

  it('forgets a secret at once when told (a delete in this process)', async () => {
    const t = setup(60_000);
    await t.authenticator.authenticate(secret);

    t.replace(undefined);
    t.authenticator.forget(token.secretHash);

    await expect(t.authenticator.authenticate(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('drops what it remembered when the token-change counter moved, long before the TTL', async () => {
    const t = setup(60_000);
    let tokenChanges = 3;
    let stateReads = 0;
    const changes = { state: async () => { stateReads += 1; return { revision: 9, tokenChanges, shards: new Map() }; } };
    const authenticator = new TokenAuthenticator(t.store, '', { ttlMs: 60_000, changes });
    await authenticator.authenticate(secret);
    await authenticator.authenticate(secret);

    t.replace(undefined);
    tokenChanges = 4;

    await expect(authenticator.authenticate(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(t.lookups()).toBe(2);
    expect(stateReads).toBe(3);
  });

  it('hands on the revision its check read, so the SDK path need not read it again', async () => {
    const t = setup(60_000);
    const changes = { state: async () => ({ revision: 41, tokenChanges: 0, shards: new Map() }) };
    const authenticator = new TokenAuthenticator(t.store, '', { ttlMs: 60_000, changes });

    const checked = await authenticator.authenticate(secret);

    expect(checked.revision).toBe(41);
    expect((await t.authenticator.authenticate(secret)).revision).toBeUndefined();
  });

  it('remembers unknown secrets too, within the bound', async () => {
    const t = setup(60_000, null);

    await expect(t.authenticator.authenticate(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(t.authenticator.authenticate(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });

    expect(t.lookups()).toBe(1);
  });

  it('checks expiry on every request, not once per TTL', async () => {
    const t = setup(60_000, { ...token, expiresAt: '2026-06-01T00:00:30.000Z' });
    await t.authenticator.authenticate(secret);

    t.advance(30_000);

    await expect(t.authenticator.authenticate(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(t.lookups()).toBe(1);
  });

  it('looks up on every request with a TTL of 0', async () => {
    const t = setup(0);

    await t.authenticator.authenticate(secret);
    await t.authenticator.authenticate(secret);

    expect(t.lookups()).toBe(2);
  });
});

describe('the SDK path settings', () => {
  it('check the revision every second and trust a token for a minute unless told otherwise; 0 means every time', () => {
    const defaults = loadConfig({ TABLE_NAME: 'flags' });
    const strict = loadConfig({ TABLE_NAME: 'flags', REVISION_CHECK_INTERVAL_MS: '0', TOKEN_CACHE_TTL_MS: '0' });

    expect([defaults.revisionCheckIntervalMs, defaults.tokenCacheTtlMs]).toEqual([1000, 60_000]);
    expect([strict.revisionCheckIntervalMs, strict.tokenCacheTtlMs]).toEqual([0, 0]);
    expect(() => loadConfig({ TABLE_NAME: 'flags', REVISION_CHECK_INTERVAL_MS: '-1' })).toThrow(/REVISION_CHECK_INTERVAL_MS/);
  });
});

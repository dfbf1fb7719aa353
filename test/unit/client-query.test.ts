import { describe, expect, it } from 'vitest';
import { clientFeaturesQuerySchema, clientMetricsSchema, clientRegisterSchema } from '../../lib/client/schemas.js';
import { BoundedCache } from '../../lib/bounded-cache.js';
import { hourOf, isStorableName, reportingEnvironment } from '../../lib/client/metrics-service.js';
import { queryHash, resolveQuery, speaksSegmentList } from '../../lib/client/query.js';
import type { Caller } from '../../lib/tokens/model.js';

const admin: Caller = { tokenName: 'a', type: 'admin', environment: '*', projects: ['*'] };
const allProjects: Caller = { tokenName: 'c', type: 'client', environment: 'production', projects: ['*'] };
const oneProject: Caller = { tokenName: 'p', type: 'client', environment: 'development', projects: ['web'] };
const backend: Caller = { tokenName: 'b', type: 'backend', environment: 'staging', projects: ['api', 'web'] };

describe('SDK scope from the token record', () => {
  it('serves an SDK token its own environment whatever the query says', () => {
    expect(resolveQuery(allProjects, { environment: 'development' }).environment).toBe('production');
    expect(resolveQuery(backend, {}).environment).toBe('staging');
  });

  it('lets an admin token choose the environment, development when it names none', () => {
    expect(resolveQuery(admin, { environment: 'production' }).environment).toBe('production');
    expect(resolveQuery(admin, {}).environment).toBe('development');
  });

  it('honours ?project for tokens on every project and overrides it for project-scoped tokens', () => {
    expect(resolveQuery(admin, { projects: ['b', 'a', 'a'] }).projects).toEqual(['a', 'b']);
    expect(resolveQuery(allProjects, { projects: ['web'] }).projects).toEqual(['web']);
    expect(resolveQuery(allProjects, {}).projects).toBeUndefined();
    expect(resolveQuery(oneProject, { projects: ['api'] }).projects).toEqual(['web']);
    expect(resolveQuery(backend, {}).projects).toEqual(['api', 'web']);
  });

  it('inlines segment constraints unless the client spec is 4.2.0 or later', () => {
    expect(['4.2.0', '5.2.0', '4.10.1', '10.0.0', 'v4.2.0'].map(speaksSegmentList)).toEqual([true, true, true, true, true]);
    expect([undefined, '', '4.1.9', '3.9.0', 'banana', '4'].map(speaksSegmentList)).toEqual([false, false, false, false, false, false]);
  });

  it('hashes equal resolved queries alike and different scopes or segment modes apart', () => {
    const same = [resolveQuery(oneProject, { projects: ['x'] }), resolveQuery(oneProject, {})];
    const inline = resolveQuery(oneProject, { clientSpec: '3.0.0' });
    const list = resolveQuery(oneProject, { clientSpec: '5.2.0' });

    expect(queryHash(same[0]!)).toBe(queryHash(same[1]!));
    expect(queryHash(inline)).not.toBe(queryHash(list));
    expect(queryHash(resolveQuery(admin, {}))).not.toBe(queryHash(resolveQuery(admin, { environment: 'production' })));
    expect(queryHash(list)).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe('the E17 query string', () => {
  it('splits repeated projects and tags that API Gateway joined with commas', () => {
    const parsed = clientFeaturesQuerySchema.parse({ project: 'a,b', tag: 'simple:x,team:a,b', namePrefix: 'web' });

    expect(parsed.project).toEqual(['a', 'b']);
    expect(parsed.tag).toEqual([{ type: 'simple', value: 'x' }, { type: 'team', value: 'a,b' }]);
    expect(parsed.namePrefix).toBe('web');
  });

  it('refuses a tag that is not type:value, naming the property', () => {
    const result = clientFeaturesQuerySchema.safeParse({ tag: 'simple' });

    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['tag', 0]);
  });

  it('drops unknown parameters', () => {
    expect(clientFeaturesQuerySchema.parse({ inlineSegmentConstraints: 'true', x: '1' })).toEqual({});
  });
});

describe('register and metrics bodies are never refused', () => {
  it('keeps what fits and drops what does not', () => {
    expect(clientRegisterSchema.parse({ appName: 'app', strategies: 'nope', interval: 'x', extra: 1 })).toMatchObject({
      appName: 'app', strategies: undefined, interval: undefined, extra: 1,
    });
    expect(clientMetricsSchema.parse({ bucket: { toggles: { f: { yes: 2, no: -1 }, g: 'odd' } } }).bucket?.toggles).toEqual({
      f: { yes: 2, no: 0 }, g: { yes: 0, no: 0 },
    });
  });

  it('turns a body that is not an object into an empty report', () => {
    for (const body of [undefined, null, 'text', [1, 2], 42]) {
      expect(clientRegisterSchema.parse(body)).toEqual({});
      expect(clientMetricsSchema.parse(body)).toEqual({});
    }
  });
});

describe('metrics rules', () => {
  it('counts for the SDK token’s environment, or the body’s for an admin token', () => {
    expect(reportingEnvironment(allProjects, 'development')).toBe('production');
    expect(reportingEnvironment(admin, 'staging')).toBe('staging');
    expect(reportingEnvironment(admin, undefined)).toBe('development');
    expect(reportingEnvironment(admin, 'not#storable')).toBe('development');
  });

  it('files a bucket under the UTC hour of its start, or now when the start is unusable', () => {
    const now = new Date('2026-11-22T10:30:00.000Z');

    expect(hourOf('2026-11-22T09:59:59.000Z', now)).toBe('2026-11-22T09');
    expect(hourOf(Date.parse('2026-11-21T23:00:00.000Z'), now)).toBe('2026-11-21T23');
    expect(hourOf('yesterday', now)).toBe('2026-11-22T10');
    expect(hourOf('2026-11-23T00:00:00.000Z', now)).toBe('2026-11-22T10');
    expect(hourOf(undefined, now)).toBe('2026-11-22T10');
  });

  it('stores only names that can be feature or environment names', () => {
    expect(['flag-1', 'a.b_c~'].every(isStorableName)).toBe(true);
    expect(['', 'has#hash', 'has space', 'x'.repeat(101)].some(isStorableName)).toBe(false);
  });
});

describe('the payload cache', () => {
  it('holds at most its capacity and forgets the least recently used entry first', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);

    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });
});

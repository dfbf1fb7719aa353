import { describe, expect, it } from 'vitest';
import { matchRoute, parseApiMappingKey, pathUnderMapping } from '../../local/match-route.js';

describe('local route matching, as API Gateway matches', () => {
  it('matches a literal path', () => {
    expect(matchRoute('GET', '/api/admin/strategies')?.operationId).toBe('listStrategyTypes');
  });

  it('extracts and decodes path parameters', () => {
    expect(matchRoute('DELETE', '/api/admin/api-tokens/%2A%3A%2A.abc')).toEqual({
      operationId: 'deleteApiToken',
      params: { token: '*:*.abc' },
    });
  });

  it('prefers a longer literal route to a shorter parameterised one, and tolerates a trailing slash', () => {
    expect(matchRoute('POST', '/api/admin/strategies/x/deprecate/')?.operationId).toBe('deprecateStrategyType');
  });

  it('falls back to the greedy /api route for unknown paths and methods', () => {
    expect(matchRoute('DELETE', '/api/admin/strategies')?.operationId).toBe('unknownApiPath');
    expect(matchRoute('GET', '/api/admin/a/b/c')?.params).toEqual({ proxy: 'admin/a/b/c' });
  });

  it('matches nothing outside the route table', () => {
    expect(matchRoute('GET', '/favicon.ico')).toBeUndefined();
  });
});

describe('a custom domain\'s API mapping, as API Gateway selects it', () => {
  it('takes a key with or without slashes around it, of one or several levels', () => {
    expect(parseApiMappingKey('toggles')).toBe('toggles');
    expect(parseApiMappingKey(' /toggles/ ')).toBe('toggles');
    expect(parseApiMappingKey('flags/v1')).toBe('flags/v1');
    expect(parseApiMappingKey("a$-_.+!*'()z")).toBe("a$-_.+!*'()z");
  });

  it('treats an empty key as no mapping (the API at the root)', () => {
    expect(parseApiMappingKey(undefined)).toBeUndefined();
    expect(parseApiMappingKey('')).toBeUndefined();
    expect(parseApiMappingKey('/')).toBeUndefined();
  });

  it('refuses a key API Gateway would refuse', () => {
    expect(() => parseApiMappingKey('to ggles')).toThrow(/API_MAPPING_KEY/);
    expect(() => parseApiMappingKey('a//b')).toThrow(/API_MAPPING_KEY/);
    expect(() => parseApiMappingKey('a?b')).toThrow(/API_MAPPING_KEY/);
  });

  it('routes the path below the key, and nothing outside it', () => {
    expect(pathUnderMapping('/toggles/api/client/features', 'toggles')).toBe('/api/client/features');
    expect(pathUnderMapping('/toggles', 'toggles')).toBe('/');
    expect(pathUnderMapping('/flags/v1/api/admin/projects', 'flags/v1')).toBe('/api/admin/projects');
    expect(pathUnderMapping('/api/client/features', 'toggles')).toBeUndefined();
    expect(pathUnderMapping('/togglesx/api/client/features', 'toggles')).toBeUndefined();
    expect(pathUnderMapping('/api/client/features', undefined)).toBe('/api/client/features');
  });

  it('matches the route below the key as it would at the root', () => {
    const routed = pathUnderMapping('/toggles/api/admin/projects/p1', 'toggles');
    expect(routed && matchRoute('GET', routed)).toEqual({ operationId: 'getProjectOverview', params: { projectId: 'p1' } });
  });
});

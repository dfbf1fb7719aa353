import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../scripts/local/match-route.js';

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

import { describe, expect, it } from 'vitest';
import { routeTable } from '../../lib/route-table.js';
import type { RouteSpec } from '../../lib/http/route.js';
import { maxBodyBytesOf } from '../../lib/http/body-limit.js';
import { BODY_LIMITS } from '../../lib/limits.js';
import { MAX_BODY_BYTES as LOCAL_SERVER_CAP } from '../../local/http-server.js';

/** API Gateway HTTP APIs take bodies up to 10 MB: the chain has to enforce its own limits. */
const API_GATEWAY_CAP = 10 * 1024 * 1024;

describe('body limits', () => {
  const rows = Object.entries(routeTable as Record<string, RouteSpec>).filter(([, spec]) => spec.body);

  it('are 500 KB for the batch endpoints and SDK metrics, 100 KB for every other body', () => {
    const batch = rows.filter(([, spec]) => maxBodyBytesOf(spec) === BODY_LIMITS.batch).map(([, spec]) => spec.path).sort();

    expect(batch).toEqual(['/api/admin/features-batch/export', '/api/admin/features-batch/import', '/api/admin/features-batch/validate', '/api/client/metrics', '/api/client/metrics/bulk', '/api/client/metrics/edge', '/api/frontend/client/metrics']);
    for (const [id, spec] of rows) expect([BODY_LIMITS.default, BODY_LIMITS.batch], id).toContain(maxBodyBytesOf(spec));
  });

  it('sit below what the local server and API Gateway let through, so the chain is the one that answers', () => {
    for (const [id, spec] of rows) {
      expect(maxBodyBytesOf(spec), id).toBeLessThan(LOCAL_SERVER_CAP);
      expect(maxBodyBytesOf(spec), id).toBeLessThan(API_GATEWAY_CAP);
    }
  });
});

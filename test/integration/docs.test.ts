import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../lib/api/route-table.js';
import { openApiDocument } from '../../lib/docs/api-description.js';
import { apiClient } from '../support/api.js';
import { testServices } from '../support/services.js';

const call = apiClient(testServices());
const swaggerUiDist = (file: string) => readFileSync(`node_modules/swagger-ui-dist/${file}`, 'utf8');

describe('the API description and its page, through the instance handler', () => {
  it('serves the OpenAPI document without a token', async () => {
    const res = await call({ method: 'GET', path: '/docs/openapi.json' });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toEqual(openApiDocument());
  });

  it('serves a Swagger UI page that loads only files the service serves itself', async () => {
    const res = await call({ method: 'GET', path: '/docs' });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const sources = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url);
    expect(sources.sort()).toEqual([routeTable.getSwaggerUiScript.path, routeTable.getSwaggerUiStyles.path].sort());
    expect(res.text).toContain(`url: "${routeTable.getOpenApiDocument.path}"`);
    // Otherwise Swagger UI sends the document to an outside validator for its badge.
    expect(res.text).toContain('validatorUrl: null');
  });

  it.each([
    ['/docs/swagger-ui.css', 'swagger-ui.css', 'text/css'],
    ['/docs/swagger-ui-bundle.js', 'swagger-ui-bundle.js', 'text/javascript'],
  ])('serves %s from swagger-ui-dist, cacheable', async (path, file, type) => {
    const res = await call({ method: 'GET', path });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain(type);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe(swaggerUiDist(file));
  });

  it.each([['/docs/swagger-ui-bundle.js'], ['/docs/openapi.json']])('gzips %s for a client that takes gzip', async (path) => {
    const plain = await call({ method: 'GET', path });

    const zipped = await call({ method: 'GET', path, headers: { 'accept-encoding': 'gzip, deflate, br' } });

    expect(zipped.status).toBe(200);
    expect(zipped.isBase64Encoded).toBe(true);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(zipped.text).toBe(plain.text);
  });
});

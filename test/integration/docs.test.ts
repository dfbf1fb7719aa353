import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../lib/route-table.js';
import { openApiDocument } from '../../lib/docs/api-description.js';
import { apiClient, type ApiRequest } from '../support/api.js';
import { adminToken, testServices } from '../support/services.js';

const services = testServices();
const call = apiClient(services);
const swaggerUiDist = (file: string) => readFileSync(`node_modules/swagger-ui-dist/${file}`, 'utf8');

describe('the API description and its page, through the instance handler', () => {
  it('serves the OpenAPI document without a token', async () => {
    const res = await call({ method: 'GET', path: '/docs/openapi.json' });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toEqual(openApiDocument(routeTable));
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

  it('serves the page under a Content-Security-Policy that allows only its own files and the two inline blocks it names by hash', async () => {
    const res = await call({ method: 'GET', path: '/docs' });

    const policy = directives(res.headers['content-security-policy']);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
    // No 'unsafe-inline' and no 'unsafe-eval': only the page's own inline blocks run, named by their hashes.
    const inlineScripts = inlineBlocks(res.text, 'script');
    const inlineStyles = inlineBlocks(res.text, 'style');
    expect(policy.get('script-src')).toEqual(["'self'", ...inlineScripts.map(sha256Source)]);
    expect(policy.get('style-src')).toEqual(["'self'", ...inlineStyles.map(sha256Source)]);
    expect(inlineScripts).toHaveLength(1);
  });

  it('forbids framing, sniffing and referrers on the page', async () => {
    const res = await call({ method: 'GET', path: '/docs' });

    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it.each([
    ['the OpenAPI document', { method: 'GET', path: '/docs/openapi.json' }],
    ['a Swagger UI file', { method: 'GET', path: '/docs/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip' } }],
    ['an admin answer', { method: 'GET', path: '/api/admin/strategies', admin: true }],
    ['an error', { method: 'GET', path: '/api/admin/strategies' }],
    ['a health check', { method: 'GET', path: '/health' }],
  ])('tells browsers not to sniff the type of %s', async (_what, { admin, ...request }: ApiRequest & { admin?: boolean }) => {
    const res = await call({ ...request, token: admin ? await adminToken(services) : undefined });

    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

/** A Content-Security-Policy header as directive name → its sources. */
function directives(header: string | undefined): Map<string, string[]> {
  const entries = (header ?? '').split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]);
  return new Map(entries.map(([name, ...sources]) => [name as string, sources]));
}

function inlineBlocks(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map(([, content]) => content as string);
}

const sha256Source = (content: string) => `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;

import { Validator } from '@seriousme/openapi-schema-validator';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { GROUP_HEADINGS } from '../../lib/docs/group-headings.js';
import { buildOpenApiDocument, errorStatuses, SECURITY_SCHEME } from '../../lib/docs/openapi.js';
import { operationIds, routeTable } from '../../lib/route-table.js';
import { admin, defineRoutes, type RouteSpec } from '../../lib/http/route.js';
import { API_INFO, openApiDocument, openApiJson } from '../../lib/docs/api-description.js';

type Operation = Record<string, any>;

const document = openApiDocument(routeTable);
const row = (id: (typeof operationIds)[number]): RouteSpec => routeTable[id];
const documented = operationIds.filter((id) => !row(id).internal);

function operations(doc = document): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op as Operation]),
  );
}

const operationOf = (id: string): Operation => operations().find(([, op]) => op.operationId === id)![1];

async function validate(doc: unknown) {
  return new Validator().validate(structuredClone(doc) as Record<string, unknown>);
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(document);

    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('is checked by a validator that does refuse a broken document', async () => {
    const broken = { ...document, paths: { '/x': { get: { responses: { '200': { content: 'not an object' } } } } } };

    expect((await validate(broken)).valid).toBe(false);
  });

  it('describes exactly the route table, less its internal rows', () => {
    const expected = documented.map((id) => `${routeTable[id].method} ${routeTable[id].path}`).sort();

    expect(operations().map(([key]) => key).sort()).toEqual(expected);
    expect(operations().map(([, op]) => op.operationId).sort()).toEqual([...documented].sort());
    expect(JSON.stringify(document)).not.toContain('{proxy+}');
  });

  it('asks for the Authorization API key on every route but the public ones', () => {
    expect(document.components.securitySchemes[SECURITY_SCHEME]).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    for (const id of documented) {
      const expected = routeTable[id].access.kind === 'public' ? undefined : [{ [SECURITY_SCHEME]: [] }];
      expect(operationOf(id).security, id).toEqual(expected);
    }
  });

  it('marks the deprecated endpoints deprecated: E8, E10, E15 and E18', () => {
    const deprecated = operations().filter(([, op]) => op.deprecated).map(([, op]) => op.operationId);

    expect(deprecated).toEqual(expect.arrayContaining(['getProjectOverview', 'exportState', 'listAllFeatures', 'getClientFeature']));
    expect(deprecated.sort()).toEqual(documented.filter((id) => row(id).deprecated).sort());
  });

  it('tags every operation with its endpoint group and lists the groups in use', () => {
    for (const id of documented) expect(operationOf(id).tags, id).toEqual([GROUP_HEADINGS[routeTable[id].group].name]);
    const used = new Set(documented.map((id) => GROUP_HEADINGS[routeTable[id].group].name));
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
  });

  it("gives each operation its row's success status, body, query and path parameters", () => {
    for (const id of documented) {
      const spec: RouteSpec = routeTable[id];
      const op = operationOf(id);
      expect(Object.keys(op.responses), id).toContain(String(spec.status));
      expect(op.requestBody !== undefined, id).toBe(spec.body !== undefined);
      const pathParams = [...spec.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      const inPath = (op.parameters ?? []).filter((p: Operation) => p.in === 'path').map((p: Operation) => p.name);
      expect(inPath, id).toEqual(pathParams);
      if (spec.response) expect(op.responses[String(spec.status)].content['application/json'].schema, id).toBeDefined();
    }
    const features = operationOf('getClientFeatures').parameters.map((p: Operation) => `${p.in}:${p.name}`);
    expect(features).toEqual(expect.arrayContaining(['query:project', 'query:namePrefix', 'query:tag']));
    expect(operationOf('createFeature').requestBody.content['application/json'].schema.required).toContain('name');
  });

  it('answers errors with the Error schema: 401 wherever a token is needed, 403 where a token type is refused, 413 and 415 with a body', () => {
    expect(document.components.schemas.Error).toMatchObject({ required: ['id', 'name', 'message'] });
    const create = operationOf('createFeature').responses;
    expect(Object.keys(create).sort()).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '503']);
    expect(create['415'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(create['413'].description).toMatch(/^ContentTooLarge: .* \(\d+ KB\)$/);
    expect(Object.keys(operationOf('health').responses)).toEqual(['200']);
    // A frontend token on the SDK API gets 403.
    expect(errorStatuses(routeTable.registerClient)).toEqual([401, 403, 413, 503]);
    expect(errorStatuses(routeTable.reportClientMetrics)).toEqual([400, 401, 403, 413, 503]);
    expect(errorStatuses(routeTable.getClientFeatures)).toEqual([400, 401, 403, 503]);
  });

  it('describes the YAML state export and the HTML page by their media types', () => {
    expect(Object.keys(operationOf('exportState').responses['200'].content)).toEqual(['application/json', 'text/yaml']);
    expect(operationOf('getDocsPage').responses['200'].content).toEqual({ 'text/html': { schema: { type: 'string' } } });
  });

  it('is built once per process', () => {
    expect(openApiJson(routeTable)).toBe(openApiJson(routeTable));
    expect(JSON.parse(openApiJson(routeTable))).toEqual(document);
  });

  it('moves recursive schemas into components, so their references resolve inside the document', async () => {
    const node: z.ZodType = z.object({ name: z.string(), get children() { return z.array(node); } });
    const rows = defineRoutes('features', {
      putTree: {
        method: 'PUT', path: '/api/admin/trees/{name}', access: admin('ADMIN'),
        status: 200, summary: 'A recursive body', body: z.object({ root: node, label: z.string().meta({ id: 'TreeLabel' }) }),
      },
    });

    const doc = buildOpenApiDocument(rows, API_INFO);

    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.every((ref) => ref.includes('#/components/schemas/'))).toBe(true);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Error', 'putTreeRequestPart0', 'TreeLabel']));
    expect((await validate(doc)).valid).toBe(true);
  });
});

/**
 * Every sample scenario, gathered from each resource's `samples.ts` as lib/route-table.ts
 * gathers rows, and the API Gateway event each one becomes: `npm run events` writes these to
 * events/<group>/<name>.json, and `npm run invoke` runs a scenario's setup steps from here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { apiTokenSamples } from '../lib/tokens/samples.js';
import { oidcSamples } from '../lib/oidc/samples.js';
import { clientSamples } from '../lib/client/samples.js';
import { edgeSamples } from '../lib/edge/samples.js';
import { frontendSamples, frontendSettingsSamples } from '../lib/frontend/samples.js';
import { ofrepSamples } from '../lib/ofrep/samples.js';
import { contextFieldSamples } from '../lib/context-fields/samples.js';
import { docsSamples } from '../lib/docs/samples.js';
import { environmentSamples } from '../lib/environments/samples.js';
import { transferSamples } from '../lib/transfer/samples.js';
import { featureSamples } from '../lib/features/samples.js';
import { groupSamples } from '../lib/groups/samples.js';
import { insightSamples } from '../lib/insights/samples.js';
import { instanceSamples } from '../lib/instance/samples.js';
import { projectSamples } from '../lib/projects/samples.js';
import { segmentSamples } from '../lib/segments/samples.js';
import { signupTokenSamples } from '../lib/signup-tokens/samples.js';
import { stateSamples } from '../lib/state/samples.js';
import { strategyTypeSamples } from '../lib/strategies/samples.js';
import { tagTypeSamples } from '../lib/tag-types/samples.js';
import { userSamples } from '../lib/users/samples.js';
import { eventSamples } from '../lib/events/samples.js';
import { applicationSamples } from '../lib/applications/samples.js';
import { playgroundSamples } from '../lib/playground/samples.js';
import { authSamples } from '../lib/auth/samples.js';
import { personalTokenSamples } from '../lib/personal-access-tokens/samples.js';
import { maintenanceSamples } from '../lib/maintenance/samples.js';
import { userSettingsSamples } from '../lib/user-settings/samples.js';
import { integrationSamples } from '../lib/integrations/samples.js';
import { favouriteSamples } from '../lib/favourites/samples.js';
import { personalDashboardSamples } from '../lib/personal-dashboard/samples.js';
import { projectStatusSamples } from '../lib/project-status/samples.js';
import { pathParameterNames } from '../lib/http/path-parameters.js';
import type { RouteSpec } from '../lib/http/route.js';
import { operationIds, routeTable, type OperationId } from '../lib/route-table.js';
import { unquoteNumericPlaceholders, type Sample } from '../lib/samples.js';
import { toApiGatewayEvent } from './api-gateway-event.js';

/**
 * Keyed by `<group>/<name>`, in the order a person would try them; a key used twice is refused.
 * A route that takes nothing (no path parameter, no body) and has no written sample gets one
 * from its row alone (`derivedSamples`), so a new list endpoint needs no samples.ts entry.
 */
export const SAMPLE_SCENARIOS: Record<string, Sample> = withDerivedSamples(
  mergeSamples(
    instanceSamples, docsSamples, insightSamples, strategyTypeSamples, apiTokenSamples,
    featureSamples, transferSamples, stateSamples, userSamples, authSamples, groupSamples, oidcSamples,
    signupTokenSamples, environmentSamples, projectSamples, segmentSamples, contextFieldSamples,
    tagTypeSamples, clientSamples, edgeSamples, frontendSamples, frontendSettingsSamples, ofrepSamples,
    eventSamples, applicationSamples, playgroundSamples, personalTokenSamples, maintenanceSamples, userSettingsSamples, favouriteSamples, personalDashboardSamples, projectStatusSamples, integrationSamples,
  ),
);

/**
 * Fixed, so that `npm run events` writes the same files every time; a real request id and
 * time add nothing a handler reads.
 */
const SAMPLE_TIME = new Date('2026-11-22T03:00:00.000Z');
const DEFAULT_HEADERS = { accept: 'application/json', host: 'localhost:4242', 'user-agent': 'curl/8.5.0' };

/** The event API Gateway would hand the scenario's function, placeholders still in place. */
export function sampleEvent(sample: Sample): APIGatewayProxyEventV2 {
  const { route } = sample;
  const token = sample.token ?? (route.access.kind === 'public' ? 'none' : 'admin');
  const json = sample.body === undefined ? '' : unquoteNumericPlaceholders(JSON.stringify(sample.body));
  const body = sample.text ?? json;
  return toApiGatewayEvent({
    // The catch-all row takes any method; its sample asks with the commonest.
    method: route.method === 'ANY' ? 'GET' : route.method,
    url: samplePath(route.path, sample.params) + sampleQuery(sample.query),
    headers: {
      ...DEFAULT_HEADERS,
      ...(token === 'admin' ? { authorization: '{{ADMIN_TOKEN}}' } : {}),
      ...(route.body ? { 'content-type': 'application/json' } : {}),
      ...sample.headers,
    },
    body: Buffer.from(body),
    routeKey: `${route.method} ${route.path}`,
    pathParameters: sample.params,
    sourceIp: '127.0.0.1',
    requestId: 'sample-request',
    receivedAt: SAMPLE_TIME,
  });
}

/** Every file under events/, relative to it, with the text `npm run events` writes there. */
export function sampleEventFiles(): Map<string, string> {
  return new Map(
    Object.values(SAMPLE_SCENARIOS).map((sample) => [
      `${sample.key}.json`,
      `${JSON.stringify(sampleEvent(sample), null, 2)}\n`,
    ]),
  );
}

/** Every .json file under `dir` (events/), by its path relative to it with forward slashes. */
export function readEventFiles(dir: string): Map<string, string> {
  if (!existsSync(dir)) return new Map();
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.json'));
  return new Map(files.map((file) => [file.split('\\').join('/'), readFileSync(join(dir, file), 'utf8')]));
}

/**
 * The written samples, then one per uncovered route that needs no input: its file is named after
 * the operation id in kebab case and it expects the row's success status, with the admin token.
 */
function withDerivedSamples(written: Record<string, Sample>): Record<string, Sample> {
  const covered = new Set(Object.values(written).map((sample) => sample.operation));
  const rowOf = (id: OperationId): RouteSpec => routeTable[id];
  const derived = operationIds
    .filter((id) => !covered.has(id) && !rowOf(id).body && pathParameterNames(rowOf(id).path).length === 0)
    .map((id): Sample => ({ key: `${rowOf(id).group}/${kebabCase(id)}`, operation: id, route: rowOf(id), params: {}, status: rowOf(id).status }));
  return mergeSamples(Object.values(written), derived);
}

function kebabCase(id: string): string {
  return id.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function mergeSamples(...lists: Sample[][]): Record<string, Sample> {
  const merged: Record<string, Sample> = {};
  for (const sample of lists.flat()) {
    if (sample.key in merged) throw new Error(`Sample scenarios: ${sample.key} is defined twice`);
    merged[sample.key] = sample;
  }
  return merged;
}

function samplePath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)(\+?)\}/g, (_, name: string, greedy: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Sample for ${path}: no value for {${name}}`);
    return greedy ? value.split('/').map(encodeKeepingPlaceholders).join('/') : encodeKeepingPlaceholders(value);
  });
}

function sampleQuery(query: Record<string, string> | undefined): string {
  const pairs = Object.entries(query ?? {}).map(
    ([key, value]) => `${encodeKeepingPlaceholders(key)}=${encodeKeepingPlaceholders(value)}`,
  );
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

/**
 * Percent-encodes a URL component but leaves `{{NAME}}` as it is, for `npm run invoke` to fill,
 * and `:` and `@`, which paths and queries allow as they are (`tag=simple:beta`).
 */
function encodeKeepingPlaceholders(value: string): string {
  return value
    .split(/(\{\{[A-Z_]+\}\})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURIComponent(part).replace(/%3A/g, ':').replace(/%40/g, '@')))
    .join('');
}

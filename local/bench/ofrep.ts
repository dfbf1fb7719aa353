/**
 * OFREP's hot path (issue 27): what a warm frontend function spends on one evaluation, called
 * in-process with the API Gateway events the local server would build, as frontend.ts does for
 * the Frontend API. A server provider asks one flag per call (a client token); a web provider asks
 * every flag of its scope once per page and context (a frontend token), then polls with the
 * ETag. Each is measured as CPU time of this process per request (user and system, what Lambda
 * bills by the millisecond at a fixed memory size) and as wall time, best of three batches of new
 * contexts; the DynamoDB requests of the whole run are counted.
 */
import { gunzipSync } from 'node:zlib';
import type { LambdaHandler } from '../../lib/http/router.js';
import { countsSince, type RequestCounter } from '../../lib/store/request-counter.js';
import { localContext, toApiGatewayEvent } from '../api-gateway-event.js';

export interface OfrepCost {
  flags: number;
  /** A single flag for a new context: CPU and wall µs a request. */
  single: { cpuMicros: number; wallMicros: number };
  /** Every flag for a new context: CPU and wall µs a request, and its JSON bytes. */
  bulk: { cpuMicros: number; wallMicros: number; bytes: number };
  /** The bulk request again with the ETag of its answer: CPU and wall µs a 304. */
  notModified: { cpuMicros: number; wallMicros: number };
  dynamo: { requests: number; byOperation: Record<string, number>; calls: number };
}

type Answer = { statusCode: number; body?: string; isBase64Encoded?: boolean; headers?: Record<string, string | number | boolean> };

/** Contexts in a timed batch. */
const BATCH = 200;

/** The context an OpenFeature application sends for end user `index`. */
const contextOf = (index: number) => ({
  targetingKey: `${index % 10 === 0 ? 'beta-' : ''}user-${index}`,
  sessionId: String(100_000 + index),
  appName: ['checkout', 'catalog', 'search'][index % 3],
  country: ['NO', 'SE', 'DK', 'FI', 'DE'][index % 5],
});

function ofrepEvent(token: string, path: string, context: unknown, etag?: string) {
  return toApiGatewayEvent({
    method: 'POST', url: path, body: Buffer.from(JSON.stringify({ context })),
    routeKey: path === '/ofrep/v1/evaluate/flags' ? 'POST /ofrep/v1/evaluate/flags' : 'POST /ofrep/v1/evaluate/flags/{featureName}',
    pathParameters: path === '/ofrep/v1/evaluate/flags' ? {} : { featureName: decodeURIComponent(path.slice('/ofrep/v1/evaluate/flags/'.length)) },
    sourceIp: '203.0.113.7',
    headers: {
      authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8', origin: 'https://app.example.com', 'accept-encoding': 'gzip, deflate, br',
      ...(etag ? { 'if-none-match': etag } : {}),
    },
  });
}

/** Best of three batches: CPU and wall µs per call; each batch goes over its own events once. */
async function timed(handler: LambdaHandler, events: (batch: number) => ReturnType<typeof ofrepEvent>[], expect: number) {
  let cpuMicros = Number.POSITIVE_INFINITY;
  let wallMicros = Number.POSITIVE_INFINITY;
  for (let batch = 0; batch < 3; batch += 1) {
    const batchEvents = events(batch);
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (const event of batchEvents) {
      const answer = (await handler(event, localContext('bench-ofrep'))) as Answer;
      if (answer.statusCode !== expect) throw new Error(`${event.routeKey} answered ${answer.statusCode}, not ${expect}: ${answer.body ?? ''}`);
    }
    const used = process.cpuUsage(cpu);
    wallMicros = Math.min(wallMicros, ((performance.now() - started) * 1000) / batchEvents.length);
    cpuMicros = Math.min(cpuMicros, (used.user + used.system) / batchEvents.length);
  }
  return { cpuMicros, wallMicros };
}

export async function ofrepCost(
  frontend: LambdaHandler, tokens: { frontend: string; client: string }, counter: RequestCounter, flags: number,
): Promise<OfrepCost> {
  // Warm: the first call builds the evaluator (and the payload, if nothing asked for it yet).
  const warm = (await frontend(ofrepEvent(tokens.frontend, '/ofrep/v1/evaluate/flags', contextOf(0)), localContext('bench-ofrep', 600_000))) as Answer;
  if (warm.statusCode !== 200) throw new Error(`POST /ofrep/v1/evaluate/flags answered ${warm.statusCode}: ${warm.body ?? ''}`);
  const names = (JSON.parse(bodyOf(warm)) as { flags: Array<{ key: string }> }).flags.map((flag) => flag.key);
  await frontend(ofrepEvent(tokens.client, `/ofrep/v1/evaluate/flags/${encodeURIComponent(names[0] as string)}`, contextOf(0)), localContext('bench-ofrep'));
  const before = counter.snapshot();
  const fresh = (batch: number, index: number) => contextOf(1 + batch * BATCH + index);
  const single = await timed(frontend, (batch) => Array.from({ length: BATCH }, (_, index) =>
    ofrepEvent(tokens.client, `/ofrep/v1/evaluate/flags/${encodeURIComponent(names[index % names.length] as string)}`, fresh(batch, index))), 200);
  const bulkEvents = (batch: number) => Array.from({ length: BATCH }, (_, index) => ofrepEvent(tokens.frontend, '/ofrep/v1/evaluate/flags', fresh(batch + 3, index)));
  const bulk = await timed(frontend, bulkEvents, 200);
  const answered = await Promise.all(bulkEvents(0).map(async (event) => (await frontend(event, localContext('bench-ofrep'))) as Answer));
  const notModified = await timed(frontend, () => answered.map((answer, index) =>
    ofrepEvent(tokens.frontend, '/ofrep/v1/evaluate/flags', fresh(3, index), String(answer.headers?.etag))), 304);
  const requests = countsSince(before, counter.snapshot());
  return {
    flags,
    single,
    bulk: { ...bulk, bytes: answered.reduce((sum, answer) => sum + Buffer.byteLength(bodyOf(answer)), 0) / answered.length },
    notModified,
    dynamo: { requests: requests.total, byOperation: requests.byOperation, calls: 3 * BATCH * 3 + BATCH },
  };
}

/** The JSON of an answer, gzip or not (a browser accepts gzip, so answers from 1,000 bytes come compressed). */
function bodyOf(answer: Answer): string {
  const raw = Buffer.from(answer.body ?? '', answer.isBase64Encoded ? 'base64' : 'utf8');
  return answer.headers?.['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
}

const micros = (n: number) => n.toFixed(0);

/** The bench's section: µs a request, and what a million requests cost at the Lambda prices docs/cost.md uses. */
export function ofrepLines(cost: OfrepCost): string {
  const { single, bulk, notModified, dynamo } = cost;
  const operations = Object.entries(dynamo.byOperation).map(([operation, n]) => `${n} ${operation}`).join(', ') || 'none';
  return [
    `\n## OFREP, ${cost.flags.toLocaleString('en')} flags, in-process (API Gateway event to Lambda answer)\n`,
    `- one flag for a new context (a server provider, client token): ${micros(single.cpuMicros)} µs CPU, ${micros(single.wallMicros)} µs wall a request`,
    `- every flag for a new context (a web provider, frontend token): ${micros(bulk.cpuMicros)} µs CPU, ${micros(bulk.wallMicros)} µs wall a request, ${Math.round(bulk.bytes).toLocaleString('en')} bytes of JSON`,
    `- the same bulk request with its ETag (an unchanged poll): ${micros(notModified.cpuMicros)} µs CPU, ${micros(notModified.wallMicros)} µs wall a 304`,
    `- DynamoDB: ${dynamo.requests} requests (${operations}) over ${dynamo.calls.toLocaleString('en')} requests: the revision check at most once per interval and a token at most once a minute`,
  ].join('\n');
}

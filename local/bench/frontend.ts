/**
 * The Frontend API's hot path (issue 15): every page view of every end user calls it, so what a
 * warm function spends per request decides its price. The frontend function's handler is called
 * in-process with the API Gateway events the local server would build (GET /api/frontend with a
 * frontend token and a browser SDK's context), as handler-cost.ts does for the SDK poll; the
 * same steps are then timed one by one on the same payload (evaluation with the official engine,
 * JSON, ETag), and the DynamoDB requests of the whole run are counted.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { LambdaHandler } from '../../lib/http/router.js';
import { frontendContext } from '../../lib/frontend/context.js';
import { FlagEvaluator, type EvaluatedPayload } from '../../lib/frontend/evaluator.js';
import { countsSince, type RequestCounter } from '../../lib/store/request-counter.js';
import { localContext, toApiGatewayEvent } from '../api-gateway-event.js';

export interface FrontendCost {
  /** Distinct contexts (end users) of the run. */
  users: number;
  /** Toggles in the answer, its JSON bytes and its bytes as sent (gzip from 1,000 bytes), averaged over the users. */
  toggles: number;
  bytes: number;
  sentBytes: number;
  /** Wall time per 200 for a context not seen before, through the handler, µs (the best of three batches: what Lambda bills). */
  answerMicros: number;
  /** The same for a context the function answered before (a page view again, no If-None-Match). */
  repeatedMicros: number;
  /** The same 200's steps, µs per request: the context, the engine over every flag, JSON.stringify, the ETag. */
  steps: { context: number; evaluation: number; json: number; etag: number };
  /** Wall time per 304 (If-None-Match of the user's previous answer), µs. */
  notModifiedMicros: number;
  /** Each user polled twice with the ETag of its first answer: the share answered 304. */
  notModifiedShare: number;
  /** DynamoDB requests over every call of the run, and the calls, the run's wall time and the revision check interval. */
  dynamo: { requests: number; byOperation: Record<string, number>; calls: number; wallMs: number; intervalMs: number };
}

/** A browser SDK's context for end user `index`: what unleash-proxy-client sends on a page view. */
export function userQuery(index: number): string {
  const apps = ['checkout', 'catalog', 'search', 'payments', 'accounts', 'shipping'];
  const countries = ['NO', 'SE', 'DK', 'FI', 'DE'];
  const params = new URLSearchParams({
    // One user in ten is staff or beta, whom the bench's constraints let in.
    userId: `${index % 10 === 0 ? 'beta-' : ''}user-${index}`,
    sessionId: String(100_000 + index),
    appName: apps[index % apps.length] as string,
    'properties[country]': countries[index % countries.length] as string,
  });
  return params.toString();
}

function frontendEvent(token: string, query: string, etag?: string) {
  return toApiGatewayEvent({
    method: 'GET', url: `/api/frontend?${query}`, body: Buffer.alloc(0), routeKey: 'GET /api/frontend', pathParameters: {},
    sourceIp: '203.0.113.7',
    headers: {
      authorization: token, origin: 'https://app.example.com', 'user-agent': 'Mozilla/5.0', 'accept-encoding': 'gzip, deflate, br',
      ...(etag ? { 'if-none-match': etag } : {}),
    },
  });
}

type Answer = { statusCode: number; body?: string; isBase64Encoded?: boolean; headers?: Record<string, string | number | boolean> };

/** The JSON of an answer, gzip or not (a browser accepts gzip, so answers from 1,000 bytes come compressed). */
function bodyOf(answer: Answer): string {
  const raw = Buffer.from(answer.body ?? '', answer.isBase64Encoded ? 'base64' : 'utf8');
  return answer.headers?.['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
}

/** Users in a timed batch: enough to vary the context, few enough that a batch at 10,000 flags stays within seconds. */
const TIMED_USERS = 200;

/** End users of the run: 1,000, fewer from 2,000 flags on (each first answer evaluates every flag), at least TIMED_USERS. */
export const usersFor = (flags: number): number => Math.max(TIMED_USERS, Math.min(1_000, Math.floor(2_000_000 / flags)));

/** Best of three batches, µs per call; each batch goes over every event once. */
async function timed(handler: LambdaHandler, events: (batch: number) => ReturnType<typeof frontendEvent>[], expect: number): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let batch = 0; batch < 3; batch += 1) {
    const batchEvents = events(batch);
    const started = performance.now();
    for (const event of batchEvents) {
      const answer = (await handler(event, localContext('bench-frontend'))) as Answer;
      if (answer.statusCode !== expect) throw new Error(`GET /api/frontend answered ${answer.statusCode}, not ${expect}: ${answer.body ?? ''}`);
    }
    best = Math.min(best, ((performance.now() - started) * 1000) / batchEvents.length);
  }
  return best;
}

/** µs per call of `step` over every input, best of three rounds. */
function stepMicros<T>(inputs: T[], step: (input: T) => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    for (const input of inputs) step(input);
    best = Math.min(best, ((performance.now() - started) * 1000) / inputs.length);
  }
  return best;
}

/**
 * `users` end users each load a page twice: the first answer (200) is timed, then the second
 * with its ETag as If-None-Match (the browser SDK's poll). The steps are timed on the SDK
 * payload the client function serves for the same environment (spec 5.2.0, what the frontend
 * service evaluates).
 */
export async function frontendCost(
  handlers: { frontend: LambdaHandler; client: LambdaHandler }, tokens: { frontend: string; client: string }, counter: RequestCounter,
  intervalMs: number, flags: number,
): Promise<FrontendCost> {
  const users = usersFor(flags);
  const queries = Array.from({ length: users }, (_, index) => userQuery(index));
  // Warm: the first call builds the evaluator (and the payload, if the SDK poll has not), however long it takes.
  const warm = (await handlers.frontend(frontendEvent(tokens.frontend, queries[0] as string), localContext('bench-frontend', 600_000))) as Answer;
  if (warm.statusCode !== 200) throw new Error(`GET /api/frontend answered ${warm.statusCode}: ${warm.body ?? ''}`);
  const before = counter.snapshot();
  const started = performance.now();
  let calls = 0;

  const first: Answer[] = [];
  for (const query of queries) {
    first.push((await handlers.frontend(frontendEvent(tokens.frontend, query), localContext('bench-frontend'))) as Answer);
    calls += 1;
  }
  let notModified = 0;
  for (const [index, query] of queries.entries()) {
    const again = (await handlers.frontend(frontendEvent(tokens.frontend, query, String(first[index]?.headers?.etag)), localContext('bench-frontend'))) as Answer;
    calls += 1;
    if (again.statusCode === 304) notModified += 1;
  }
  const sample = queries.slice(0, TIMED_USERS);
  // Users not seen yet, new ones each batch: a first page view is evaluated whatever is cached.
  const newUsers = (batch: number) =>
    sample.map((_, index) => frontendEvent(tokens.frontend, userQuery(users + batch * sample.length + index)));
  const answerMicros = await timed(handlers.frontend, newUsers, 200);
  const repeatedMicros = await timed(handlers.frontend, () => sample.map((query) => frontendEvent(tokens.frontend, query)), 200);
  const notModifiedMicros = await timed(
    handlers.frontend, () => sample.map((query, index) => frontendEvent(tokens.frontend, query, String(first[index]?.headers?.etag))), 304,
  );
  calls += 9 * sample.length;
  const wallMs = performance.now() - started;
  const requests = countsSince(before, counter.snapshot());

  const steps = await stepTimes(handlers.client, tokens.client, sample);
  const bodies = first.map(bodyOf);
  return {
    users,
    toggles: bodies.reduce((sum, body) => sum + (JSON.parse(body) as { toggles: unknown[] }).toggles.length, 0) / users,
    bytes: bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0) / users,
    sentBytes: first.reduce((sum, answer) => sum + Buffer.byteLength(answer.body ?? '', answer.isBase64Encoded ? 'base64' : 'utf8'), 0) / users,
    answerMicros, repeatedMicros, notModifiedMicros, notModifiedShare: notModified / users, steps,
    dynamo: { requests: requests.total, byOperation: requests.byOperation, calls, wallMs, intervalMs },
  };
}

/** The frontend service's steps, one at a time, on the payload the client function serves. */
async function stepTimes(client: LambdaHandler, token: string, queries: string[]): Promise<FrontendCost['steps']> {
  const event = toApiGatewayEvent({
    method: 'GET', url: '/api/client/features', body: Buffer.alloc(0), routeKey: 'GET /api/client/features', pathParameters: {},
    sourceIp: '127.0.0.1', headers: { authorization: token, 'unleash-client-spec': '5.2.0', 'accept-encoding': 'gzip' },
  });
  const answer = (await client(event, localContext('bench-client', 600_000))) as Answer;
  if (answer.statusCode !== 200) throw new Error(`GET /api/client/features answered ${answer.statusCode}: ${answer.body ?? ''}`);
  const evaluator = new FlagEvaluator(JSON.parse(bodyOf(answer)) as EvaluatedPayload);
  const given = queries.map((query) => Object.fromEntries(new URLSearchParams(query)));
  const contexts = given.map((g) => frontendContext(g, { environment: 'development', remoteAddress: '203.0.113.7' }));
  const answers = contexts.map((context) => ({ toggles: evaluator.enabledToggles(context) }));
  const texts = answers.map((a) => JSON.stringify(a));
  return {
    context: stepMicros(given, (g) => frontendContext(g, { environment: 'development', remoteAddress: '203.0.113.7' })),
    evaluation: stepMicros(contexts, (context) => evaluator.enabledToggles(context)),
    json: stepMicros(answers, (a) => JSON.stringify(a)),
    etag: stepMicros(texts, (json) => createHash('sha1').update(json).digest('base64')),
  };
}

import { createHash } from 'node:crypto';
import type { ClientFeatureService, ServedPayload } from '../client/features-service.js';
import { resolveQuery } from '../client/query.js';
import type { Context } from 'unleash-client';
import type { Caller } from '../tokens/model.js';
import { frontendContext } from './context.js';
import { evaluationOf } from './evaluator.js';

/** A Frontend API answer: the JSON text and its ETag. */
export interface FrontendAnswer {
  json: string;
  etag: string;
}

/** The client-specification version the evaluator reads: segments as a list, resolved by id. */
export const EVALUATOR_SPEC = '5.2.0';

/**
 * The Frontend API (browser and mobile SDKs): every flag of the token's scope evaluated for the
 * caller's context, in the function. The flags come from the SDK path's payload cache
 * (ClientFeatureService: one revision check per interval, the payload built once per revision
 * and scope), and the evaluator is built once per payload (shared with OFREP, `evaluationOf`), so a request makes no DynamoDB read
 * of its own and its work is the evaluation, which a context seen before skips (AnswerCache).
 */
export class FrontendService {
  private readonly answerCaches = new WeakMap<ServedPayload, AnswerCache>();

  constructor(private readonly clientFeatures: Pick<ClientFeatureService, 'features'>) {}

  async toggles(caller: Caller, given: Record<string, unknown>, remoteAddress: string | undefined): Promise<FrontendAnswer> {
    const request = { clientSpec: EVALUATOR_SPEC };
    const answer = await this.clientFeatures.features(caller, request, undefined);
    if (!answer.modified) throw new Error('the payload was answered as not modified without an ETag');
    const { evaluator } = evaluationOf(answer.payload);
    const answers = this.answersOf(answer.payload);
    const context = frontendContext(given, { environment: resolveQuery(caller, request).environment, remoteAddress });
    // A context without its own sessionId got a random one and will not come again; with an empty
    // one, default stickiness falls through to a random number.
    const ownSession = given.sessionId !== undefined && given.sessionId !== null && given.sessionId !== '';
    const key = evaluator.deterministic && ownSession ? contextKey(context) : undefined;
    const known = key === undefined ? undefined : answers.get(key);
    if (known) return known;
    const json = JSON.stringify({ toggles: evaluator.enabledToggles(context) });
    const evaluated = { json, etag: etagOf(json) };
    if (key !== undefined) answers.set(key, evaluated);
    return evaluated;
  }

  /** The answers already given from one payload, kept as long as it is. */
  private answersOf(payload: ServedPayload): AnswerCache {
    let answers = this.answerCaches.get(payload);
    if (!answers) {
      answers = new AnswerCache();
      this.answerCaches.set(payload, answers);
    }
    return answers;
  }
}

/** The context's fields in a fixed order, its properties sorted: equal contexts, equal keys. */
function contextKey(context: Context): string {
  const properties = Object.entries(context.properties ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([context.environment, context.appName, context.userId, context.sessionId, context.remoteAddress, properties]);
}

/**
 * What one payload's answers may hold in memory: the browser SDK asks again with the same context
 * every 30 s. 4 MB: up to 50 scopes' payloads live in a function at once (the SDK path's payload
 * cache), each with its evaluator, so the answers of all of them stay well inside 512 MB.
 */
const ANSWER_CACHE = { maxEntries: 10_000, maxCharacters: 4 * 1024 * 1024 } as const;

/**
 * The answers of one payload (one revision and scope) by context, for payloads whose evaluation
 * depends on the context alone: a page view or poll repeating a context costs a lookup instead
 * of evaluating every flag again (the 304 needs the answer's ETag too). A new revision builds a
 * new evaluator, so nothing here outlives the flags it was evaluated from; the oldest answers go
 * first when the cache is full.
 */
class AnswerCache {
  private readonly answers = new Map<string, FrontendAnswer>();
  private characters = 0;

  get(key: string): FrontendAnswer | undefined {
    return this.answers.get(key);
  }

  set(key: string, answer: FrontendAnswer): void {
    const size = key.length + answer.json.length;
    // Two requests for the same context may both have missed while evaluating.
    if (size > ANSWER_CACHE.maxCharacters || this.answers.has(key)) return;
    this.answers.set(key, answer);
    this.characters += size;
    for (const [oldKey, old] of this.answers) {
      if (this.answers.size <= ANSWER_CACHE.maxEntries && this.characters <= ANSWER_CACHE.maxCharacters) break;
      this.answers.delete(oldKey);
      this.characters -= oldKey.length + old.json.length;
    }
  }
}

/** A weak validator of the answer's bytes, as Express gives Unleash's Frontend API: equal bytes, equal ETag. */
function etagOf(json: string): string {
  const digest = createHash('sha1').update(json).digest('base64').slice(0, 27);
  return `W/"${Buffer.byteLength(json).toString(16)}-${digest}"`;
}

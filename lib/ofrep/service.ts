import { createHash } from 'node:crypto';
import type { Context } from 'unleash-client';
import type { ClientFeatureService } from '../client/features-service.js';
import { resolveQuery, scopeKeyOf } from '../client/query.js';
import { evaluationOf } from '../frontend/evaluator.js';
import { EVALUATOR_SPEC } from '../frontend/service.js';
import type { Caller } from '../http/caller.js';
import { unleashContext } from './context.js';
import { OfrepRefusal } from './errors.js';
import { evaluateFlag, type EvaluationOutcome, type OfrepAudience, type OfrepEvaluation } from './evaluation.js';
import type { EvaluationCounter } from './usage.js';

/** A bulk answer: its JSON text, and the ETag of the data and context it was evaluated from. */
export type BulkAnswer = { modified: true; json: string; etag: string } | { modified: false; etag: string };

/**
 * OFREP over the Frontend API's means: the flags come from the SDK path's payload cache (one
 * revision check per interval, the payload built once per revision and scope), the engine is the
 * Frontend API's evaluator, built once per payload and shared with it (`evaluationOf`), so an evaluation makes no DynamoDB request
 * of its own. Each evaluation is counted for the flag's metrics and last-seen (usage.ts).
 */
export class OfrepService {
  constructor(
    private readonly clientFeatures: Pick<ClientFeatureService, 'features'>,
    private readonly usage: Pick<EvaluationCounter, 'count'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * One flag for the context; a flag the token is not served is not found, as in the SDK payload.
   * Through a frontend token a flag off for the caller (off in the environment, or on for no
   * strategy) is not found either, in the same words: that token ships in web pages, and the
   * Frontend API shows no more than the flags on for the caller, so nobody can list the others.
   * The evaluation is counted all the same: the caller asked for that flag.
   */
  async evaluate(caller: Caller, key: string, body: unknown, remoteAddress: string | undefined, checkedRevision?: number): Promise<OfrepEvaluation> {
    const { payload, context } = await this.prepare(caller, body, remoteAddress, checkedRevision);
    const feature = payload.byName.get(key);
    const notFound = () => new OfrepRefusal('FLAG_NOT_FOUND', `Flag '${key}' was not found.`);
    if (!feature) throw notFound();
    const audience = audienceOf(caller);
    const outcome = evaluateFlag(feature, payload.evaluator, context, audience);
    await this.usage.count(caller, context.appName, [outcome]);
    if (audience === 'public' && !outcome.enabled) throw notFound();
    return outcome.evaluation;
  }

  /**
   * The flags of the token's scope for the context. Through a client token, every one, off ones
   * included (so a provider answers them as `DISABLED` or `DEFAULT` rather than not found);
   * through a frontend token, only the flags on for the caller, as the Frontend API answers
   * (that token ships in web pages: the others' names and projects are nobody's business there).
   * Only the flags the answer holds that are on are counted, as yes: a page's poll is not the
   * page asking for every flag, and counting them all would mark every flag seen, so last-seen
   * could no longer tell the flags nobody asks for. The ETag names the data (the
   * payload's revision and scope) and the context as evaluated (the caller's address filled in),
   * so either changing is a new answer, and a request that matches it is answered before any
   * evaluation: a 304 costs no engine time and counts nothing. A payload whose answers also
   * depend on the clock or on chance (date constraints, random rollouts: the evaluator's
   * `deterministic`) names the current minute too, so such an answer is evaluated again at
   * least once a minute instead of being kept until the data changes.
   */
  async evaluateAll(caller: Caller, body: unknown, remoteAddress: string | undefined, ifNoneMatch: string | undefined, checkedRevision?: number): Promise<BulkAnswer> {
    const { payload, context, etagBase } = await this.prepare(caller, body, remoteAddress, checkedRevision);
    const minute = payload.evaluator.deterministic ? '' : this.now().toISOString().slice(0, 16);
    const etag = bulkEtag(`${etagBase}\n${minute}`, context);
    if (ifNoneMatch !== undefined && etagsOf(ifNoneMatch).includes(etag)) return { modified: false, etag };
    const audience = audienceOf(caller);
    const evaluated: EvaluationOutcome[] = payload.features.map((feature) => evaluateFlag(feature, payload.evaluator, context, audience));
    const answered = audience === 'public' ? evaluated.filter((outcome) => outcome.enabled) : evaluated;
    await this.usage.count(caller, context.appName, answered.filter((outcome) => outcome.enabled));
    return { modified: true, json: JSON.stringify({ flags: answered.map((outcome) => outcome.evaluation) }), etag };
  }

  private async prepare(caller: Caller, body: unknown, remoteAddress: string | undefined, checkedRevision: number | undefined) {
    const request = { clientSpec: EVALUATOR_SPEC };
    const query = resolveQuery(caller, request);
    // The context is checked before the payload is fetched: a refused request costs nothing more.
    const context = unleashContext(body, { environment: query.environment, remoteAddress });
    const answer = await this.clientFeatures.features(caller, request, undefined, checkedRevision);
    if (!answer.modified) throw new Error('the payload was answered as not modified without an ETag');
    return { payload: evaluationOf(answer.payload), context, etagBase: `${answer.payload.etag}\n${scopeKeyOf(query)}` };
  }
}

/** A frontend token's answers are public (web pages); any other token OFREP takes is a server's. */
function audienceOf(caller: Caller): OfrepAudience {
  return caller.type === 'frontend' ? 'public' : 'server';
}

/** A strong validator of (data, scope, context): the context's fields in a fixed order, its properties sorted. */
function bulkEtag(etagBase: string, context: Context): string {
  const properties = Object.entries(context.properties ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const fields = [context.environment, context.appName, context.userId, context.sessionId, context.remoteAddress, context.currentTime?.toISOString(), properties];
  const digest = createHash('sha256').update(etagBase).update('\n').update(JSON.stringify(fields)).digest('base64url');
  return `"${digest}"`;
}

/** The ETags an If-None-Match lists (a client may send one, several, or its weak form). */
function etagsOf(header: string): string[] {
  return header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
}

import { createHash } from 'node:crypto';
import type { ClientFeatureService, ServedPayload } from '../client/features-service.js';
import { resolveQuery } from '../client/query.js';
import type { Caller } from '../tokens/model.js';
import { frontendContext } from './context.js';
import { FlagEvaluator, type EvaluatedPayload } from './evaluator.js';

/** A Frontend API answer: the JSON text and its ETag. */
export interface FrontendAnswer {
  json: string;
  etag: string;
}

/** The client-specification version the evaluator reads: segments as a list, resolved by id. */
const EVALUATOR_SPEC = '5.2.0';

/**
 * The Frontend API (browser and mobile SDKs): every flag of the token's scope evaluated for the
 * caller's context, in the function. The flags come from the SDK path's payload cache
 * (ClientFeatureService: one revision check per interval, the payload built once per revision
 * and scope), and the evaluator is built once per payload, so a request makes no DynamoDB read
 * of its own and its work is the evaluation.
 */
export class FrontendService {
  private readonly evaluators = new WeakMap<ServedPayload, FlagEvaluator>();

  constructor(private readonly clientFeatures: Pick<ClientFeatureService, 'features'>) {}

  async toggles(caller: Caller, given: Record<string, unknown>, remoteAddress: string | undefined): Promise<FrontendAnswer> {
    const request = { clientSpec: EVALUATOR_SPEC };
    const answer = await this.clientFeatures.features(caller, request, undefined);
    if (!answer.modified) throw new Error('the payload was answered as not modified without an ETag');
    const evaluator = this.evaluatorOf(answer.payload);
    const context = frontendContext(given, { environment: resolveQuery(caller, request).environment, remoteAddress });
    const json = JSON.stringify({ toggles: evaluator.enabledToggles(context) });
    return { json, etag: etagOf(json) };
  }

  private evaluatorOf(payload: ServedPayload): FlagEvaluator {
    let evaluator = this.evaluators.get(payload);
    if (!evaluator) {
      evaluator = new FlagEvaluator(JSON.parse(payload.json) as EvaluatedPayload);
      this.evaluators.set(payload, evaluator);
    }
    return evaluator;
  }
}

/** A weak validator of the answer's bytes, as Express gives Unleash's Frontend API: equal bytes, equal ETag. */
function etagOf(json: string): string {
  const digest = createHash('sha1').update(json).digest('base64').slice(0, 27);
  return `W/"${Buffer.byteLength(json).toString(16)}-${digest}"`;
}

import type { OperationsFor, Reply } from '../http/operation.js';
import { failureJson, OFREP_ERRORS, OFREP_JSON, OfrepRefusal } from './errors.js';
import type { ofrepRoutes } from './routes.js';
import type { OfrepService } from './service.js';

export interface OfrepServices {
  ofrep: Pick<OfrepService, 'evaluate' | 'evaluateAll'>;
}

type OfrepReply = Reply<(typeof ofrepRoutes)['evaluateOfrepFlag' | 'evaluateOfrepFlags']>;

/**
 * OFREP's two evaluations. A refusal is answered here in the protocol's shape; what the shared
 * edge refuses (the token, a body that is not JSON) is reshaped around the function (errors.ts).
 */
export const ofrepOperations = ({ ofrep }: OfrepServices): OperationsFor<typeof ofrepRoutes> => ({
  evaluateOfrepFlag: async ({ caller, params, body, sourceIp, checkedRevision }) =>
    refusedAs(params.featureName, async () => {
      const evaluation = await ofrep.evaluate(caller, params.featureName, body, sourceIp, checkedRevision);
      if ('errorCode' in evaluation) return { status: OFREP_ERRORS[evaluation.errorCode], json: JSON.stringify(evaluation), headers: { ...OFREP_JSON } };
      return { json: JSON.stringify(evaluation), headers: { ...OFREP_JSON } };
    }),
  evaluateOfrepFlags: async ({ caller, body, headers, sourceIp, checkedRevision }) =>
    refusedAs(undefined, async () => {
      const answer = await ofrep.evaluateAll(caller, body, sourceIp, headers['if-none-match'], checkedRevision);
      // Browsers must not reuse an answer without asking: the flags change while the page is open.
      const answerHeaders = { ...OFREP_JSON, etag: answer.etag, 'cache-control': 'no-cache' };
      if (!answer.modified) return { status: 304, headers: answerHeaders };
      return { json: answer.json, headers: answerHeaders };
    }),
  preflightOfrepFlags: async () => ({}),
  preflightOfrepFlag: async () => ({}),
});

async function refusedAs(key: string | undefined, evaluate: () => Promise<OfrepReply>): Promise<OfrepReply> {
  try {
    return await evaluate();
  } catch (error) {
    if (!(error instanceof OfrepRefusal)) throw error;
    return { status: OFREP_ERRORS[error.errorCode], json: failureJson(key, error.errorCode, error.errorDetails), headers: { ...OFREP_JSON } };
  }
}

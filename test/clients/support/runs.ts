import type { ClientUnderTest, EvaluatorKind } from './client.js';
import { startEvaluator, type EvaluatorSettings } from './evaluator.js';
import type { Planned } from './spec-cases.js';

/**
 * At most `atOnce` tasks at a time, in the order asked: the machine has two cores, and a JVM,
 * the server and the DynamoDB engine already share them.
 */
export function limiter(atOnce: number) {
  const waiting: Array<() => void> = [];
  let free = atOnce;
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

/** What one client of one kind answered for a file's cases, by case title. */
export interface Run {
  clientVersion: string;
  answers: Map<string, unknown>;
}

/**
 * Evaluates `plans` with `client`'s evaluator of `kind`: one evaluator per environment the
 * cases run in, each started with that environment's token (`tokenOf`), asked every case of
 * it in one request, then stopped.
 */
export async function runPlans<Request>(
  client: ClientUnderTest,
  kind: EvaluatorKind,
  plans: Array<Planned<Request>>,
  settings: { url: string; appName: string; tokenOf(environment: string): string },
): Promise<Run> {
  const answers = new Map<string, unknown>();
  const versions = new Set<string>();
  const environments = [...new Set(plans.map((plan) => plan.environment))];
  for (const environment of environments) {
    const ofEnvironment = plans.filter((plan) => plan.environment === environment);
    const evaluatorSettings: EvaluatorSettings = {
      url: settings.url, token: settings.tokenOf(environment), appName: settings.appName, environment,
      // No poll or metrics are counted here: the intervals only keep the SDKs' chatter low.
      refreshSeconds: 60, metricsSeconds: 60,
    };
    const evaluator = await startEvaluator(client, kind, evaluatorSettings);
    try {
      versions.add(evaluator.clientVersion);
      const results = await evaluator.evaluate(ofEnvironment.map((plan) => plan.request) as never[]);
      ofEnvironment.forEach((plan, index) => answers.set(plan.title, results[index]));
    } finally {
      await evaluator.stop();
    }
  }
  return { clientVersion: [...versions].join(', '), answers };
}

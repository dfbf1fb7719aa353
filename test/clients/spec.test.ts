import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSpecWorld, casesOf, SPEC_FILES, specOf, type SpecWorld } from '../support/client-spec.js';
import { stopStartedServers } from '../support/local-server.js';
import type { ClientUnderTest, EvaluatorKind } from './support/client.js';
import { CLIENTS_DIR, discoverClients, edgeWanted, REFERENCE_CLIENT } from './support/discovery.js';
import { stopEvaluators, type OfrepResult, type SdkResult } from './support/evaluator.js';
import { limiter, runPlans, type Run } from './support/runs.js';
import { startWorldServer, type WorldServer } from './support/server.js';
import {
  knownDifference, ofrepAgreesWithSdk, planOfrep, planSdk, titleOf, unknownDifferenceKeys, type Planned,
} from './support/spec-cases.js';

/**
 * Issues 26 and 27: every client of every language evaluates the `@unleash/client-specification`
 * as the specification says, through this service. For each spec file, one `npm start` of its
 * own with the file's state built through the admin API (test/support/client-spec.ts); then each
 * client's SDK and OFREP provider evaluate every case they can express, each answer is compared
 * with the specification's, and each OFREP answer with the SDK's of the same client and of the
 * Node SDK. One SDK also evaluates every file through Unleash Edge in front of the server.
 */

const clients = await discoverClients();
const reference = clients.find((client) => client.name === REFERENCE_CLIENT);

interface EdgeModule {
  prepareEdge(): Promise<string>;
  startEdge(options: { upstreamUrl: string; tokens: string[] }): Promise<{ url: string; stop(): Promise<number | null> }>;
  stopEdges?(): Promise<void>;
}
const EDGE_FILE = join(CLIENTS_DIR, 'edge', 'edge.ts');
const edge = existsSync(EDGE_FILE) && edgeWanted() ? ((await import(pathToFileURL(EDGE_FILE).href)) as EdgeModule) : undefined;
/** The SDK that evaluates through Edge: Go's, else Java's, else Node's. */
const edgeClient = edge ? ['go', 'java', 'node'].map((name) => clients.find((client) => client.name === name && client.sdk)).find(Boolean) : undefined;

/** OFREP cases whose context the OFREP mapping cannot carry as the SDKs' context does, by file and title. */
const OFREP_UNEXPRESSIBLE: Record<string, Record<string, string>> = {
  '06-remote-address-strategy.json': {
    'Feature.remoteAddress.A should not be enabled for missing remoteAddress on context':
      'no remoteAddress: OFREP takes the caller\'s address (127.0.0.1 here, which the strategy lists), as the Frontend API does',
  },
};

const kindsOf = (client: ClientUnderTest): EvaluatorKind[] => [...(client.sdk ? ['sdk' as const] : []), ...(client.ofrep ? ['ofrep' as const] : [])];

/** A client's OFREP cases are checked for the kind of token its evaluator calls with. */
function plansOf(file: string, kind: EvaluatorKind, client?: ClientUnderTest) {
  const planned = casesOf(specOf(file)).map((specCase) => (kind === 'sdk' ? planSdk(file, specCase) : planOfrep(file, specCase, OFREP_UNEXPRESSIBLE[file], client?.ofrep?.token)));
  const plans = planned.filter((plan): plan is Planned<any> => 'check' in plan);
  const reasons = planned.flatMap((plan) => ('excluded' in plan ? [plan.excluded] : []));
  return { plans, excluded: reasons.length, reasons };
}

/** Why cases are left out, with how many, for each kind: printed with the counts. */
function exclusionReasons(kind: EvaluatorKind): string[] {
  const byReason = new Map<string, number>();
  for (const file of SPEC_FILES) for (const reason of plansOf(file, kind).reasons) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  return [...byReason].map(([reason, count]) => `  ${kind}: ${count} × ${reason}`);
}

interface Counts { versions: Set<string>; evaluated: number; excluded: number; differences: number; agreements: number }
const counts = new Map<string, Counts>();
/** The counts of a client and kind (`go sdk`), with the version its evaluator reported. */
const countOf = (name: string, run: Run): Counts => {
  const known = counts.get(name) ?? { versions: new Set(), evaluated: 0, excluded: 0, differences: 0, agreements: 0 };
  if (run.clientVersion) known.versions.add(run.clientVersion);
  counts.set(name, known);
  return known;
};

/** Evaluators of a file run two at a time (two cores). */
const atOnce = limiter(2);
const prepared = new Map<string, Promise<void>>();
let edgePrepared: Promise<string> | undefined;

beforeAll(async () => {
  // One at a time: each may download a toolchain's packages and build, which fills both cores.
  for (const client of clients) {
    const preparing = client.prepare();
    preparing.catch(() => undefined); // reported by the client's own tests
    prepared.set(client.name, preparing);
    await preparing.catch(() => undefined);
  }
  if (edge && edgeClient) {
    edgePrepared = edge.prepareEdge();
    await edgePrepared.catch(() => undefined); // reported by the Edge tests, not by every client's
  }
});

afterAll(async () => {
  await stopEvaluators();
  await edge?.stopEdges?.();
  await stopStartedServers();
  for (const [name, count] of counts) {
    console.log(`${name} (${[...count.versions].join(', ')}): ${count.evaluated} cases evaluated, ${count.excluded} excluded, ${count.differences} known differences, ${count.agreements} OFREP answers compared with the SDKs'`);
  }
  console.log(['cases left out, by reason:', ...exclusionReasons('sdk'), ...exclusionReasons('ofrep')].join('\n'));
});

for (const file of SPEC_FILES) {
  describe(file, () => {
    let world: WorldServer;
    let built: SpecWorld;
    const runs = new Map<string, Promise<Run>>();
    const start = (key: string, run: () => Promise<Run>) => {
      const running = atOnce(run);
      running.catch(() => undefined); // reported by the test that awaits it
      runs.set(key, running);
    };

    beforeAll(async () => {
      world = await startWorldServer(file);
      built = await buildSpecWorld(file, { call: world.call, adminToken: world.adminToken, tokenTypes: ['client', 'frontend'] });
      const tokenOf = (environment: string) => built.tokens.client.get(environment) as string;
      for (const client of clients) {
        for (const kind of kindsOf(client)) {
          start(`${client.name} ${kind}`, async () => {
            await prepared.get(client.name);
            const tokens = kind === 'ofrep' && client.ofrep?.token === 'frontend' ? built.tokens.frontend : built.tokens.client;
            return runPlans(client, kind, plansOf(file, kind, client).plans, {
              url: world.url, appName: `spec-${client.name}-${kind}`, tokenOf: (environment) => tokens.get(environment) as string,
            });
          });
        }
      }
      if (edge && edgeClient) {
        start('edge', async () => {
          await edgePrepared;
          const tokens = [...built.tokens.client.values(), ...built.tokens.frontend.values()];
          const started = await edge.startEdge({ upstreamUrl: world.url, tokens });
          try {
            return await runPlans(edgeClient, 'sdk', plansOf(file, 'sdk').plans, { url: started.url, appName: `spec-edge-${edgeClient.name}`, tokenOf });
          } finally {
            await started.stop();
          }
        });
      }
    });

    afterAll(async () => {
      await Promise.allSettled(runs.values());
      await world?.stop();
    });

    const titles = casesOf(specOf(file)).map(titleOf);
    for (const client of clients) {
      for (const kind of kindsOf(client)) {
        const { plans, excluded } = plansOf(file, kind, client);
        it(`${client.name} ${kind}: evaluates every expressible case as the specification says`, { timeout: 1_800_000 }, async () => {
          const run = await (runs.get(`${client.name} ${kind}`) as Promise<Run>);
          const count = countOf(`${client.name} ${kind}`, run);
          count.evaluated += plans.length;
          count.excluded += excluded;
          expect(unknownDifferenceKeys(client, file, titles), `${client.name} lists differences of cases ${file} does not have`).toEqual([]);
          const problems: string[] = [];
          for (const plan of plans) {
            const difference = plan.check(run.answers.get(plan.title));
            const listed = knownDifference(client, kind, file, plan.title);
            if (difference && !listed) problems.push(`${plan.title}: ${difference}`);
            if (!difference && listed) problems.push(`${plan.title}: listed as a known difference (${listed}) but answers as the specification says: remove the entry`);
            if (difference && listed) count.differences += 1;
          }
          expect(problems).toEqual([]);
        });
      }
      // Compared with its own SDK and with the Node SDK's, where those run (a browser's has no SDK).
      const comparedWith = [...(client.sdk ? [client] : []), ...(reference?.sdk && reference !== client ? [reference] : [])];
      if (client.ofrep && comparedWith.length > 0) {
        it(`${client.name}: OFREP answers each case as the ${comparedWith.map((other) => other.name).join(' and ')} SDK do`, { timeout: 1_800_000 }, async () => {
          const ofrep = await (runs.get(`${client.name} ofrep`) as Promise<Run>);
          const sdks: Array<[string, Run]> = [];
          for (const other of comparedWith) sdks.push([other.name, await (runs.get(`${other.name} sdk`) as Promise<Run>)]);
          const problems: string[] = [];
          for (const plan of plansOf(file, 'ofrep', client).plans) {
            // A listed OFREP difference is checked against the specification by the test above.
            if (knownDifference(client, 'ofrep', file, plan.title)) continue;
            for (const [name, sdk] of sdks) {
              const sdkAnswer = sdk.answers.get(plan.title) as SdkResult | undefined;
              if (!sdkAnswer) continue; // a case the SDK kind cannot express
              countOf(`${client.name} ofrep`, ofrep).agreements += 1;
              const disagreement = ofrepAgreesWithSdk(ofrep.answers.get(plan.title) as OfrepResult, sdkAnswer);
              if (disagreement) problems.push(`${plan.title} (${name} SDK): ${disagreement}`);
            }
          }
          expect(problems).toEqual([]);
        });
      }
    }

    if (edge && edgeClient) {
      it(`${edgeClient.name} sdk through Unleash Edge: evaluates every expressible case as the specification says`, { timeout: 1_800_000 }, async () => {
        const run = await (runs.get('edge') as Promise<Run>);
        const { plans, excluded } = plansOf(file, 'sdk');
        const count = countOf(`${edgeClient.name} sdk through Unleash Edge`, run);
        count.evaluated += plans.length;
        count.excluded += excluded;
        const problems: string[] = [];
        for (const plan of plans) {
          const difference = plan.check(run.answers.get(plan.title));
          const listed = knownDifference(edgeClient, 'sdk', file, plan.title);
          if (difference && !listed) problems.push(`${plan.title}: ${difference}`);
          if (difference && listed) count.differences += 1;
        }
        expect(problems).toEqual([]);
      });
    }
  });
}

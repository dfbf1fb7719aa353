/**
 * The round trip against the real thing: Unleash OSS 7.6.5 (local/unleash-reference.ts) seeded
 * through its admin API with a realistic instance, moved into `npm start` on a fresh table, and
 * then from there into a fresh Unleash. At each end the official Node SDK, with the same token
 * where the token could travel, evaluates every flag the same for every context, and the tool's
 * own verification passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSide } from '../../local/migrate/http.js';
import { formatReport } from '../../local/migrate/report.js';
import { migrate, type MigrationReport } from '../../local/migrate/run.js';
import { startPostgres, type ReferencePostgres } from '../../local/unleash-reference.js';
import { stopStartedServers } from '../support/local-server.js';
import { seededRandom } from '../support/seeded-random.js';
import { seedInstance, type SeededInstance } from './migrate-seed.js';
import { evaluateWithSdk, sdkContexts, startOurServer, startUnleashWithPat, type OurServer, type UnleashWithPat } from './migrate-support.js';

const FLAGS = 300;
const PREFIX = 'shop';
const ENVIRONMENTS = ['development', 'production'];
const MINUTES = 60_000;

let postgres: ReferencePostgres | undefined;
const unleashes: UnleashWithPat[] = [];
let source: UnleashWithPat;
let ours: OurServer;
let seeded: SeededInstance;
let first: MigrationReport;

const quiet = () => undefined;

beforeAll(async () => {
  postgres = await startPostgres();
  source = await startUnleashWithPat(postgres, 'migrate-source');
  unleashes.push(source);
  ours = await startOurServer('migrate-unleash');
  const { next } = seededRandom('migration seed');
  seeded = await seedInstance(adminSide('source', source.url, source.adminToken), {
    flags: FLAGS, random: next, projects: ['default'], environments: ENVIRONMENTS, prefix: PREFIX,
  });
  console.log(`data set: ${FLAGS} flags in ${ENVIRONMENTS.length} environments, ${JSON.stringify(seeded.counts)}, ${seeded.clientTokens.length + seeded.frontendTokens.length} SDK tokens`);
}, 15 * MINUTES);

afterAll(async () => {
  await stopStartedServers();
  for (const unleash of unleashes) await unleash.stop();
  await postgres?.stop();
}, 5 * MINUTES);

describe('npm run migrate from Unleash 7.6.5 into this service and back', () => {
  it('plans with --dry-run and writes nothing', async () => {
    const plan = await migrate({ from: source.url, fromToken: source.adminToken, to: ours.url, toToken: ours.adminToken, dryRun: true, write: quiet });

    const features = plan.kinds.find((kind) => kind.kind === 'features')!;
    expect(features.planned.filter((step) => step.action === 'create')).toHaveLength(FLAGS);
    expect(plan.verification).toBeUndefined();
    const target = adminSide('target', ours.url, ours.adminToken);
    expect((await target.request('GET', '/api/admin/projects/default/features')).features).toEqual([]);
  }, 10 * MINUTES);

  it('copies everything, the SDK tokens with their secrets, and its verification finds no difference', async () => {
    first = await migrate({ from: source.url, fromToken: source.adminToken, to: ours.url, toToken: ours.adminToken, write: quiet });
    console.log(formatReport(first, source.url, ours.url));

    expect(first.kinds.flatMap((kind) => kind.failed)).toEqual([]);
    expect(first.verification?.differences).toEqual([]);
    expect(first.ok).toBe(true);
    expect(first.kinds.find((kind) => kind.kind === 'features')!.created).toHaveLength(FLAGS);
    const sdkSecrets = [...seeded.clientTokens, ...seeded.frontendTokens].map((token) => token.secret).sort();
    expect(first.tokenPairs.filter((pair) => pair.sameSecret).map((pair) => pair.fromSecret)).toEqual(expect.arrayContaining(sdkSecrets));
    // Four people seeded, each given a link to set a password on the target.
    expect(first.needsPerson.filter((line) => line.includes(`${PREFIX}-person-`) && line.includes('/reset-password?token='))).toHaveLength(4);
  }, 20 * MINUTES);

  it('lets the official Node SDK, with the same token, evaluate every flag the same on both', async () => {
    const contexts = sdkContexts(PREFIX);
    for (const token of seeded.clientTokens) {
      const onUnleash = await evaluateWithSdk(source.url, token.secret, contexts);
      const onOurs = await evaluateWithSdk(ours.url, token.secret, contexts);

      expect(onUnleash.length).toBeGreaterThan(0);
      expect(onOurs).toEqual(onUnleash);
    }
  }, 10 * MINUTES);

  it('finds everything the same on a second run and writes nothing', async () => {
    const again = await migrate({ from: source.url, fromToken: source.adminToken, to: ours.url, toToken: ours.adminToken, write: quiet });

    expect(again.ok).toBe(true);
    expect(again.kinds.flatMap((kind) => [...kind.created, ...kind.updated.map((step) => step.key)])).toEqual([]);
    expect(again.kinds.find((kind) => kind.kind === 'features')!.same).toBe(FLAGS);
  }, 10 * MINUTES);

  it('fails --verify-only with the flag and the field when the target changed, and a run puts it back', async () => {
    const target = adminSide('target', ours.url, ours.adminToken);
    // A flag on in development: turning it off changes nothing else (turning one on may add a strategy).
    let flag = '';
    for (const name of seeded.features) {
      const state = await target.request('GET', `/api/admin/projects/default/features/${name}`);
      if (!state.archived && state.environments.some((environment: { name: string; enabled: boolean }) => environment.name === 'development' && environment.enabled)) {
        flag = name;
        break;
      }
    }
    await target.request('POST', `/api/admin/projects/default/features/${flag}/environments/development/off`);

    const verified = await migrate({ from: source.url, fromToken: source.adminToken, to: ours.url, toToken: ours.adminToken, verifyOnly: true, write: quiet });
    const repaired = await migrate({ from: source.url, fromToken: source.adminToken, to: ours.url, toToken: ours.adminToken, write: quiet });

    expect(verified.ok).toBe(false);
    expect(verified.verification?.differences).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`flag ${flag}: enabled differs`))]));
    expect(repaired.kinds.find((kind) => kind.kind === 'features')!.updated).toEqual([{ key: flag, fields: 'environments.development.enabled' }]);
    expect(repaired.ok).toBe(true);
  }, 10 * MINUTES);

  it('moves back into a fresh Unleash, where the SDK tokens get new secrets, and verifies', async () => {
    const back = await startUnleashWithPat(postgres!, 'migrate-back');
    unleashes.push(back);

    const report = await migrate({ from: ours.url, fromToken: ours.adminToken, to: back.url, toToken: back.pat, write: quiet });
    console.log(formatReport(report, ours.url, back.url));

    expect(report.kinds.flatMap((kind) => kind.failed)).toEqual([]);
    expect(report.verification?.differences).toEqual([]);
    expect(report.ok).toBe(true);
    const listed = (await adminSide('back', back.url, back.pat).request('GET', '/api/admin/api-tokens')).tokens as Array<{ tokenName: string; secret: string }>;
    const contexts = sdkContexts(PREFIX);
    for (const [index, token] of seeded.clientTokens.entries()) {
      const name = index < ENVIRONMENTS.length ? `${PREFIX}-backend-${token.environment}` : `${PREFIX}-client-scoped`;
      const moved = listed.find((entry) => entry.tokenName === name);
      expect(moved, name).toBeDefined();
      expect(report.needsPerson.some((line) => line.includes(moved!.secret))).toBe(true);

      expect(await evaluateWithSdk(back.url, moved!.secret, contexts)).toEqual(await evaluateWithSdk(ours.url, token.secret, contexts));
    }
  }, 20 * MINUTES);
});

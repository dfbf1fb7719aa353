/**
 * This service into a fresh instance of itself, with what Unleash OSS cannot hold: several
 * projects, groups with members, root roles and SSO mappings. Its secrets cannot travel (only
 * hashes are kept), so each SDK token gets a token of the same name and scope with a new secret,
 * listed for a person; the SDK evaluates the same with the old token on one side and the new one
 * on the other. Also the command itself, its --prune, and its exit codes.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSide, type AdminSide } from '../../local/migrate/http.js';
import { formatReport } from '../../local/migrate/report.js';
import { migrate } from '../../local/migrate/run.js';
import { stopStartedServers } from '../support/local-server.js';
import { exited, killGroup } from '../support/process-group.js';
import { seededRandom } from '../support/seeded-random.js';
import { seedInstance, type SeededInstance } from './migrate-seed.js';
import { evaluateWithSdk, sdkContexts, startOurServer, type OurServer } from './migrate-support.js';

const PREFIX = 'team';
const PROJECTS = ['default', 'team-web', 'team-mobile'];
const MINUTES = 60_000;
const quiet = () => undefined;

let from: OurServer;
let to: OurServer;
let fromSide: AdminSide;
let toSide: AdminSide;
let seeded: SeededInstance;

interface Group { id: number; name: string; mappingsSSO: string[]; rootRole: number | null; users: Array<{ user: { email?: string } }> }

beforeAll(async () => {
  from = await startOurServer('migrate-self-from');
  to = await startOurServer('migrate-self-to');
  fromSide = adminSide('source', from.url, from.adminToken);
  toSide = adminSide('target', to.url, to.adminToken);
  for (const project of PROJECTS.slice(1)) await fromSide.request('POST', '/api/admin/projects', { id: project, name: `Team ${project}`, description: `The ${project} team` });
  const { next } = seededRandom('self migration seed');
  seeded = await seedInstance(fromSide, { flags: 45, random: next, projects: PROJECTS, environments: ['development', 'production'], prefix: PREFIX });
  const users = (await fromSide.request('GET', '/api/admin/user-admin')).users as Array<{ id: number; email?: string }>;
  const people = users.filter((user) => user.email?.startsWith(`${PREFIX}-person-`));
  await fromSide.request('POST', '/api/admin/groups', {
    name: 'Checkout team', description: 'Owns checkout', mappingsSSO: ['okta-checkout', 'checkout-admins'], rootRole: 2,
    users: people.slice(0, 2).map((user) => ({ user: { id: user.id } })),
  });
  await fromSide.request('POST', '/api/admin/groups', {
    name: 'Readers', mappingsSSO: ['everyone'], rootRole: 3, users: people.slice(1).map((user) => ({ user: { id: user.id } })),
  });
}, 15 * MINUTES);

afterAll(async () => {
  await stopStartedServers();
}, 5 * MINUTES);

const groupsOf = async (side: AdminSide) =>
  ((await side.request('GET', '/api/admin/groups')).groups as Group[])
    .map((group) => ({ name: group.name, mappingsSSO: [...group.mappingsSSO].sort(), rootRole: group.rootRole, members: group.users.map((member) => member.user.email).sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));

describe('npm run migrate from this service into a fresh instance of it', () => {
  it('copies projects, groups with members, root roles and SSO mappings, and verifies', async () => {
    const report = await migrate({ from: from.url, fromToken: from.adminToken, to: to.url, toToken: to.adminToken, write: quiet });
    console.log(formatReport(report, from.url, to.url));

    expect(report.kinds.flatMap((kind) => kind.failed)).toEqual([]);
    expect(report.verification?.differences).toEqual([]);
    expect(report.ok).toBe(true);
    const projects = (await toSide.request('GET', '/api/admin/projects')).projects.map((project: { id: string }) => project.id);
    expect(projects).toEqual(expect.arrayContaining(PROJECTS));
    expect(await groupsOf(toSide)).toEqual(await groupsOf(fromSide));
    expect((await groupsOf(toSide)).map((group) => group.members.length)).toEqual([2, 3]);
  }, 20 * MINUTES);

  it('gives every SDK token a new secret of the same scope, with which the SDK evaluates the same', async () => {
    const listed = (await toSide.request('GET', '/api/admin/api-tokens')).tokens as Array<{ tokenName: string }>;
    const report = await migrate({ from: from.url, fromToken: from.adminToken, to: to.url, toToken: to.adminToken, dryRun: true, write: quiet });
    const contexts = sdkContexts(PREFIX);

    // The first run listed each new secret for a person; the plan now finds each token there.
    expect(report.kinds.find((kind) => kind.kind === 'API tokens')!.planned).toEqual([]);
    for (const [index, token] of seeded.clientTokens.entries()) {
      const name = index < 2 ? `${PREFIX}-backend-${token.environment}` : `${PREFIX}-client-scoped`;
      expect(listed.some((entry) => entry.tokenName === name)).toBe(true);
      const fresh = (await toSide.request('POST', '/api/admin/api-tokens', { tokenName: `${name}-check`, type: 'client', environment: token.environment, projects: index < 2 ? ['*'] : [PROJECTS[0]] })).secret;

      expect(await evaluateWithSdk(to.url, fresh, contexts)).toEqual(await evaluateWithSdk(from.url, token.secret, contexts));
    }
  }, 10 * MINUTES);

  it('archives with --prune what only the target has, and a plain run leaves it', async () => {
    await toSide.request('POST', '/api/admin/projects/default/features', { name: 'only-on-the-target', type: 'release' });

    const plain = await migrate({ from: from.url, fromToken: from.adminToken, to: to.url, toToken: to.adminToken, dryRun: true, write: quiet });
    const pruned = await migrate({ from: from.url, fromToken: from.adminToken, to: to.url, toToken: to.adminToken, prune: true, write: quiet });

    expect(plain.kinds.find((kind) => kind.kind === 'features')!.planned).toEqual([]);
    expect(pruned.kinds.find((kind) => kind.kind === 'features')!.pruned).toEqual(['only-on-the-target']);
    const archived = await toSide.request('GET', `/api/admin/search/features?project=${encodeURIComponent('IS:default')}&archived=${encodeURIComponent('IS:true')}&limit=100`);
    expect(archived.features.map((feature: { name: string }) => feature.name)).toContain('only-on-the-target');
  }, 10 * MINUTES);

  it('runs as npm run migrate: --verify-only exits 0 with the report, a missing argument exits 2', async () => {
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts', ...args], {
        env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        return { code: await exited(child), output };
      } finally {
        killGroup(child, 'SIGKILL');
      }
    };

    const verified = await run(['--from', from.url, '--to', to.url, '--verify-only'], { MIGRATE_FROM_TOKEN: from.adminToken, MIGRATE_TO_TOKEN: to.adminToken });
    const usage = await run(['--from', from.url]);

    expect(verified.output).toMatch(/Verification: .* no difference/);
    expect(verified.code).toBe(0);
    expect(usage.code).toBe(2);
    expect(usage.output).toMatch(/usage: npm run migrate/);
  }, 10 * MINUTES);
});

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { groupHandlerOf } from '../../lib/composition/function-handler.js';

import { routeTable } from '../../lib/route-table.js';
import { functionDefinitions } from '../../functions/registry.js';
import { localContext, toApiGatewayEvent } from '../../local/api-gateway-event.js';
import { connectStore } from '../../lib/store/context.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { DynamoUserStore } from '../../lib/users/dynamo-store.js';
import { testConfig, unique, servicesOn } from '../support/services.js';
import { GOOD_PASSWORD, userWithPassword } from '../support/sessions.js';

// Every password these tests check is a real scrypt hash (lib/users/password.ts: about 0.2 s of
// CPU each, memory-hard on purpose), and a test checks up to 22 of them one after another: on a
// machine that other work keeps busy that alone can pass the suite's 30 s, with nothing wrong.
// No assertion here depends on time; the longer limit only keeps a slow machine from failing them.
vi.setConfig({ testTimeout: 120_000 });

/** The services' clock: tests move it instead of waiting. */
let now = new Date('2030-01-01T00:00:00Z');
const services = servicesOn(testConfig(), { now: () => now });
const access = groupHandlerOf(functionDefinitions['access'], services.composition);
const WRONG = 'Wrong-password-1';
const MINUTE = 60_000;

/** A password login sent from `address`, as API Gateway hands it over (`requestContext.http.sourceIp`). */
async function loginFrom(address: string, username: string, password: string) {
  const route = routeTable.login;
  const event = toApiGatewayEvent({
    method: 'POST', url: route.path, headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ username, password })), routeKey: `${route.method} ${route.path}`,
    pathParameters: {}, sourceIp: address,
  });
  const result = (await access(event, localContext('test-access'))) as APIGatewayProxyStructuredResultV2;
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
  const body = result.body ? JSON.parse(result.body) as Record<string, unknown> : {};
  return { status: result.statusCode ?? 200, headers, body };
}

/** `count` wrong passwords from `address`, each answered 401. */
async function fail(address: string, username: string, count: number) {
  for (let i = 0; i < count; i += 1) expect((await loginFrom(address, username, WRONG)).status).toBe(401);
}

const later = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

describe('failed password logins are counted per login name and client address', () => {
  it('10 failures from one address never keep the right password from another address out', async () => {
    const user = await userWithPassword(services, 'Admin');
    const name = user.username as string;

    await fail('198.51.100.7', name, 10);
    const attackerAgain = await loginFrom('198.51.100.7', name, WRONG);
    const owner = await loginFrom('203.0.113.5', name, GOOD_PASSWORD);

    expect(attackerAgain.status).toBe(429);
    expect(owner.status).toBe(200);
    expect(owner.headers['set-cookie']).toMatch(/^unleash-session=/);
  });

  it('one wrong try a minute from an address keeps no one else out, however long it goes on', async () => {
    const user = await userWithPassword(services, 'Admin');
    const name = user.username as string;
    await fail('198.51.100.8', name, 10);

    const answers: Array<Awaited<ReturnType<typeof loginFrom>>> = [];
    for (let minute = 0; minute < 5; minute += 1) {
      later(MINUTE);
      await loginFrom('198.51.100.8', name, WRONG);
      answers.push(await loginFrom(`203.0.113.${10 + minute}`, name, GOOD_PASSWORD));
    }

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    // Each a real login of the user, with a session.
    for (const answer of answers) {
      expect(answer.body).toMatchObject({ id: user.id });
      expect(answer.headers['set-cookie']).toMatch(/^unleash-session=/);
    }
  });

  it('the failing address waits, even with the right password; after the wait the right password logs in and its count starts again', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const name = user.username as string;
    await fail('198.51.100.9', name, 10);

    const during = await loginFrom('198.51.100.9', name, GOOD_PASSWORD);
    later(MINUTE);
    const after = await loginFrom('198.51.100.9', name, GOOD_PASSWORD);
    // The count started again: nine more failures and one right password need no wait.
    await fail('198.51.100.9', name, 9);
    const fresh = await loginFrom('198.51.100.9', name, GOOD_PASSWORD);

    expect(during.status).toBe(429);
    expect(during.body.name).toBe('RateLimitError');
    expect(during.headers['retry-after']).toBe('60');
    expect(after.status).toBe(200);
    expect(fresh.status).toBe(200);
  });

  it('an address that goes on failing waits longer each time: 1 minute, then doubling up to 15 minutes', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const name = user.username as string;
    await fail('198.51.100.10', name, 10);

    const waits: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const refused = await loginFrom('198.51.100.10', name, WRONG);
      expect(refused.status).toBe(429);
      waits.push(refused.headers['retry-after'] as string);
      later(Number(refused.headers['retry-after']) * 1000);
      expect((await loginFrom('198.51.100.10', name, WRONG)).status).toBe(401);
    }

    expect(waits).toEqual(['60', '120', '240', '480', '900', '900']);
  });

  it('a refused try during the wait does not make the wait longer', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const name = user.username as string;
    await fail('198.51.100.11', name, 10);

    later(30_000);
    const half = await loginFrom('198.51.100.11', name, WRONG);
    later(30_000);
    const done = await loginFrom('198.51.100.11', name, GOOD_PASSWORD);

    expect(half.status).toBe(429);
    expect(half.headers['retry-after']).toBe('30');
    expect(done.status).toBe(200);
  });

  it('counts the login name as typed without case or surrounding spaces, and an IPv6 /64 as one address', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const name = user.username as string;
    for (let i = 0; i < 10; i += 1) {
      const spelled = i % 2 === 0 ? name.toUpperCase() : ` ${name} `;
      expect((await loginFrom(`2001:db8:1:2::${i + 1}`, spelled, WRONG)).status).toBe(401);
    }

    const sameNetwork = await loginFrom('2001:db8:1:2:ffff::1', name, GOOD_PASSWORD);
    const otherNetwork = await loginFrom('2001:db8:1:3::1', name, GOOD_PASSWORD);
    // The e-mail is another login name: its count is its own.
    const byEmail = await loginFrom('2001:db8:1:2::1', user.email as string, GOOD_PASSWORD);

    expect(sameNetwork.status).toBe(429);
    expect(sameNetwork.body.name).toBe('RateLimitError');
    expect(Number(sameNetwork.headers['retry-after'])).toBeGreaterThan(0);
    expect(sameNetwork.headers['set-cookie']).toBeUndefined();
    for (const loggedIn of [otherNetwork, byEmail]) {
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.body).toMatchObject({ id: user.id });
      expect(loggedIn.headers['set-cookie']).toMatch(/^unleash-session=/);
    }
  });

  it('tries sent all at once from one address are counted one by one: no more than 10 passwords are checked', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const name = user.username as string;

    const answers = await Promise.all(Array.from({ length: 14 }, () => loginFrom('198.51.100.15', name, WRONG)));

    const checked = answers.filter((answer) => answer.status === 401).length;
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(4);
    expect(checked).toBeLessThanOrEqual(10);
    expect((await services.users.get(user.id)).loginAttempts).toBeLessThanOrEqual(10);
  });

  it("the user's loginAttempts counts failed passwords from every address since the last login, and a login resets it", async () => {
    const user = await userWithPassword(services, 'Viewer');
    const name = user.username as string;
    await fail('198.51.100.12', name, 10);
    await fail('198.51.100.13', name, 2);
    // Refused during a wait: no password was checked, nothing is counted.
    await loginFrom('198.51.100.12', name, WRONG);

    const counted = (await services.users.get(user.id)).loginAttempts;
    await loginFrom('198.51.100.14', name, GOOD_PASSWORD);

    expect(counted).toBe(12);
    expect((await services.users.get(user.id)).loginAttempts).toBe(0);
  });
});

describe('a new password and the counts of failed tries', () => {
  it("a new password leaves each address's count alone: the address that failed still waits its few minutes, every other address logs in at once", async () => {
    const user = await userWithPassword(services, 'Viewer');
    const name = user.username as string;
    const next = 'Fresh-Password-After-Tries-1';
    await fail('198.51.100.20', name, 10);

    await services.auth.setPasswordFor(user.id, next);
    const stillWaiting = await loginFrom('198.51.100.20', name, next);
    const elsewhere = await loginFrom('203.0.113.20', name, next);
    later(MINUTE);
    const afterTheWait = await loginFrom('198.51.100.20', name, next);

    expect(stillWaiting.status).toBe(429);
    expect(stillWaiting.body.name).toBe('RateLimitError');
    expect(stillWaiting.headers['set-cookie']).toBeUndefined();
    // The new password is the one that logs in, each time as the user.
    for (const loggedIn of [elsewhere, afterTheWait]) {
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.body).toMatchObject({ id: user.id });
      expect(loggedIn.headers['set-cookie']).toMatch(/^unleash-session=/);
    }
  });

  it('a password change costs the same DynamoDB requests however many addresses have failed counts for the name', async () => {
    const quiet = await userWithPassword(services, 'Viewer');
    const tried = await userWithPassword(services, 'Viewer');
    for (const name of [tried.username as string, tried.email as string]) {
      await Promise.all(Array.from({ length: 12 }, (_, i) => loginFrom(`192.0.2.${100 + i}`, name, WRONG)));
    }
    const costOfChange = async (userId: number) => {
      const before = services.dynamoRequests.snapshot();
      await services.auth.setPasswordFor(userId, 'Changed-Password-Cost-2');
      return countsSince(before, services.dynamoRequests.snapshot());
    };

    const withoutCounts = await costOfChange(quiet.id);
    const withCounts = await costOfChange(tried.id);

    expect(withCounts.byOperation).toEqual(withoutCounts.byOperation);
    expect(withCounts.total).toBeLessThanOrEqual(3);
  });
});

describe("a stranger's wrong tries do not change the user's version", () => {
  const config = testConfig();
  const userStore = new DynamoUserStore(connectStore(config).db, config.tableName);

  it("an admin's update and an SSO link computed on the user read before a wrong try still succeed, and keep the try counted", async () => {
    const user = await userWithPassword(services, 'Viewer');
    const read = await userStore.get(user.id);
    if (!read) throw new Error('the user was just created');

    await fail('198.51.100.30', user.username as string, 2);
    const updated = await userStore.replace(read, { ...read, name: 'Renamed by admin', version: read.version + 1 }, 'admin');
    const afterUpdate = await userStore.get(user.id);
    await fail('198.51.100.30', user.username as string, 1);
    const linked = await userStore.linkIdentity(afterUpdate ?? read, { issuer: 'https://idp.example', subject: unique('sub') }, 'sso');
    const stored = await userStore.get(user.id);

    expect(updated).toBe('done');
    expect(linked).toBe('done');
    expect(stored).toMatchObject({ name: 'Renamed by admin', loginAttempts: 3, version: read.version + 2 });
    expect(stored?.ssoIdentities).toHaveLength(1);
  });
});

describe('the answers do not tell existing users from unknown ones', () => {
  it('the same 13 wrong tries against an existing and an unknown login get the same statuses, headers that matter and bodies', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const unknown = unique('nobody');
    const answersFor = async (name: string) => {
      const start = now;
      const answers: unknown[] = [];
      for (let i = 0; i < 13; i += 1) {
        const res = await loginFrom('192.0.2.44', name, WRONG);
        // `id` is each answer's own random reference, whatever the login.
        const { id: _reference, ...body } = res.body;
        answers.push({ status: res.status, retryAfter: res.headers['retry-after'], body });
        if (i === 11) later(MINUTE);
      }
      now = start;
      return answers;
    };

    const existing = await answersFor(user.username as string);
    const nobody = await answersFor(unknown);

    expect(existing).toEqual(nobody);
    expect(existing.map((answer) => (answer as { status: number }).status)).toEqual([...Array(10).fill(401), 429, 429, 401]);
  });
});

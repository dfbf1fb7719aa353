import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { groupHandlerOf } from '../../lib/composition/function-handler.js';
import type { Services } from '../../local/app-services.js';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/http/client-address.js';
import { routeTable } from '../../lib/route-table.js';
import { functionDefinitions } from '../../functions/registry.js';
import { localContext, toApiGatewayEvent } from '../../local/api-gateway-event.js';
import { testConfig, servicesOn } from '../support/services.js';
import { GOOD_PASSWORD, userWithPassword } from '../support/sessions.js';

/**
 * In the cloud the admin UI's logins reach API Gateway through CloudFront, so API Gateway's
 * source address is an edge server's, shared by everyone near it. The distribution sends the
 * viewer's own address and a secret header that proves the request came through it.
 */
const ORIGIN_SECRET = randomBytes(32).toString('base64url');
const EDGE = '130.176.0.10';
const WRONG = 'Wrong-password-1';

const now = new Date('2030-01-01T00:00:00Z');

function accessHandler(services: Services) {
  return groupHandlerOf(functionDefinitions['access'], services.composition);
}

/** The access function as deployed, reading the distribution's secret. */
const behindCloudFront = servicesOn(testConfig({ CLOUDFRONT_ORIGIN_SECRET: ORIGIN_SECRET }), { now: () => now });
/** The access function with no secret configured: `npm start`'s default. */
const withoutSecret = servicesOn(testConfig(), { now: () => now });

/** A password login as API Gateway hands it over: `sourceIp` is who connected to API Gateway. */
async function loginAnswer(services: Services, sourceIp: string, headers: Record<string, string>, username: string, password: string) {
  const route = routeTable.login;
  const event = toApiGatewayEvent({
    method: 'POST', url: route.path, headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify({ username, password })), routeKey: `${route.method} ${route.path}`,
    pathParameters: {}, sourceIp,
  });
  const result = (await accessHandler(services)(event, localContext('test-access'))) as APIGatewayProxyStructuredResultV2;
  const setCookie = Object.entries(result.headers ?? {}).find(([name]) => name.toLowerCase() === 'set-cookie')?.[1];
  return { status: result.statusCode ?? 200, body: result.body ? JSON.parse(result.body) : undefined, setCookie };
}

/** The status alone, for the tries that only build up a count. */
const login = async (...args: Parameters<typeof loginAnswer>) => (await loginAnswer(...args)).status;

type Answer = Awaited<ReturnType<typeof loginAnswer>>;

/** Told to wait: RateLimitError, and no session. */
function expectWaits(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(answer.body.name).toBe('RateLimitError');
  expect(answer.setCookie).toBeUndefined();
}

/** Logged in as `userId`, with a session cookie. */
function expectLoggedIn(answer: Answer, userId: number): void {
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ id: userId });
  expect(String(answer.setCookie)).toMatch(/^unleash-session=/);
}

/** What CloudFront sends for a viewer at `viewer`: its address (as a viewer-request function sets it) and the origin secret. */
const throughCloudFront = (viewer: string) => ({ [VIEWER_ADDRESS_HEADER]: viewer, [ORIGIN_SECRET_HEADER]: ORIGIN_SECRET });

describe('password logins through CloudFront are counted per viewer, not per edge server', () => {
  it("one viewer's failures behind an edge server do not make another viewer behind the same edge wait", async () => {
    const user = await userWithPassword(behindCloudFront, 'Admin');
    const name = user.username as string;
    for (let i = 0; i < 10; i += 1) {
      expect(await login(behindCloudFront, EDGE, throughCloudFront('198.51.100.20'), name, WRONG)).toBe(401);
    }

    const attackerAgain = await loginAnswer(behindCloudFront, EDGE, throughCloudFront('198.51.100.20'), name, WRONG);
    const admin = await loginAnswer(behindCloudFront, EDGE, throughCloudFront('203.0.113.20'), name, GOOD_PASSWORD);

    expectWaits(attackerAgain);
    expectLoggedIn(admin, user.id);
  });

  it('counts an IPv6 viewer by its /64 whatever edge server it comes through', async () => {
    const user = await userWithPassword(behindCloudFront, 'Viewer');
    const name = user.username as string;
    for (let i = 0; i < 10; i += 1) {
      // Each try through another edge server: the count follows the viewer.
      expect(await login(behindCloudFront, `130.176.0.${30 + i}`, throughCloudFront(`2001:db8:5:6::${i + 1}`), name, WRONG)).toBe(401);
    }

    const sameNetwork = await loginAnswer(behindCloudFront, '130.176.0.99', throughCloudFront('2001:db8:5:6:abcd::1'), name, GOOD_PASSWORD);
    const otherViewer = await loginAnswer(behindCloudFront, '130.176.0.30', throughCloudFront('2001:db8:5:7::1'), name, GOOD_PASSWORD);

    expectWaits(sameNetwork);
    expectLoggedIn(otherViewer, user.id);
  });
});

describe('a viewer address the distribution did not vouch for is ignored', () => {
  it('without the secret header, or with a wrong one, every try counts for the address that connected', async () => {
    const user = await userWithPassword(behindCloudFront, 'Viewer');
    const name = user.username as string;
    const caller = '192.0.2.60';
    for (let i = 0; i < 5; i += 1) {
      expect(await login(behindCloudFront, caller, { [VIEWER_ADDRESS_HEADER]: `198.51.100.${100 + i}` }, name, WRONG)).toBe(401);
    }
    for (let i = 0; i < 5; i += 1) {
      const forged = { [VIEWER_ADDRESS_HEADER]: `198.51.100.${110 + i}`, [ORIGIN_SECRET_HEADER]: randomBytes(32).toString('base64url') };
      expect(await login(behindCloudFront, caller, forged, name, WRONG)).toBe(401);
    }

    // Ten failures from `caller`, whatever addresses they claimed: it waits, under any claim.
    const claimingAnother = await loginAnswer(behindCloudFront, caller, { [VIEWER_ADDRESS_HEADER]: '203.0.113.61' }, name, GOOD_PASSWORD);
    const claimedBefore = await loginAnswer(behindCloudFront, '192.0.2.61', { [VIEWER_ADDRESS_HEADER]: '198.51.100.100' }, name, GOOD_PASSWORD);

    expectWaits(claimingAnother);
    expectLoggedIn(claimedBefore, user.id);
  });

  it('a CloudFront-Viewer-Address header sent with the secret is not what counts: only the address the distribution writes', async () => {
    const user = await userWithPassword(behindCloudFront, 'Viewer');
    const name = user.username as string;
    for (let i = 0; i < 10; i += 1) {
      const headers = { ...throughCloudFront('198.51.100.70'), 'cloudfront-viewer-address': `198.51.100.${200 + i}:443` };
      expect(await login(behindCloudFront, EDGE, headers, name, WRONG)).toBe(401);
    }

    expectWaits(await loginAnswer(behindCloudFront, EDGE, throughCloudFront('198.51.100.70'), name, GOOD_PASSWORD));
    // The ten failures were checked and counted against the user.
    expect((await behindCloudFront.users.get(user.id)).loginAttempts).toBe(10);
  });

  it('with no secret configured (the local runtime) the headers change nothing, even one carrying a secret', async () => {
    const user = await userWithPassword(withoutSecret, 'Viewer');
    const name = user.username as string;
    for (let i = 0; i < 10; i += 1) {
      expect(await login(withoutSecret, '127.0.0.1', throughCloudFront(`198.51.100.${120 + i}`), name, WRONG)).toBe(401);
    }

    expectWaits(await loginAnswer(withoutSecret, '127.0.0.1', throughCloudFront('203.0.113.62'), name, GOOD_PASSWORD));
    expect((await withoutSecret.users.get(user.id)).loginAttempts).toBe(10);
  });
});

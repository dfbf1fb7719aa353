import { beforeAll, describe, expect, it } from 'vitest';
import { meSchema } from '../../lib/auth/schemas.js';
import { REMEMBERED_LIMIT } from '../../lib/user-settings/model.js';
import { feedbackSchema, splashSchema } from '../../lib/user-settings/schemas.js';
import { apiClient, type ApiRequest } from '../support/api.js';
import { sessions } from '../../lib/composition/session-edge.js';
import { adminToken, servicesOn, testConfig, unique } from '../support/services.js';
import { cookiePair } from '../support/sessions.js';

/** The services' clock: answers given "now" are given at this time. */
let now = new Date();
const services = servicesOn(testConfig(), { now: () => now });
const call = apiClient(services);
let apiToken: string;
beforeAll(async () => {
  apiToken = await adminToken(services);
});

/**
 * A person and a way to call as them: each `browser()` is a new session (another browser's), started
 * as a login starts it; no password is hashed or checked, which takes seconds on a loaded machine
 * and is what login.test.ts is about.
 */
async function person() {
  const username = unique('person');
  const user = await services.users.create({ username, email: `${username}@example.com`, name: username, rootRole: 'Viewer' }, 'test');
  const browser = async () => {
    const cookie = cookiePair(await services.composition.once(sessions).start(user));
    return (request: Omit<ApiRequest, 'headers'>) => call({ ...request, headers: { Cookie: cookie } });
  };
  return { user, browser };
}

describe('splash screens (POST /api/admin/splash/{id})', () => {
  it('remembers the welcome dialog closed for the person, so a new browser does not show it again', async () => {
    const { user, browser } = await person();
    const first = await browser();

    const seen = await first({ method: 'POST', path: '/api/admin/splash/personalDashboardKeyConcepts' });
    const second = await browser();
    const me = await second({ method: 'GET', path: '/api/admin/user' });

    expect(seen.status).toBe(200);
    expect(splashSchema.parse(seen.body)).toEqual({ userId: user.id, splashId: 'personalDashboardKeyConcepts', seen: true });
    expect(meSchema.safeParse(me.body).success).toBe(true);
    expect(me.body.splash).toEqual({ personalDashboardKeyConcepts: true });
  });

  it("is the person's own: another person still gets every splash", async () => {
    const alice = await person();
    const bob = await person();
    await (await alice.browser())({ method: 'POST', path: '/api/admin/splash/release-management-v3' });

    const bobs = await (await bob.browser())({ method: 'GET', path: '/api/admin/user' });

    expect(bobs.body.splash).toEqual({});
    expect(bobs.body.feedback).toEqual([]);
  });

  it(`keeps at most ${REMEMBERED_LIMIT} per person, and marking one seen again is always taken`, async () => {
    const { user, browser } = await person();
    const as = await browser();
    // All but the last through the service, in parallel: the limit is the store's conditional write either way.
    await Promise.all(Array.from({ length: REMEMBERED_LIMIT - 1 }, (_, i) => services.userSettings.markSplashSeen(user.id, `made-up-${i}`)));
    expect((await as({ method: 'POST', path: `/api/admin/splash/made-up-${REMEMBERED_LIMIT - 1}` })).status).toBe(200);

    const oneMore = await as({ method: 'POST', path: '/api/admin/splash/one-too-many' });
    const again = await as({ method: 'POST', path: '/api/admin/splash/made-up-0' });
    const tooLong = await as({ method: 'POST', path: `/api/admin/splash/${'x'.repeat(101)}` });

    expect(oneMore.status).toBe(400);
    expect(oneMore.body.name).toBe('ExceedsLimitError');
    expect(again.status).toBe(200);
    expect(tooLong.status).toBe(400);
    expect(Object.keys((await as({ method: 'GET', path: '/api/admin/user' })).body.splash)).toHaveLength(REMEMBERED_LIMIT);
  });
});

describe('feedback (POST /api/admin/feedback, PUT /api/admin/feedback/{id})', () => {
  it("remembers the person's answer, given now, and answers it back in GET /api/admin/user from any browser", async () => {
    now = new Date();
    const { user, browser } = await person();

    const created = await (await browser())({ method: 'POST', path: '/api/admin/feedback', body: { feedbackId: 'pnps', neverShow: true } });
    const me = await (await browser())({ method: 'GET', path: '/api/admin/user' });

    const expected = { userId: user.id, feedbackId: 'pnps', neverShow: true, given: now.toISOString() };
    expect(created.status).toBe(200);
    expect(feedbackSchema.parse(created.body)).toEqual(expected);
    expect(me.body.feedback).toEqual([expected]);
  });

  it("replaces an answer with PUT as Unleash does: given as sent, neverShow false and given now when left out", async () => {
    now = new Date();
    const { user, browser } = await person();
    const as = await browser();
    await as({ method: 'POST', path: '/api/admin/feedback', body: { feedbackId: 'pnps', neverShow: true } });

    const dated = await as({ method: 'PUT', path: '/api/admin/feedback/pnps', body: { given: '2026-01-02T03:04:05Z', neverShow: true } });
    const bare = await as({ method: 'PUT', path: '/api/admin/feedback/other-prompt', body: {} });
    const me = await as({ method: 'GET', path: '/api/admin/user' });

    expect(dated.body).toEqual({ userId: user.id, feedbackId: 'pnps', neverShow: true, given: '2026-01-02T03:04:05.000Z' });
    expect(bare.body).toEqual({ userId: user.id, feedbackId: 'other-prompt', neverShow: false, given: now.toISOString() });
    expect(me.body.feedback).toEqual([bare.body, dated.body]);
  });

  it('refuses a body without the prompt, a date that is none, and an API token (no person), each with a message naming why', async () => {
    const as = await (await person()).browser();

    const noId = await as({ method: 'POST', path: '/api/admin/feedback', body: { neverShow: true } });
    const badDate = await as({ method: 'PUT', path: '/api/admin/feedback/pnps', body: { given: 'yesterday' } });
    const byToken = await call({ method: 'POST', path: '/api/admin/feedback', token: apiToken, body: { feedbackId: 'pnps' } });
    const splashByToken = await call({ method: 'POST', path: '/api/admin/splash/personalDashboardKeyConcepts', token: apiToken });

    expect([noId.status, badDate.status, byToken.status, splashByToken.status]).toEqual([400, 400, 403, 403]);
    expect(noId.body.message).toContain('feedbackId');
    expect(badDate.body.message).toContain('given');
    expect(byToken.body.message).toContain('remembered per user');
  });

  it('takes the person behind a personal access token too', async () => {
    const { user, browser } = await person();
    const as = await browser();
    const { secret } = (await as({ method: 'POST', path: '/api/admin/user/tokens', body: { description: 'script', expiresAt: new Date(Date.now() + 86_400_000).toISOString() } })).body;

    const res = await call({ method: 'POST', path: '/api/admin/splash/from-a-script', token: secret });

    expect(res.body).toEqual({ userId: user.id, splashId: 'from-a-script', seen: true });
    expect((await as({ method: 'GET', path: '/api/admin/user' })).body.splash).toEqual({ 'from-a-script': true });
  });
});

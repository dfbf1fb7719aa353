import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { projectSteps } from '../support/projects.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { unique } from '../support/services.js';

const { call, token, services } = adminSession();
const steps = featureSteps(call, token);
const projects = projectSteps(call, token);

/** The project page's header (GET …/overview) and the DynamoDB requests it sent. */
async function overview(project: string) {
  const before = services.dynamoRequests.snapshot();
  const res = await call({ method: 'GET', path: `/api/admin/projects/${project}/overview`, token });
  return { res, requests: countsSince(before, services.dynamoRequests.snapshot()) };
}

describe("a larger project's onboarding status", () => {
  it('reads every last-seen time at once instead of one Query per feature, and finds the one SDKs reported', async () => {
    const project = await projects.createProject();
    const names: string[] = [];
    for (let batch = 0; batch < 3; batch += 1) {
      names.push(...(await Promise.all(Array.from({ length: 10 }, (_, index) => steps.createFeature(project, unique(`onboard-${batch}-${index}`))))));
    }

    const unseen = await overview(project);
    // The oldest-but-one feature: the old probe of the newest features first had to read most of them to get there.
    await services.metrics.markSeen([{ feature: names[1]!, environment: 'development', at: new Date().toISOString() }]);
    const seen = await overview(project);

    expect(unseen.res.status).toBe(200);
    expect(unseen.res.body.onboardingStatus.status).toBe('first-flag-created');
    expect(names).toContain(unseen.res.body.onboardingStatus.feature);
    expect(seen.res.body.onboardingStatus).toEqual({ status: 'onboarded' });
    // One Query per feature (30) is what the status cost before; the rest of the overview reads a handful.
    for (const { requests } of [unseen, seen]) expect(requests.byOperation.Query ?? 0).toBeLessThan(names.length / 2);
  });
});

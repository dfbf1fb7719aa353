import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { adminToken, testServices, unique } from '../support/services.js';

/** Unleash 7's flag links, as the flag page's "Add link" dialog writes them. */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  services = testServices();
  call = apiClient(services);
  token = await adminToken(services);
  steps = featureSteps(call, token);
});

const addLink = (name: string, body: unknown) => call({ method: 'POST', path: `${steps.base('default', name)}/link`, token, body });
const linksOf = async (name: string) => (await steps.getFeature('default', name)).body.links as Array<{ id: string; url: string; title: string | null; feature: string }>;
const eventTypesOf = async (name: string) => {
  const res = await call({ method: 'GET', path: `/api/admin/search/events?feature=IS:${name}`, token });
  return (res.body.events as Array<{ type: string; featureName: string }>).filter((event) => event.featureName === name).map((event) => event.type);
};

describe('flag links', () => {
  it('a new flag has no links, and an added link is on the flag with https:// added and its title', async () => {
    const name = await steps.createFeature();
    expect(await linksOf(name)).toEqual([]);

    const res = await addLink(name, { url: 'github.com/acme/shop/issues/7', title: 'Rollout issue' });

    expect(res.status).toBe(204);
    expect(await linksOf(name)).toEqual([{ id: expect.any(String), url: 'https://github.com/acme/shop/issues/7', title: 'Rollout issue', feature: name }]);
    expect(await eventTypesOf(name)).toContain('feature-link-added');
  });

  it('a link is changed and removed by its id, each with its event', async () => {
    const name = await steps.createFeature();
    await addLink(name, { url: 'https://example.com/a' });
    const [link] = await linksOf(name);

    const updated = await call({ method: 'PUT', path: `${steps.base('default', name)}/link/${link!.id}`, token, body: { url: 'https://example.com/b', title: 'B' } });

    expect(updated.status).toBe(204);
    expect(await linksOf(name)).toEqual([{ id: link!.id, url: 'https://example.com/b', title: 'B', feature: name }]);
    const removed = await call({ method: 'DELETE', path: `${steps.base('default', name)}/link/${link!.id}`, token });
    expect(removed.status).toBe(204);
    expect(await linksOf(name)).toEqual([]);
    expect(await eventTypesOf(name)).toEqual(expect.arrayContaining(['feature-link-added', 'feature-link-updated', 'feature-link-removed']));
  });

  it('refuses an address that is not a web address, a missing url and an eleventh link, changing nothing', async () => {
    const name = await steps.createFeature();

    const notUrl = await addLink(name, { url: 'not a url' });
    const script = await addLink(name, { url: 'javascript:alert(1)' });
    const missing = await addLink(name, { title: 'no url' });

    for (const res of [notUrl, script, missing]) expect([res.status, res.body.name]).toEqual([400, 'ValidationError']);
    expect(notUrl.body.message).toContain('Invalid URL');
    expect(await linksOf(name)).toEqual([]);
    for (let index = 0; index < 10; index += 1) expect((await addLink(name, { url: `https://example.com/${index}` })).status).toBe(204);
    const eleventh = await addLink(name, { url: 'https://example.com/10' });
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.message).toContain('Too many links (10)');
    expect(await linksOf(name)).toHaveLength(10);
  });

  it('answers 404 for an unknown link id and for a flag of another project', async () => {
    const name = await steps.createFeature();
    const project = await steps.createProject();

    const unknownLink = await call({ method: 'DELETE', path: `${steps.base('default', name)}/link/${unique('link')}`, token });
    const otherProject = await call({ method: 'POST', path: `${steps.base(project, name)}/link`, token, body: { url: 'https://example.com' } });

    expect([unknownLink.status, unknownLink.body.name]).toEqual([404, 'NotFoundError']);
    expect([otherProject.status, otherProject.body.name]).toEqual([404, 'NotFoundError']);
  });

  it('the links are not part of what SDKs receive', async () => {
    const name = await steps.createFeature();
    await addLink(name, { url: 'https://example.com/secret-dashboard' });

    const exported = await call({ method: 'GET', path: `/api/client/features?namePrefix=${name}`, token: await sdkToken(services) });

    expect(exported.status).toBe(200);
    expect(exported.text).toContain(name);
    expect(exported.text).not.toContain('secret-dashboard');
  });
});

import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { FLAG } from './flag-steps.js';
import { answer, confirmButton, EFFECT, open, type WalkStep } from './walk.js';

const SEGMENT = 'walk-beta-users';
const CONTEXT_FIELD = 'walk-region';
const PROJECT_CONTEXT_FIELD = 'walk-tenant';
const TAG_TYPE = 'walk-team';
const STRATEGY_TYPE = 'walk-strategy';
const APP = 'walk-app';

/** Adds one value to the constraint just added in Unleash's constraint editor. */
async function addConstraintValue(page: Page, value: string): Promise<void> {
  await page.getByTestId('CONSTRAINT_ADD_VALUES_BUTTON').last().click();
  const values = page.getByTestId('CONSTRAINT_VALUES_INPUT');
  await values.locator('input').fill(value);
  await page.getByTestId('CONSTRAINT_VALUES_ADD_BUTTON').click();
  // The value's chip (the API command beside the form shows it quoted, so an exact match is the chip).
  await page.getByText(value, { exact: true }).first().waitFor();
  await values.locator('input').press('Escape');
  await values.waitFor({ state: 'hidden' });
}

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

export const CATALOGUE_STEPS: WalkStep[] = [
  {
    page: 'Segments', action: 'create a segment with a constraint',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/segments/create', page.getByLabel(/Segment name/));
      await page.getByLabel(/Segment name/).fill(SEGMENT);
      await page.getByLabel(/Description/).fill('People trying the walk');
      await page.getByTestId('SEGMENT_NEXT_BTN_ID').click();
      // A segment's form picks its context field from a menu instead of the strategy form's button.
      await page.getByPlaceholder('Select a context').click();
      await page.getByRole('option', { name: 'userId', exact: true }).click();
      await addConstraintValue(page, 'walk-user-1');
      await answer(page, 'POST', /^\/api\/admin\/segments$/, () => page.getByTestId('SEGMENT_CREATE_BTN_ID').click(), 201);
      const { segments } = await walk.api.get('/api/admin/segments');
      const segment = segments.find((s: { name: string }) => s.name === SEGMENT);
      expect(segment).toMatchObject({ name: SEGMENT, constraints: [{ contextName: 'userId', values: ['walk-user-1'] }] });
      walk.kept.set('segmentId', String(segment.id));
    },
  },
  {
    page: 'Segments', action: "edit the segment's description",
    run: async (walk) => {
      const { page } = walk;
      const id = walk.kept.get('segmentId');
      await open(walk, `/segments/edit/${id}`, page.getByLabel(/Description/));
      // The form fills in from the segment once read: edit after that, or the read overwrites the edit.
      await expect.poll(() => page.getByLabel(/Description/).inputValue(), EFFECT).toBe('People trying the walk');
      await page.getByLabel(/Description/).fill('People trying the walk, edited');
      await page.getByTestId('SEGMENT_NEXT_BTN_ID').click();
      await answer(page, 'PUT', new RegExp(`^/api/admin/segments/${id}$`), () => page.getByTestId('SEGMENT_SAVE_BTN_ID').click());
      expect(await walk.api.get(`/api/admin/segments/${id}`)).toMatchObject({ description: 'People trying the walk, edited' });
    },
  },
  {
    page: 'Segments', action: 'delete the segment',
    run: async (walk) => {
      const { page } = walk;
      const id = walk.kept.get('segmentId');
      await open(walk, '/segments', row(page, SEGMENT));
      await page.getByTestId(`SEGMENT_DELETE_BTN_ID_${SEGMENT}`).click();
      await page.getByTestId('SEGMENT_DIALOG_NAME_ID').locator('input').fill(SEGMENT);
      await answer(page, 'DELETE', new RegExp(`^/api/admin/segments/${id}$`), () => confirmButton(page).click());
      expect((await walk.api.call('GET', `/api/admin/segments/${id}`)).status).toBe(404);
    },
  },
  {
    page: 'Context fields', action: 'create a context field with a legal value',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/context/create', page.getByLabel('Context name'));
      await answer(page, 'POST', /^\/api\/admin\/context\/validate$/, async () => {
        await page.getByLabel('Context name').fill(CONTEXT_FIELD);
        await page.getByLabel('Context description (optional)').focus();
      });
      await page.getByLabel('Context description (optional)').fill('Where the walk runs');
      await page.getByLabel('Legal value (optional)').fill('eu-north');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await answer(page, 'POST', /^\/api\/admin\/context$/, () => page.getByRole('button', { name: 'Create context' }).click(), 201);
      expect(await walk.api.get(`/api/admin/context/${CONTEXT_FIELD}`)).toMatchObject({
        name: CONTEXT_FIELD, description: 'Where the walk runs', legalValues: [{ value: 'eu-north' }],
      });
    },
  },
  {
    page: 'Context fields', action: "edit the field's description",
    run: async (walk) => {
      const { page } = walk;
      await open(walk, `/context/edit/${CONTEXT_FIELD}`, page.getByLabel('Context description (optional)'));
      await expect.poll(() => page.getByLabel('Context description (optional)').inputValue(), EFFECT).toBe('Where the walk runs');
      await page.getByLabel('Context description (optional)').fill('Where the walk runs, edited');
      await answer(page, 'PUT', new RegExp(`^/api/admin/context/${CONTEXT_FIELD}$`), () => page.getByRole('button', { name: 'Save' }).click());
      expect(await walk.api.get(`/api/admin/context/${CONTEXT_FIELD}`)).toMatchObject({ description: 'Where the walk runs, edited' });
    },
  },
  {
    page: 'Context fields', action: 'delete the field (unused, so its delete button is enabled)',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/context', row(page, CONTEXT_FIELD));
      await row(page, CONTEXT_FIELD).getByRole('button', { name: /Delete/ }).click();
      await answer(page, 'DELETE', new RegExp(`^/api/admin/context/${CONTEXT_FIELD}$`), () => confirmButton(page).click());
      expect((await walk.api.call('GET', `/api/admin/context/${CONTEXT_FIELD}`)).status).toBe(404);
    },
  },
  {
    page: 'Tag types', action: 'create, edit and delete a tag type',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/tag-types/create', page.getByLabel('Tag name'));
      await page.getByLabel('Tag name').fill(TAG_TYPE);
      await page.getByLabel('Tag description').fill('The team that owns a flag');
      await answer(page, 'POST', /^\/api\/admin\/tag-types$/, () => page.getByRole('button', { name: 'Create type' }).click());
      expect(await walk.api.get(`/api/admin/tag-types/${TAG_TYPE}`)).toMatchObject({ tagType: { name: TAG_TYPE } });

      await open(walk, `/tag-types/edit/${TAG_TYPE}`, page.getByLabel('Tag description'));
      await expect.poll(() => page.getByLabel('Tag description').inputValue(), EFFECT).toBe('The team that owns a flag');
      await page.getByLabel('Tag description').fill('The owning team');
      await answer(page, 'PUT', new RegExp(`^/api/admin/tag-types/${TAG_TYPE}$`), () => page.getByRole('button', { name: 'Save' }).click());
      expect(await walk.api.get(`/api/admin/tag-types/${TAG_TYPE}`)).toMatchObject({ tagType: { description: 'The owning team' } });

      await open(walk, '/tag-types', row(page, TAG_TYPE));
      await row(page, TAG_TYPE).getByRole('button', { name: /Delete/ }).click();
      await answer(page, 'DELETE', new RegExp(`^/api/admin/tag-types/${TAG_TYPE}$`), () => confirmButton(page).click());
      expect((await walk.api.call('GET', `/api/admin/tag-types/${TAG_TYPE}`)).status).toBe(404);
    },
  },
  {
    page: 'Strategy types', action: 'create a strategy type with a parameter',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/strategies/create', page.getByLabel(/Strategy name/));
      await page.getByLabel(/Strategy name/).fill(STRATEGY_TYPE);
      await page.getByLabel('Strategy description').fill('Turns a flag on for the walk');
      await answer(page, 'POST', /^\/api\/admin\/strategies$/, () => page.getByRole('button', { name: 'Create strategy' }).click(), 201);
      expect(await walk.api.get(`/api/admin/strategies/${STRATEGY_TYPE}`)).toMatchObject({ name: STRATEGY_TYPE, deprecated: false });
    },
  },
  {
    page: 'Strategy types', action: 'deprecate the strategy type, then reactivate it',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/strategies', row(page, STRATEGY_TYPE));
      // The row's switch: on is active, off deprecated; each change asks for a confirmation.
      const active = row(page, STRATEGY_TYPE).getByRole('checkbox');
      await active.click();
      await answer(page, 'POST', new RegExp(`^/api/admin/strategies/${STRATEGY_TYPE}/deprecate$`), () => confirmButton(page).click());
      expect(await walk.api.get(`/api/admin/strategies/${STRATEGY_TYPE}`)).toMatchObject({ deprecated: true });
      await active.click();
      await answer(page, 'POST', new RegExp(`^/api/admin/strategies/${STRATEGY_TYPE}/reactivate$`), () => confirmButton(page).click());
      expect(await walk.api.get(`/api/admin/strategies/${STRATEGY_TYPE}`)).toMatchObject({ deprecated: false });
    },
  },
  {
    page: 'Strategy types', action: 'delete the strategy type',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/strategies', row(page, STRATEGY_TYPE));
      await row(page, STRATEGY_TYPE).getByRole('button', { name: /Delete/ }).click();
      await answer(page, 'DELETE', new RegExp(`^/api/admin/strategies/${STRATEGY_TYPE}$`), () => confirmButton(page).click());
      expect((await walk.api.call('GET', `/api/admin/strategies/${STRATEGY_TYPE}`)).status).toBe(404);
    },
  },
  {
    page: 'Feature flag types', action: "change the release type's expected lifetime",
    run: async (walk) => {
      const { page } = walk;
      const lifetime = page.locator('#feature-flag-lifetime');
      await open(walk, '/feature-toggle-type/edit/release', lifetime);
      // Unleash's dialog opens with "doesn't expire" ticked and the number disabled, as it does against Unleash.
      if (await lifetime.isDisabled()) await page.locator('#feature-flag-expire').click();
      await lifetime.fill('45');
      await answer(page, 'PUT', /^\/api\/admin\/feature-types\/release\/lifetime$/, () => page.getByRole('button', { name: /Save/ }).click());
      const { types } = await walk.api.get('/api/admin/feature-types');
      expect(types.find((t: { id: string }) => t.id === 'release')).toMatchObject({ lifetimeDays: 45 });
    },
  },
  {
    page: 'Integrations', action: 'create a webhook integration',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/integrations', page.getByText('Webhook', { exact: true }).first());
      await open(walk, '/integrations/create/webhook', page.getByLabel('Description'));
      // A host name is checked when a delivery resolves it; an address on loopback is refused here.
      await page.getByLabel(/Webhook URL/).first().fill('https://hooks.example.com/walk-webhook');
      await page.getByLabel('Description').fill('The walk webhook');
      await page.getByPlaceholder('Select events to filter by').fill('feature-created');
      await page.getByRole('option', { name: 'feature-created' }).first().click();
      await page.keyboard.press('Escape');
      await answer(page, 'POST', /^\/api\/admin\/addons$/, () => page.getByRole('button', { name: 'Create', exact: true }).click());
      const { addons } = await walk.api.get('/api/admin/addons');
      expect(addons).toEqual(expect.arrayContaining([expect.objectContaining({
        provider: 'webhook', description: 'The walk webhook', events: ['feature-created'],
      })]));
    },
  },
  {
    page: 'Applications', action: "list an SDK's application and open it",
    run: async (walk) => {
      const { page } = walk;
      const registered = await fetch(`${walk.origin}/api/client/register`, {
        method: 'POST',
        headers: { Authorization: walk.clientToken, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          appName: APP, instanceId: 'walk-instance', sdkVersion: 'unleash-client-node:6.12.1', environment: 'development',
          strategies: ['default', 'flexibleRollout'], started: new Date().toISOString(), interval: 15_000,
        }),
      });
      expect(registered.status).toBe(202);
      await open(walk, '/applications', page.getByRole('link', { name: APP }).or(page.getByText(APP, { exact: true })).first());
      await open(walk, `/applications/${APP}`, page.getByText(APP).first());
      await page.getByText('unleash-client-node:6.12.1').or(page.getByText('6.12.1')).first().waitFor();
      expect(await walk.api.get(`/api/admin/metrics/applications/${APP}`)).toMatchObject({ appName: APP });
    },
  },
  {
    page: 'Playground', action: 'evaluate the flags of development for a context',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/playground', page.getByRole('button', { name: 'Try configuration' }));
      await page.locator('#environment').click();
      await page.getByRole('option', { name: 'development' }).click();
      await page.keyboard.press('Escape');
      await answer(page, 'POST', /^\/api\/admin\/playground\/advanced$/, () => page.getByRole('button', { name: 'Try configuration' }).click());
      await page.locator(`main a[href="/projects/default/features/${FLAG}"]`).or(page.getByRole('row').filter({ hasText: FLAG })).first().waitFor();
    },
  },
  {
    page: 'Event log', action: "find the walk's changes, newest first",
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/history', page.getByText('feature-created', { exact: true }).first());
      await page.getByText('feature-environment-enabled', { exact: true }).first().waitFor();
      const { events } = await walk.api.get(`/api/admin/search/events?feature=IS:${FLAG}`);
      expect(events.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['feature-created', 'feature-environment-enabled']));
    },
  },
  {
    page: 'Personal dashboard', action: "show the admin's flags, projects and the instance's admins",
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/personal', page.getByText('Dashboard').first());
      await page.getByText(FLAG, { exact: true }).first().waitFor();
      expect(await page.getByText('You have no Unleash administrators to contact').count()).toBe(0);
      expect(await page.getByText("You don't currently have access to any projects").count()).toBe(0);
      const dashboard = await (await page.request.get(`${walk.origin}/api/admin/personal-dashboard`)).json();
      expect(dashboard.flags.map((f: { name: string }) => f.name)).toContain(FLAG);
      expect(dashboard.admins.length).toBeGreaterThan(0);
    },
  },
  {
    page: 'Project settings → API access', action: 'create a project API token',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/projects/default/settings/api-access', page.getByTestId('CREATE_API_TOKEN_BUTTON'));
      await page.getByTestId('CREATE_API_TOKEN_BUTTON').click();
      await page.getByLabel('Token name').fill('walk-project-token');
      await answer(page, 'POST', /^\/api\/admin\/projects\/default\/api-tokens$/, () => page.getByRole('button', { name: 'Create token' }).click(), 201);
      const { tokens } = await walk.api.get('/api/admin/projects/default/api-tokens');
      expect(tokens.map((t: { tokenName: string }) => t.tokenName)).toContain('walk-project-token');
    },
  },
  {
    page: 'Project settings → Context fields', action: 'create a project context field',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/projects/default/settings/context', page.getByRole('button', { name: 'New context field' }));
      await page.getByRole('button', { name: 'New context field' }).click();
      await page.getByLabel('Context name').fill(PROJECT_CONTEXT_FIELD);
      await answer(page, 'POST', /\/context$/, () => page.getByRole('button', { name: 'Create context' }).click(), 201);
      await row(page, PROJECT_CONTEXT_FIELD).first().waitFor();
      await expect.poll(async () => (await walk.api.call('GET', `/api/admin/context/${PROJECT_CONTEXT_FIELD}`)).status, EFFECT).toBe(200);
    },
  },
  {
    page: 'Project settings → Default strategy', action: "give development's default strategy a title",
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/projects/default/settings/default-strategy', page.getByText('Environment').first());
      // The first environment's card (development) has the first pencil.
      await page.getByRole('main').getByTestId('EditIcon').first().click();
      await page.locator('#title-input').fill('Walk default');
      await answer(page, 'POST', /\/environments\/development\/default-strategy$/, () => page.getByTestId('STRATEGY_FORM_SUBMIT_ID').click());
      const { environments } = await walk.api.get('/api/admin/projects/default/overview');
      const development = environments.find((env: { environment: string }) => env.environment === 'development');
      expect(development.defaultStrategy).toMatchObject({ name: 'flexibleRollout', title: 'Walk default' });
    },
  },
  {
    page: 'Project settings → Environments', action: 'list the environments the project uses',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/projects/default/settings/environments', row(page, 'production').first());
      await row(page, 'development').first().waitFor();
      const project = await walk.api.get('/api/admin/projects/default/overview');
      expect(project.environments.map((e: { environment: string }) => e.environment)).toEqual(['development', 'production']);
    },
  },
];

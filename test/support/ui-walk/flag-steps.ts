import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { answer, confirmButton, EFFECT, open, sdkFeatures, sessionGet, settled, type WalkContext, type WalkStep } from './walk.js';

/** The walk's fixed names: each run starts on a fresh table. */
export const FLAG = 'walk-checkout';
export const SECOND_FLAG = 'walk-banner';
export const CLONE = 'walk-checkout-copy';
const FEATURES = '/api/admin/projects/default/features';

const environment = (page: Page, name: string) => page.getByTestId(`FEATURE_ENVIRONMENT_ACCORDION_${name}`);

export async function openFlag(walk: WalkContext, flag = FLAG): Promise<void> {
  await open(walk, `/projects/default/features/${flag}`, environment(walk.page, 'development'));
}

/** A flag's link in a table: its name is in a span the accessible name does not reach, so by address. */
export const flagLink = (page: Page, flag: string) => page.locator(`main a[href="/projects/default/features/${flag}"]`).filter({ visible: true }).first();

async function openProject(walk: WalkContext): Promise<void> {
  await open(walk, '/projects/default', flagLink(walk.page, FLAG));
}

async function createFlag(walk: WalkContext, name: string): Promise<void> {
  const { page } = walk;
  const create = page.getByRole('button', { name: 'New feature flag' });
  await open(walk, '/projects/default', create);
  await create.click();
  await page.getByTestId('FORM_NAME_INPUT').locator('input').fill(name);
  await answer(page, 'POST', new RegExp(`^${FEATURES}$`), () => page.getByTestId('FORM_CREATE_BUTTON').click(), 201);
}

const feature = (walk: WalkContext, name = FLAG) => walk.api.get(`${FEATURES}/${name}`);

export const FLAG_STEPS: WalkStep[] = [
  {
    page: 'Project overview', action: 'create two flags',
    run: async (walk) => {
      await createFlag(walk, FLAG);
      await createFlag(walk, SECOND_FLAG);
      expect(await feature(walk)).toMatchObject({ name: FLAG, project: 'default', type: 'release' });
      expect(await feature(walk, SECOND_FLAG)).toMatchObject({ name: SECOND_FLAG });
    },
  },
  {
    page: 'Project overview', action: "the flag table's creator filter names the admin (flag creators)",
    run: async (walk) => {
      await openProject(walk);
      await walk.page.getByRole('row').filter({ hasText: FLAG }).getByRole('button', { name: /Show only flags created by admin/ }).waitFor();
      const creators = await walk.api.get('/api/admin/projects/default/flag-creators');
      expect(creators).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'admin' })]));
    },
  },
  {
    page: 'Flag → edit', action: 'change the description and the flag type',
    run: async (walk) => {
      const { page } = walk;
      const description = page.locator('main textarea').first();
      await open(walk, `/projects/default/features/${FLAG}/edit`, description);
      await description.fill('The walk checkout');
      // The form's only select: the flag type.
      await page.getByRole('main').getByRole('combobox').first().click();
      await page.getByRole('option', { name: /Experiment/ }).click();
      await answer(page, 'PATCH', new RegExp(`^${FEATURES}/${FLAG}$`), () => page.getByRole('button', { name: 'Save' }).click());
      expect(await feature(walk)).toMatchObject({ description: 'The walk checkout', type: 'experiment' });
    },
  },
  {
    page: 'Flag', action: 'add a gradual rollout with a constraint and a variant in development',
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk);
      await environment(page, 'development').getByTestId('ADD_STRATEGY_BUTTON').click();
      const card = page.locator('div')
        .filter({ has: page.getByText('Gradual rollout', { exact: true }) })
        .filter({ has: page.getByRole('button', { name: 'Configure' }) })
        .last();
      await card.getByRole('button', { name: 'Configure' }).click();
      await page.getByTestId('STRATEGY_TARGETING_TAB').click();
      await page.getByTestId('ADD_CONSTRAINT_BUTTON').click();
      await page.locator('#context-field-select').click();
      await page.getByRole('option', { name: 'appName', exact: true }).click();
      await page.getByTestId('CONSTRAINT_ADD_VALUES_BUTTON').click();
      const values = page.getByTestId('CONSTRAINT_VALUES_INPUT');
      await values.locator('input').fill('web');
      await page.getByTestId('CONSTRAINT_VALUES_ADD_BUTTON').click();
      await page.getByTestId('SIDEBAR_MODAL_ID').getByText('web', { exact: true }).waitFor();
      await values.locator('input').press('Escape');
      await values.waitFor({ state: 'hidden' });
      await page.getByTestId('STRATEGY_VARIANTS_TAB').click();
      await page.getByTestId('ADD_STRATEGY_VARIANT_BUTTON').click();
      await page.getByTestId('VARIANT_NAME_INPUT').locator('input').fill('blue');
      await page.locator('#variant-payload-value').fill('blue-checkout');
      await answer(page, 'POST', /\/environments\/development\/strategies$/, () => page.getByTestId('STRATEGY_FORM_SUBMIT_ID').click());
      await expect.poll(async () => (await feature(walk)).environments.find((env: { name: string }) => env.name === 'development').strategies, EFFECT)
        .toMatchObject([{
          name: 'flexibleRollout',
          constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
          variants: [{ name: 'blue', payload: { type: 'string', value: 'blue-checkout' } }],
        }]);
    },
  },
  {
    page: 'Flag', action: "edit the strategy's title",
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk);
      // The environment holds a strategy: its card opens folded.
      await environment(page, 'development').getByRole('button').first().click();
      await environment(page, 'development').getByTestId('STRATEGY_EDIT-flexibleRollout').first().click();
      await page.locator('#title-input').fill('Walk rollout');
      await answer(page, 'PUT', /\/environments\/development\/strategies\/[^/]+$/, () => page.getByTestId('STRATEGY_FORM_SUBMIT_ID').click());
      const [strategy] = (await feature(walk)).environments.find((env: { name: string }) => env.name === 'development').strategies;
      expect(strategy).toMatchObject({ name: 'flexibleRollout', title: 'Walk rollout' });
    },
  },
  {
    page: 'Flag', action: 'turn it on in development (an SDK gets it on)',
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk);
      await answer(page, 'POST', new RegExp(`/features/${FLAG}/environments/development/on$`),
        () => page.getByTestId(`TOGGLE-${FLAG}-development`).locator('input').click());
      await expect.poll(async () => {
        const features = await sdkFeatures(walk);
        return typeof features === 'number' ? features : features.find((f) => f.name === FLAG);
      }, EFFECT).toMatchObject({ enabled: true, strategies: [{ name: 'flexibleRollout' }] });
    },
  },
  {
    page: 'Flag', action: 'mark it a favourite (the star in its header)',
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk);
      await answer(page, 'POST', new RegExp(`${FEATURES}/${FLAG}/favorites$`),
        () => page.getByRole('button', { name: 'Favorite this feature flag' }).first().click());
      // Favourites are the person's: read with the admin's session, not the admin token.
      await expect.poll(async () => (await sessionGet(walk, `${FEATURES}/${FLAG}`)).favorite, EFFECT).toBe(true);
    },
  },
  {
    page: 'Flag', action: 'add a link',
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk);
      await page.getByRole('button', { name: 'Add link' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add link' });
      await dialog.getByPlaceholder('https://').fill('https://example.com/walk-checkout');
      await dialog.getByLabel('Title (optional)').fill('Design notes');
      await answer(page, 'POST', new RegExp(`/features/${FLAG}/link$`), () => dialog.getByRole('button', { name: 'Save' }).click());
      await page.getByRole('link', { name: 'Design notes' }).waitFor();
      expect((await feature(walk)).links).toMatchObject([{ url: 'https://example.com/walk-checkout', title: 'Design notes' }]);
    },
  },
  {
    page: 'Flag', action: 'add a tag (simple: walk)',
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk);
      await page.getByRole('button', { name: 'Add tag' }).click();
      await addTagInDialog(page, 'walk');
      await answer(page, 'PUT', new RegExp(`/features/${FLAG}/tags$`), () => page.getByTestId('DIALOGUE_CONFIRM_ID').click());
      const { tags } = await walk.api.get(`/api/admin/features/${FLAG}/tags`);
      expect(tags).toEqual(expect.arrayContaining([{ type: 'simple', value: 'walk' }]));
    },
  },
  {
    page: 'Flag → clone', action: 'clone it under a new name',
    run: async (walk) => {
      const { page } = walk;
      const name = page.getByLabel('Name', { exact: true });
      await open(walk, `/projects/default/features/${FLAG}/copy`, name);
      await name.fill(CLONE);
      await answer(page, 'POST', new RegExp(`/features/${FLAG}/clone$`), () => page.getByRole('button', { name: 'Create from copy' }).click());
      const copy = await feature(walk, CLONE);
      const development = copy.environments.find((env: { name: string }) => env.name === 'development');
      expect(development.strategies).toMatchObject([{ name: 'flexibleRollout', constraints: [{ contextName: 'appName', values: ['web'] }] }]);
    },
  },
  {
    page: 'Flag', action: "mark its lifecycle completed (kept), then read the stage back",
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk);
      // The stage's badge in the flag's details opens a tooltip offering the next step.
      await page.getByText('Lifecycle:').locator('..').locator('[tabindex="0"]').first().hover();
      await page.getByRole('tooltip').getByRole('button', { name: /Mark ready for cleanup|Mark completed/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Mark completed' });
      await dialog.getByRole('radio', { name: 'We decided to keep the feature', exact: true }).check();
      await answer(page, 'POST', new RegExp(`/features/${FLAG}/lifecycle/complete$`), () => dialog.getByTestId('DIALOGUE_CONFIRM_ID').click());
      const stages: Array<{ stage: string }> = await walk.api.get(`${FEATURES}/${FLAG}/lifecycle`);
      expect(stages.map((s) => s.stage)).toContain('completed');
    },
  },
  {
    page: 'Flag → metrics', action: "show an SDK's reported evaluations",
    run: async (walk) => {
      const { page } = walk;
      const now = new Date();
      const report = await fetch(`${walk.origin}/api/client/metrics`, {
        method: 'POST',
        headers: { Authorization: walk.clientToken, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          appName: 'walk-app', instanceId: 'walk-instance', environment: 'development',
          bucket: { start: new Date(now.getTime() - 60_000).toISOString(), stop: now.toISOString(), toggles: { [FLAG]: { yes: 5, no: 1, variants: {} } } },
        }),
      });
      expect(report.status).toBe(202);
      // The tab opens on production; the report was development's.
      await expect.poll(async () => {
        await open(walk, `/projects/default/features/${FLAG}/metrics`, page.getByRole('button', { name: 'development' }).first());
        await page.getByRole('button', { name: 'development' }).first().click();
        await settled(page);
        return page.getByText('We have yet to receive any metrics').count();
      }, EFFECT).toBe(0);
      await page.getByRole('button', { name: 'walk-app' }).or(page.getByText('walk-app', { exact: true })).first().waitFor();
    },
  },
  {
    page: 'Flag → event log', action: "list the flag's changes",
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk);
      await page.getByTestId('TAB-Event log').click();
      await page.getByText('feature-environment-enabled').first().waitFor();
      await page.getByText('feature-created').first().waitFor();
    },
  },
  {
    page: 'Project overview', action: 'bulk: enable the selected flags in development',
    run: async (walk) => {
      const { page } = walk;
      await openProject(walk);
      await selectRows(page, [SECOND_FLAG, CLONE]);
      await page.getByRole('button', { name: 'Enable', exact: true }).click();
      await answer(page, 'POST', /\/bulk_features\/environments\/development\/on$/, () => confirmButton(page).click());
      for (const name of [SECOND_FLAG, CLONE]) {
        const development = (await feature(walk, name)).environments.find((env: { name: string }) => env.name === 'development');
        expect(development, name).toMatchObject({ enabled: true });
      }
    },
  },
  {
    page: 'Project overview', action: 'bulk: add a tag to the selected flags',
    run: async (walk) => {
      const { page } = walk;
      await openProject(walk);
      await selectRows(page, [SECOND_FLAG, CLONE]);
      await page.getByRole('button', { name: 'Tags', exact: true }).click();
      await addTagInDialog(page, 'bulk-walk');
      await saveEnabled(page);
      await answer(page, 'PUT', /\/api\/admin\/projects\/default\/tags$|\/api\/admin\/tags\/features$/, () => confirmButton(page).click());
      for (const name of [SECOND_FLAG, CLONE]) {
        const { tags } = await walk.api.get(`/api/admin/features/${name}/tags`);
        expect(tags, name).toEqual(expect.arrayContaining([{ type: 'simple', value: 'bulk-walk' }]));
      }
    },
  },
  {
    page: 'Project overview', action: 'mark a flag a favourite from the table',
    run: async (walk) => {
      const { page } = walk;
      await openProject(walk);
      await answer(page, 'POST', new RegExp(`${FEATURES}/${SECOND_FLAG}/favorites$`),
        () => page.getByRole('row').filter({ hasText: SECOND_FLAG }).getByRole('button', { name: 'Add to favorites' }).click());
      expect(await sessionGet(walk, `${FEATURES}/${SECOND_FLAG}`)).toMatchObject({ favorite: true });
    },
  },
  {
    page: 'Project overview', action: 'mark the project a favourite (the star by its name)',
    run: async (walk) => {
      const { page } = walk;
      await openProject(walk);
      await answer(page, 'POST', /\/api\/admin\/projects\/default\/favorites$/,
        () => page.getByRole('main').getByRole('button', { name: /favorite/i }).first().click());
      const { projects } = await sessionGet(walk, '/api/admin/projects');
      expect(projects.find((p: { id: string }) => p.id === 'default')).toMatchObject({ favorite: true });
    },
  },
  {
    page: 'Project status', action: 'read the lifecycle counts and health',
    run: async (walk) => {
      const { page } = walk;
      await openProject(walk);
      await page.getByRole('button', { name: 'Project status' }).click();
      // A side panel, not a dialog.
      const panel = page.getByTestId('SIDEBAR_MODAL_ID');
      await panel.getByText(/technical debt rating is \d+%/).first().waitFor();
      await panel.getByText('Project resources').waitFor();
      const status = await walk.api.get('/api/admin/projects/default/status');
      expect(status.lifecycleSummary.completed.currentFlags).toBeGreaterThanOrEqual(1);
    },
  },
  {
    page: 'Flag', action: 'archive the clone; the archive page revives it',
    run: async (walk) => {
      const { page } = walk;
      await openFlag(walk, CLONE);
      await page.getByRole('button', { name: 'Archive feature flag' }).click();
      await answer(page, 'DELETE', new RegExp(`${FEATURES}/${CLONE}$`), () => confirmButton(page).click());
      const archived = await walk.api.get('/api/admin/archive/features');
      expect(archived.features.map((f: { name: string }) => f.name)).toContain(CLONE);
      await open(walk, '/archive', page.getByRole('row').filter({ hasText: CLONE }).first());
      await page.getByRole('row').filter({ hasText: CLONE }).getByRole('button', { name: /Revive/i }).click();
      await answer(page, 'POST', /\/api\/admin\/projects\/default\/revive$/, () => confirmButton(page).click());
      expect(await feature(walk, CLONE)).toMatchObject({ archived: false });
    },
  },
  {
    page: 'Flags overview (search)', action: 'find a flag by name',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/search');
      await answer(page, 'GET', /\/api\/admin\/search\/features$/, () => page.getByPlaceholder(/Search/).first().fill(SECOND_FLAG));
      await page.locator(`main a[href="/projects/default/features/${SECOND_FLAG}"]`).first().waitFor();
      await page.locator(`main a[href="/projects/default/features/${FLAG}"]`).first().waitFor({ state: 'detached' });
    },
  },
];

/** Picks the rows of the project's flag table by their flags' names. */
async function selectRows(page: Page, names: string[]): Promise<void> {
  for (const name of names) {
    // The row's first checkbox selects it; its environments' switches are checkboxes too.
    await page.getByRole('row').filter({ has: page.locator(`a[href="/projects/default/features/${name}"]`) }).getByRole('checkbox').first().check();
  }
}

/**
 * The bulk tag dialog's "Save tags" stays disabled until the chosen tag is in its list of added
 * tags (a new value only once it is created), and its value list stays open over the button
 * after a choice: waits for the button to be enabled, then closes the list.
 */
async function saveEnabled(page: Page): Promise<void> {
  const save = confirmButton(page);
  await page.waitForFunction((button) => button !== null && !(button as unknown as { disabled: boolean }).disabled, await save.elementHandle());
  const list = page.getByRole('listbox').filter({ visible: true });
  if (await list.count() > 0) await page.keyboard.press('Escape');
  await list.first().waitFor({ state: 'hidden' });
  await save.waitFor({ state: 'visible' });
}

/** Unleash's tag dialog: the tag type `simple`, then a value typed and created. */
async function addTagInDialog(page: Page, value: string): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: 'Tags allow you to group features together' });
  await dialog.locator('#tag-type-select').click();
  await page.getByRole('option', { name: /^simple/ }).click();
  await dialog.locator('#checkboxes-tag').fill(value);
  await page.getByRole('option', { name: new RegExp(value) }).first().click();
}

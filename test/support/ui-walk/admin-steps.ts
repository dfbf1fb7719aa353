import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { FLAG } from './flag-steps.js';
import { answer, confirmButton, EFFECT, open, sdkFeatures, sessionGet, type WalkStep } from './walk.js';

const USER = { name: 'Walk User', email: 'walk-user@example.com' };
const API_TOKEN_NAME = 'walk-sdk';
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

/** The clipboard's text, as the page sees it (the context is granted clipboard access first). */
async function clipboard(page: Page): Promise<string> {
  // Runs in the page, which has a DOM; this project's types do not include one.
  type WithClipboard = { navigator: { clipboard: { readText(): Promise<string> } } };
  return page.evaluate(() => (globalThis as unknown as WithClipboard).navigator.clipboard.readText());
}

export const ADMIN_STEPS: WalkStep[] = [
  {
    page: 'Admin → Users', action: 'create a user (Editor)',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/admin/users', page.getByRole('button', { name: 'Add new user' }));
      await page.getByRole('button', { name: 'Add new user' }).click();
      await page.getByLabel('Full name').fill(USER.name);
      await page.getByLabel('Email').fill(USER.email);
      await page.getByRole('combobox', { name: /Role/ }).click();
      await page.getByRole('option', { name: /^Editor/ }).click();
      const created = await answer(page, 'POST', /^\/api\/admin\/user-admin$/, () => page.getByRole('button', { name: 'Create user' }).click(), 201);
      const { id } = await created.json();
      walk.kept.set('userId', String(id));
      expect(await walk.api.get(`/api/admin/user-admin/${id}`)).toMatchObject({ name: USER.name, email: USER.email, rootRole: 2 });
    },
  },
  {
    page: 'Admin → Users', action: "edit the user's name",
    run: async (walk) => {
      const { page } = walk;
      const id = walk.kept.get('userId');
      await open(walk, '/admin/users', row(page, USER.email));
      await row(page, USER.email).getByRole('button').last().click();
      await page.getByRole('menuitem', { name: 'Edit user' }).click();
      // The form fills in from the user once read: edit after that, or the read overwrites the edit.
      await expect.poll(() => page.getByLabel('Full name').inputValue(), EFFECT).toBe(USER.name);
      await page.getByLabel('Full name').fill('Walk User Edited');
      await answer(page, 'PUT', new RegExp(`^/api/admin/user-admin/${id}$`), () => page.getByRole('button', { name: 'Save' }).click());
      expect(await walk.api.get(`/api/admin/user-admin/${id}`)).toMatchObject({ name: 'Walk User Edited' });
    },
  },
  {
    page: 'Admin → Users', action: 'delete the user',
    run: async (walk) => {
      const { page } = walk;
      const id = walk.kept.get('userId');
      await open(walk, '/admin/users', row(page, USER.email));
      await row(page, USER.email).getByRole('button').last().click();
      await page.getByRole('menuitem', { name: /Delete|Remove/ }).click();
      await answer(page, 'DELETE', new RegExp(`^/api/admin/user-admin/${id}$`), () => confirmButton(page).click());
      expect((await walk.api.call('GET', `/api/admin/user-admin/${id}`)).status).toBe(404);
    },
  },
  {
    page: 'Admin → Users → Invite link', action: 'create an invite link',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/admin/invite-link', page.getByTestId('create-invite-link-form'));
      await answer(page, 'POST', /^\/api\/admin\/invite-link\/tokens$/,
        () => page.getByTestId('create-invite-link-form').getByRole('button', { name: 'Create invite link' }).click(), 201);
      const link = (await page.getByText(/\/new-user\?invite=\w+$/).textContent())!.trim();
      const tokens: Array<{ secret: string }> = (await walk.api.get('/api/admin/invite-link/tokens')).tokens;
      expect(tokens.some((t) => link.endsWith(`invite=${t.secret}`))).toBe(true);
    },
  },
  {
    page: 'Admin → API access', action: 'create a backend token; an SDK polls with it',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/admin/api/create-token', page.getByLabel('Token name'));
      await page.getByLabel('Token name').fill(API_TOKEN_NAME);
      const created = await answer(page, 'POST', /^\/api\/admin\/api-tokens$/, () => page.getByRole('button', { name: 'Create token' }).click(), 201);
      const { secret } = await created.json();
      // The dialog shows the secret this once.
      await page.getByText(secret).first().waitFor();
      walk.kept.set('apiToken', secret);
      const features = await sdkFeatures(walk, secret);
      expect(Array.isArray(features) && features.some((f) => f.name === FLAG)).toBe(true);
    },
  },
  {
    page: 'Admin → API access', action: "copy a listed token: the copy is the list's reference, never the secret",
    run: async (walk) => {
      const { page } = walk;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: walk.origin });
      await open(walk, '/admin/api', row(page, API_TOKEN_NAME));
      await row(page, API_TOKEN_NAME).getByRole('button', { name: /Copy token/ }).click();
      const copied = await clipboard(page);
      const { tokens } = await walk.api.get('/api/admin/api-tokens');
      const listed = tokens.find((t: { tokenName: string }) => t.tokenName === API_TOKEN_NAME);
      expect(copied).toBe(listed.secret);
      expect(copied).not.toBe(walk.kept.get('apiToken'));
    },
  },
  {
    page: 'Admin → API access', action: 'delete the token: the SDK is refused from then on',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/admin/api', row(page, API_TOKEN_NAME));
      await row(page, API_TOKEN_NAME).getByRole('button', { name: 'Delete token' }).click();
      await answer(page, 'DELETE', /^\/api\/admin\/api-tokens\/.+$/, () => confirmButton(page).click());
      await row(page, API_TOKEN_NAME).waitFor({ state: 'detached' });
      await expect.poll(() => sdkFeatures(walk, walk.kept.get('apiToken')), EFFECT).toBe(401);
    },
  },
  {
    page: 'Admin → CORS origins', action: 'save an allowed origin',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/admin/cors', page.getByRole('button', { name: 'Save' }));
      await page.locator('main textarea').first().fill('https://walk.example.com');
      await answer(page, 'POST', /^\/api\/admin\/ui-config\/cors$/, () => page.getByRole('button', { name: 'Save' }).click());
      expect((await walk.api.get('/api/admin/ui-config')).frontendApiOrigins).toEqual(['https://walk.example.com']);
    },
  },
  {
    page: 'Admin → Maintenance', action: 'turn maintenance mode on (changes refused, SDKs served), then off',
    run: async (walk) => {
      const { page } = walk;
      const toggle = page.getByRole('main').getByRole('checkbox').first();
      await open(walk, '/admin/maintenance', toggle);
      await answer(page, 'POST', /^\/api\/admin\/maintenance$/, () => toggle.click());
      expect(await walk.api.get('/api/admin/maintenance')).toMatchObject({ enabled: true });
      const refused = await walk.api.call('POST', '/api/admin/projects/default/features', { name: 'walk-during-maintenance' });
      expect(refused.status).toBe(503);
      expect(Array.isArray(await sdkFeatures(walk))).toBe(true);
      // Clicked again only once the switch shows the mode on: before that, a click asks for "on" again.
      await expect.poll(() => toggle.isChecked(), EFFECT).toBe(true);
      const off = await answer(page, 'POST', /^\/api\/admin\/maintenance$/, () => toggle.click());
      expect(off.request().postDataJSON()).toMatchObject({ enabled: false });
      expect(await walk.api.get('/api/admin/maintenance')).toMatchObject({ enabled: false });
    },
  },
  {
    page: 'Admin → Instance stats', action: "read the instance's counts",
    run: async (walk) => {
      const { page } = walk;
      const table = page.getByRole('table', { name: 'Instance statistics' });
      await open(walk, '/admin/instance', table);
      const stats = await walk.api.get('/api/admin/instance-admin/statistics');
      await table.getByRole('row', { name: /^Users/ }).getByText(String(stats.users), { exact: true }).waitFor();
    },
  },
  {
    page: 'Admin → Instance privacy', action: 'read what the instance collects',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/admin/instance-privacy', page.getByText('Instance Privacy').first());
      const instanceId = (await walk.api.get('/api/admin/instance-admin/statistics')).instanceId;
      await page.getByText(instanceId).first().waitFor();
    },
  },
  {
    page: 'Admin home', action: "show the plan and the version Unleash's UI runs against",
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/admin', page.getByText('Current plan').first());
      const { versionInfo } = await walk.api.get('/api/admin/ui-config');
      expect(versionInfo.current.oss).toMatch(/\d+\.\d+\.\d+/);
      expect(await page.getByText(/version unknown/i).count()).toBe(0);
    },
  },
  {
    page: 'Profile', action: "show the admin's root role",
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/profile', page.getByText('Your root role').first());
      await page.getByText('Admin', { exact: true }).first().waitFor();
      expect(await sessionGet(walk, '/api/admin/user/profile')).toMatchObject({ rootRole: { name: 'Admin' } });
    },
  },
  {
    page: 'Profile → Personal API tokens', action: 'create a token, use it, delete it (then refused)',
    run: async (walk) => {
      const { page } = walk;
      await open(walk, '/profile/personal-api-tokens', page.getByRole('button', { name: 'New token' }));
      await page.getByRole('button', { name: 'New token' }).click();
      await page.getByLabel(/^Description/).fill('walk script');
      const created = await answer(page, 'POST', /^\/api\/admin\/user\/tokens$/, () => page.getByRole('button', { name: 'Create token' }).click(), 201);
      const { secret } = await created.json();
      await page.getByText(secret).first().waitFor();
      const me = await walk.api.get('/api/admin/user', secret);
      expect(me.user).toMatchObject({ username: 'admin' });
      await page.keyboard.press('Escape');
      await open(walk, '/profile/personal-api-tokens', row(page, 'walk script'));
      // The row's only action, a bin icon without a name.
      await row(page, 'walk script').getByRole('button').last().click();
      await answer(page, 'DELETE', /^\/api\/admin\/user\/tokens\/\d+$/, () => confirmButton(page).click());
      expect((await walk.api.call('GET', '/api/admin/user', undefined, secret)).status).toBe(401);
    },
  },
];

import type { Locator, Page, Response } from 'playwright-core';
import type { AdminApi } from './admin-api.js';

/** A flag as an SDK polling with a client token gets it. */
export interface SdkFeature {
  name: string;
  enabled: boolean;
  strategies: Array<{ name: string; parameters: Record<string, string>; constraints: unknown[]; variants?: unknown[] }>;
}

/** What every step is given: the admin's page, the admin API to check effects, and the SDK's view. */
export interface WalkContext {
  page: Page;
  origin: string;
  api: AdminApi;
  /** A client token for development, made when the server started (INIT_CLIENT_API_TOKENS). */
  clientToken: string;
  /** Values one step makes for a later one (a token's secret, a user's id). */
  kept: Map<string, string>;
}

/**
 * One page of the UI and its main action. `run` drives the UI and then reads the effect back
 * through the admin API (or the SDK API); `gated` shows, from the page itself, that the
 * open-source UI keeps it for Unleash Enterprise, and says what it shows.
 */
export type WalkStep =
  | { page: string; action: string; run: (walk: WalkContext) => Promise<void> }
  | { page: string; action: string; gated: (walk: WalkContext) => Promise<string> };

/** Generous bound for an effect to show on a loaded two-core machine; the poll ends as soon as it does. */
export const EFFECT = { timeout: 30_000, interval: 250 };

/** Waits until Unleash's skeleton placeholders are gone: the page's data has come. */
export async function settled(page: Page): Promise<void> {
  // A locator with no match is detached: this waits until no placeholder is left. The project
  // header's name keeps the class for good (data-loading-project), so it does not count.
  await page.locator('main .skeleton:not([data-loading-project])').first().waitFor({ state: 'detached' });
}

/** Opens a path of the UI and waits for `shown` (when given) and the page's data. */
export async function open(walk: WalkContext, path: string, shown?: Locator): Promise<void> {
  await walk.page.goto(`${walk.origin}${path}`);
  if (shown) await shown.waitFor();
  await settled(walk.page);
}

/**
 * Runs `act` and waits for the UI's request `method` to a path matching `path`; its answer must
 * be `status` (any 2xx when not given). The answer is returned for the step to read.
 */
export async function answer(page: Page, method: string, path: RegExp, act: () => Promise<unknown>, status?: number): Promise<Response> {
  const answered = page.waitForResponse((res) => res.request().method() === method && path.test(new URL(res.url()).pathname));
  try {
    await act();
  } catch (error) {
    // The wait is abandoned with the action: its own timeout must not surface as an unhandled rejection.
    answered.catch(() => undefined);
    throw error;
  }
  const res = await answered;
  const ok = status === undefined ? res.status() >= 200 && res.status() < 300 : res.status() === status;
  if (!ok) throw new Error(`${method} ${new URL(res.url()).pathname} answered ${res.status()} ${(await res.text().catch(() => '')).slice(0, 300)}`);
  return res;
}

/** A page the open-source UI shows as "Enterprise feature": what it says is the step's detail. */
export async function enterprisePage(walk: WalkContext, path: string): Promise<string> {
  await open(walk, path);
  const notice = walk.page.getByText(/is a feature available for the (Pro & )?Enterprise plans?/).first();
  await notice.waitFor();
  return `${path}: "${(await notice.textContent())?.trim()}"`;
}

/** A button the open-source UI shows disabled, its tooltip naming Unleash Enterprise. */
export async function enterpriseButton(walk: WalkContext, path: string, button: (page: Page) => Locator): Promise<string> {
  await open(walk, path);
  const target = button(walk.page);
  await target.waitFor();
  if ((await target.getAttribute('aria-disabled')) !== 'true') throw new Error(`${path}: the button is enabled, not gated`);
  await target.hover({ force: true });
  const tip = walk.page.getByRole('tooltip').filter({ hasText: 'Enterprise feature' });
  await tip.waitFor();
  return `${path}: disabled, "${(await tip.textContent())?.replace(/\s+/g, ' ').trim().slice(0, 160)}"`;
}

/** A read with the admin's session, as the UI makes it: what is kept per person (favourites, a profile). */
export async function sessionGet(walk: WalkContext, path: string): Promise<any> {
  const res = await walk.page.request.get(`${walk.origin}${path}`);
  if (res.status() !== 200) throw new Error(`GET ${path} with the session answered ${res.status()} ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/** Unleash's confirmation dialog's button: the open one (a closed dialog may stay in the page). */
export const confirmButton = (page: Page) => page.getByTestId('DIALOGUE_CONFIRM_ID').filter({ visible: true }).last();

/** The flags an SDK polling development with `token` gets, or the status it is refused with. */
export async function sdkFeatures(walk: WalkContext, token = walk.clientToken): Promise<SdkFeature[] | number> {
  const res = await fetch(`${walk.origin}/api/client/features`, { headers: { Authorization: token } });
  if (res.status !== 200) return res.status;
  return ((await res.json()) as { features: SdkFeature[] }).features;
}

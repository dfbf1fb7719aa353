/**
 * `node --import tsx local/bench/ui-swap.ts [flags] [events] [rounds]`: whether one of our API
 * answers makes the browser work longer on the flag page. Both servers on the same small seed;
 * the flag page opens `rounds` times per variant, alternating (after one warm-up round): ours,
 * Unleash, and ours with Unleash's answer swapped in for the flag, the project header, or both
 * (a playwright route fulfils them with what Unleash answers). Every context routes something, as
 * routing switches Chromium's HTTP cache off, so all variants load alike. Prints the medians of
 * the shown time and of the main thread's busy and script time (Chromium's metrics).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOurServer, type OurServer } from './ui.js';
import { startPostgres, startUnleash, type ReferencePostgres, type ReferenceUnleash } from '../unleash-reference.js';
import { stopEach, withCleanUp } from './clean-up.js';
import { adminClient } from './seed.js';
import { apiProjectMaker, seedUiData, sqlProjectMaker } from './ui-seed.js';
import type { Browser, BrowserContext, Route } from 'playwright-core';
import { launchBrowser, logIn, measurePage, newContext, pagesFor, type UiServer } from './ui-pages.js';

const flags = Number(process.argv[2] ?? 200);
const events = Number(process.argv[3] ?? 600);
const rounds = Number(process.argv[4] ?? 10);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let ours: OurServer | undefined;
let postgres: ReferencePostgres | undefined;
let unleash: ReferenceUnleash | undefined;
let browser: Browser | undefined;
// Started inside, so that a start that fails, another step, or a signal still stops what did start.
await withCleanUp(() => stopEach([() => browser?.close(), () => unleash?.stop(), () => postgres?.stop(), () => ours?.stop()]), async () => {
  ours = await startOurServer('Swap-admin-1', ROOT, undefined);
  postgres = await startPostgres();
  unleash = await startUnleash(postgres, { label: 'swap' });
  browser = await launchBrowser();
  const plan = { bigProjectFlags: flags, events, concurrency: 8 };
  await Promise.all([
    seedUiData(adminClient(ours.url, ours.adminToken), apiProjectMaker(adminClient(ours.url, ours.adminToken)), plan, () => undefined),
    seedUiData(adminClient(unleash.url, unleash.adminToken), sqlProjectMaker(postgres.port, unleash.database), plan, () => undefined),
  ]);
  const page = pagesFor(flags, 60_000).find((p) => p.name === 'flag page')!;
  const servers: Record<'ours' | 'unleash', UiServer> = {
    ours: { label: 'ours', url: ours.url, username: 'admin', password: 'Swap-admin-1' },
    unleash: { label: 'Unleash', url: unleash.url, username: 'admin', password: unleash.adminPassword },
  };
  // Unleash's answers, for swapping into ours one at a time.
  const theirs = new Map<string, string>();
  const unleashContext = await newContext(browser);
  await logIn(unleashContext, servers.unleash);
  const variants: Array<{ name: string; server: 'ours' | 'unleash'; swap?: RegExp }> = [
    { name: 'ours', server: 'ours' }, { name: 'Unleash', server: 'unleash' },
    { name: 'ours + Unleash feature', server: 'ours', swap: /\/api\/admin\/projects\/default\/features\/[^/?]+\?variantEnvironments/ },
    { name: 'ours + Unleash overview', server: 'ours', swap: /\/overview$/ },
    { name: 'ours + Unleash feature+overview', server: 'ours', swap: /(\/api\/admin\/projects\/default\/features\/[^/?]+\?variantEnvironments|\/overview$)/ },
  ];
  const contexts = new Map<string, BrowserContext>();
  for (const v of variants) {
    const ctx = v.server === 'unleash' ? unleashContext : await newContext(browser);
    if (v.server === 'ours') await logIn(ctx, servers.ours);
    // Every context routes (a route switches the HTTP cache off), so the variants compare alike.
    if (!v.swap) await ctx.route((url: URL) => url.pathname === '/api/admin/user', (route: Route) => route.continue());
    if (v.swap) {
      const swap = v.swap;
      await ctx.route((url: URL) => swap.test(url.pathname + url.search), async (route: Route) => {
        const url = new URL(route.request().url());
        const key = url.pathname + url.search;
        if (!theirs.has(key)) theirs.set(key, await (await unleashContext.request.get(`${servers.unleash.url}${key}`)).text());
        await route.fulfill({ status: 200, contentType: 'application/json', body: theirs.get(key) ?? '' });
      });
    }
    contexts.set(v.name, ctx);
  }
  const results = new Map<string, number[][]>();
  for (let round = 0; round <= rounds; round += 1) {
    for (const v of variants) {
      const run = await measurePage(contexts.get(v.name) as BrowserContext, servers[v.server], page);
      if (round === 0) continue;
      const list = results.get(v.name) ?? []; list.push([run.shownMs, run.browser?.taskMs ?? NaN, run.browser?.scriptMs ?? NaN]); results.set(v.name, list);
    }
  }
  const medianOf = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
  for (const [name, runs] of results) console.log(`${name.padEnd(28)} shown ${medianOf(runs.map((r) => r[0]!)).toFixed(0)} task ${medianOf(runs.map((r) => r[1]!)).toFixed(0)} script ${medianOf(runs.map((r) => r[2]!)).toFixed(0)}   tasks ${runs.map((r) => r[1]!.toFixed(0)).join(' ')}`);
});

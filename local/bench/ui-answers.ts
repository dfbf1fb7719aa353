/**
 * `node --import tsx local/bench/ui-answers.ts [flags] [events]`: the admin API answers a UI page
 * renders, from this service and from Unleash 7.6.5 on the same small data set (ui-seed.ts), side
 * by side: bytes of each answer and the fields one side sends that the other does not. A page
 * whose browser work differs between the two servers (the waterfall's main-thread time) renders
 * different answers; this says which. Bodies are written under test-artifacts/ui-bench/answers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, startUnleash, type ReferencePostgres, type ReferenceUnleash } from '../unleash-reference.js';
import { stopEach, withCleanUp } from './clean-up.js';
import { adminClient } from './seed.js';
import { startOurServer, type OurServer } from './ui.js';
import { apiProjectMaker, BIG_PROJECT, seedUiData, sqlProjectMaker, uiFlagName } from './ui-seed.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'test-artifacts', 'ui-bench', 'answers');

/** Every key path of a JSON value, arrays folded into `[]`. */
function keyPaths(value: unknown, prefix = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keyPaths(item, `${prefix}[]`, into);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      into.add(`${prefix}.${key}`);
      keyPaths(inner, `${prefix}.${key}`, into);
    }
  }
  return into;
}

const flags = Number(process.argv[2] ?? 40);
const events = Number(process.argv[3] ?? 300);
let ours: OurServer | undefined;
let postgres: ReferencePostgres | undefined;
let unleash: ReferenceUnleash | undefined;
// Each stopped on its own, also when a step fails or the run gets a signal.
await withCleanUp(() => stopEach([() => unleash?.stop(), () => postgres?.stop(), () => ours?.stop()]), async () => {
  ours = await startOurServer('Answers-admin-1', ROOT, undefined);
  const token = ours.adminToken;
  postgres = await startPostgres();
  unleash = await startUnleash(postgres, { label: 'ui-answers' });
  const plan = { bigProjectFlags: flags, events, concurrency: 6 };
  await Promise.all([
    seedUiData(adminClient(ours.url, token), apiProjectMaker(adminClient(ours.url, token)), plan, () => undefined),
    seedUiData(adminClient(unleash.url, unleash.adminToken), sqlProjectMaker(postgres.port, unleash.database), plan, () => undefined),
  ]);
  const flag = uiFlagName(BIG_PROJECT, Math.floor(flags / 2));
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
  const paths = [
    '/api/admin/ui-config', '/api/admin/user', '/api/admin/projects', '/api/admin/environments',
    `/api/admin/search/events?offset=0&limit=25&from=IS%3A${yearAgo}&to=IS%3A${today}`,
    `/api/admin/search/events?from=IS%3A${today}&to=IS%3A${today}&offset=0&limit=50&type=IS_ANY_OF%3Afeature-created%2Cfeature-deleted`,
    '/api/admin/personal-dashboard', `/api/admin/personal-dashboard/${BIG_PROJECT}`,
    `/api/admin/projects/${BIG_PROJECT}/overview`, `/api/admin/projects/${BIG_PROJECT}/features/${flag}?variantEnvironments=true`,
    `/api/admin/client-metrics/features/${flag}`, `/api/admin/projects/${BIG_PROJECT}/dependencies`, `/api/admin/environments/project/${BIG_PROJECT}`,
    `/api/admin/features/${flag}/tags`, '/api/admin/tag-types', '/api/admin/tags/simple',
  ];
  mkdirSync(OUT, { recursive: true });
  for (const path of paths) {
    const [mine, theirs] = await Promise.all([ours!.url, unleash.url].map(async (base, side) => {
      const answer = await fetch(`${base}${path}`, { headers: { authorization: side === 0 ? token : unleash!.adminToken } });
      const text = await answer.text();
      return { status: answer.status, text, json: (() => { try { return JSON.parse(text) as unknown; } catch { return undefined; } })() };
    })) as [{ status: number; text: string; json: unknown }, { status: number; text: string; json: unknown }];
    const name = path.replace(/\?.*/, '').replace(/\W+/g, '-');
    writeFileSync(join(OUT, `${name}.ours.json`), JSON.stringify(mine.json, null, 1) ?? mine.text);
    writeFileSync(join(OUT, `${name}.unleash.json`), JSON.stringify(theirs.json, null, 1) ?? theirs.text);
    const a = keyPaths(mine.json);
    const b = keyPaths(theirs.json);
    const onlyOurs = [...a].filter((key) => !b.has(key));
    const onlyTheirs = [...b].filter((key) => !a.has(key));
    console.log(`${path.slice(0, 90)}\n  ours ${mine.status} ${mine.text.length} B, Unleash ${theirs.status} ${theirs.text.length} B`);
    if (onlyOurs.length) console.log(`  only ours: ${onlyOurs.slice(0, 30).join(' ')}`);
    if (onlyTheirs.length) console.log(`  only Unleash's: ${onlyTheirs.slice(0, 30).join(' ')}`);
  }
});

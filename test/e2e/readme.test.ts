import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';

const run = promisify(execFile);
const README = readFileSync('README.md', 'utf8');

/** The tour's shell block, exactly as a reader copies it. */
function tourScript(): string {
  const block = /<!-- tour:begin[^\n]*\n```sh\n([\s\S]*?)```\n<!-- tour:end -->/.exec(README);
  if (!block?.[1]) throw new Error('README.md: no tour block between <!-- tour:begin --> and <!-- tour:end -->');
  return block[1];
}

/**
 * The README as a new user meets it: its five-minute tour, pasted into bash against `npm start`,
 * then its Node SDK example. Only the port and the data folder differ, as the test's server
 * runs beside others on a free port.
 */
describe('the README, tried as a new user would', () => {
  let server: StartedServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'readme-'));
    // No INIT_ADMIN_API_TOKENS: npm start makes the admin token and keeps it in DATA_DIR.
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('readme'),
      DATA_DIR: dataDir,
      INIT_ADMIN_API_TOKENS: '',
    });
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the tour and the SDK example as written', async () => {
    const script = tourScript()
      .replaceAll('http://127.0.0.1:4242', server.url)
      .replaceAll('.data/admin-token', join(dataDir, 'admin-token'));

    const tour = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: 30_000 });
    const lines = tour.stdout.trim().split('\n');
    const clientToken = lines[0]!;
    const payload = JSON.parse(lines.at(-1)!);
    const example = await run(process.execPath, ['examples/node-sdk.mjs', 'new-checkout'], {
      // Under NODE_ENV=test (vitest's) the SDK keeps its timers referenced, and the process would
      // linger one refresh interval after destroy().
      env: { ...process.env, NODE_ENV: 'production', UNLEASH_URL: `${server.url}/api`, UNLEASH_API_TOKEN: clientToken },
      timeout: 45_000,
    });

    expect(clientToken).toMatch(/^\*:development\.\w+$/);
    expect(payload.features).toEqual([
      expect.objectContaining({
        name: 'new-checkout',
        enabled: true,
        strategies: [expect.objectContaining({ name: 'flexibleRollout', parameters: expect.objectContaining({ rollout: '50' }) })],
      }),
    ]);
    // The README shows the first lines of the example's output; they must be what it prints.
    const shown = [...README.matchAll(/^# (new-checkout for \w+: (?:on|off))$/gm)].map(([, line]) => line);
    expect(shown.length).toBeGreaterThan(0);
    expect(example.stdout.split('\n').slice(0, shown.length)).toEqual(shown);
  }, 90_000);
});

import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Runs `npm start`'s own script (one process, as test/support/local-server.ts does) until it exits. */
function runStart(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', ...args], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const lines = (output: string) => output.trim().split('\n');

let taken: Server;
let takenPort: number;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as { port: number }).port;
});

afterAll(() => {
  taken?.close();
});

describe('npm start when it cannot start', () => {
  it('names a missing Java in one line and exits non-zero', async () => {
    const { code, output } = await runStart({ PATH: '/nonexistent' }, ['--in-memory']);

    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([expect.stringMatching(/^serverless-toggles could not start: Java was not found on PATH: DynamoDB Local needs Java 17/)]);
  });

  it('names a port already taken in one line and exits non-zero', async () => {
    const { code, output } = await runStart({ PORT: String(takenPort) }, ['--in-memory']);

    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([`serverless-toggles could not start: port ${takenPort} is already in use on 127.0.0.1; stop what holds it, or set PORT to another port`]);
  });

  it('names a data directory it cannot write in one line and exits non-zero', async () => {
    // A file where a directory should be: even root cannot create a folder inside it.
    const file = join(mkdtempSync(join(tmpdir(), 'toggles-start-')), 'not-a-directory');
    writeFileSync(file, '');

    const { code, output } = await runStart({ DATA_DIR: join(file, 'data') });

    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([expect.stringMatching(new RegExp(`^serverless-toggles could not start: cannot write the data directory ${join(file, 'data')} \\(ENOTDIR\\)`))]);
  });
});

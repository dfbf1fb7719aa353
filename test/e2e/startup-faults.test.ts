import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStartToExit, stopStartedServers } from '../support/local-server.js';

/**
 * Each test runs `npm start` until it gives up, which may take a Java start on a busy machine:
 * the process's own exit ends a test, this generous timeout only stops one that hangs.
 */
const UNTIL_EXIT = 300_000;

const lines = (output: string) => output.trim().split('\n');

let taken: Server;
let takenPort: number;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as { port: number }).port;
});

afterAll(async () => {
  taken?.close();
  // A start still running when a test timed out: its whole process group, Java included.
  await stopStartedServers();
}, UNTIL_EXIT);

describe('npm start when it cannot start', { timeout: UNTIL_EXIT }, () => {
  it('names a missing Java in one line and exits non-zero', async () => {
    const { code, output } = await runStartToExit({ PATH: '/nonexistent' }, ['--in-memory']);

    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([expect.stringMatching(/^serverless-toggles could not start: Java was not found on PATH: DynamoDB Local needs Java 17/)]);
  });

  it('names a port already taken in one line and exits non-zero', async () => {
    const { code, output } = await runStartToExit({ PORT: String(takenPort) }, ['--in-memory']);

    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([`serverless-toggles could not start: port ${takenPort} is already in use on 127.0.0.1; stop what holds it, or set PORT to another port`]);
  });

  it('names a data directory it cannot write in one line and exits non-zero', async () => {
    // A file where a directory should be: even root cannot create a folder inside it.
    const file = join(mkdtempSync(join(tmpdir(), 'toggles-start-')), 'not-a-directory');
    writeFileSync(file, '');

    const { code, output } = await runStartToExit({ DATA_DIR: join(file, 'data') });

    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([expect.stringMatching(new RegExp(`^serverless-toggles could not start: cannot write the data directory ${join(file, 'data')} \\(ENOTDIR\\)`))]);
  });
});

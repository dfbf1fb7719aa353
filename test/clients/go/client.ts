import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENTS_CACHE, type ClientUnderTest } from '../support/client.js';

/**
 * The official Unleash Go SDK and the OpenFeature Go SDK with its OFREP provider, from the Go
 * module proxy at the versions go.mod pins, driven by one evaluator binary (main.go) that takes
 * CLIENT_KIND. The binary is built into the cache under a hash of go.mod, go.sum and the sources,
 * so a warm run only checks that the file exists; the modules stay in Go's own module cache.
 */
const sourceDir = fileURLToPath(new URL('.', import.meta.url));

const UNLEASH_SDK = 'github.com/Unleash/unleash-go-sdk/v5';
const OPENFEATURE_SDK = 'github.com/open-feature/go-sdk';
const OFREP_PROVIDER = 'github.com/open-feature/go-sdk-contrib/providers/ofrep';

/** The version go.mod pins for a module: the one the evaluator is built with. */
function pinned(module: string): string {
  const goMod = readFileSync(join(sourceDir, 'go.mod'), 'utf8');
  const line = goMod.split('\n').find((text) => text.trim().startsWith(`${module} `));
  const version = line?.trim().split(/\s+/)[1];
  if (!version) throw new Error(`${module} is not required by ${join(sourceDir, 'go.mod')}`);
  return version;
}

/** What decides the binary: the module files and every Go source, by name and content. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const files = ['go.mod', 'go.sum', ...readdirSync(sourceDir).filter((name) => name.endsWith('.go')).sort()];
  for (const name of files) {
    hash.update(`${name}\0`);
    hash.update(readFileSync(join(sourceDir, name)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function binaryPath(): string {
  return join(CLIENTS_CACHE, `go-${sourceHash()}`, 'evaluator');
}

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // No timeout: a cold machine downloads the modules first, and the suite's hook bounds the wait.
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}${stderr}`));
      else resolve();
    });
  });
}

export const client: ClientUnderTest = {
  name: 'go',
  sdk: { package: UNLEASH_SDK, version: pinned(UNLEASH_SDK) },
  ofrep: {
    package: OFREP_PROVIDER,
    version: pinned(OFREP_PROVIDER),
    sdkPackage: OPENFEATURE_SDK,
    sdkVersion: pinned(OPENFEATURE_SDK),
  },

  async prepare() {
    const binary = binaryPath();
    if (existsSync(binary)) return;
    const dir = join(binary, '..');
    mkdirSync(dir, { recursive: true });
    // Built under a name of this process's own and renamed, so two workers preparing at once
    // never start a half-written binary.
    const partial = `${binary}.${process.pid}.partial`;
    try {
      // -mod=readonly: go.sum in the checkout is the lock file, never rewritten by a build.
      await run('go', ['build', '-mod=readonly', '-buildvcs=false', '-o', partial, '.'], sourceDir);
      renameSync(partial, binary);
    } finally {
      rmSync(partial, { force: true });
    }
  },

  command() {
    // One binary serves both kinds: the harness's CLIENT_KIND picks the SDK.
    return { command: binaryPath(), args: [] };
  },
};

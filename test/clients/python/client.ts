import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENTS_CACHE, type ClientUnderTest, type EvaluatorKind } from '../support/client.js';

const folder = dirname(fileURLToPath(import.meta.url));
const requirementsFile = join(folder, 'requirements.txt');
const evaluatorFile = join(folder, 'evaluator.py');

/** The version requirements.txt pins for a package, so the suite's titles and counts name what ran. */
function pinned(name: string): string {
  const line = readFileSync(requirementsFile, 'utf8')
    .split('\n')
    .find((entry) => entry.toLowerCase().startsWith(`${name.toLowerCase()}==`));
  if (!line) throw new Error(`${name} is not pinned in ${requirementsFile}`);
  return line.slice(name.length + 2).trim();
}

/**
 * The virtual environment lives in the cache under a name made from requirements.txt's hash:
 * a changed pin builds a new one, an unchanged file reuses the last, and no two pins share one.
 */
function environmentFolder(): string {
  const hash = createHash('sha256').update(readFileSync(requirementsFile)).digest('hex').slice(0, 16);
  return join(CLIENTS_CACHE, `python-${hash}`);
}

/** Written last, so a folder without it is an install that did not finish. */
const READY_MARKER = '.installed';

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}

/**
 * Builds the environment in a folder of its own and renames it into place when complete, so
 * that two test files preparing at once never see a half-installed one (the loser of the race
 * drops its copy). Only bin/python is used afterwards, which finds its packages from its own
 * location, so the rename does not break the environment.
 */
async function prepare(): Promise<void> {
  const target = environmentFolder();
  if (existsSync(join(target, READY_MARKER))) return;
  await mkdir(CLIENTS_CACHE, { recursive: true });
  const building = `${target}.building-${process.pid}-${Date.now()}`;
  try {
    await run(process.env.PYTHON ?? 'python3', ['-m', 'venv', building]);
    const python = join(building, 'bin', 'python');
    await run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '-r', requirementsFile]);
    await writeFile(join(building, READY_MARKER), `${new Date().toISOString()}\n`);
    try {
      await rename(building, target);
    } catch (error) {
      // Another test file finished first: its environment is the same one.
      if (!existsSync(join(target, READY_MARKER))) throw error;
    }
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

export const client: ClientUnderTest = {
  name: 'python',
  sdk: { package: 'UnleashClient', version: pinned('UnleashClient') },
  ofrep: {
    package: 'openfeature-provider-ofrep',
    version: pinned('openfeature-provider-ofrep'),
    sdkPackage: 'openfeature-sdk',
    sdkVersion: pinned('openfeature-sdk'),
  },
  prepare,
  command(kind: EvaluatorKind) {
    return {
      command: join(environmentFolder(), 'bin', 'python'),
      args: [evaluatorFile],
      env: {
        CLIENT_KIND: kind,
        // Answers reach the suite line by line, never held in a buffer.
        PYTHONUNBUFFERED: '1',
        // Nothing written next to the evaluator in the checkout.
        PYTHONDONTWRITEBYTECODE: '1',
      },
    };
  },
  knownDifferences: {
    '16-strategy-variants.json': {
      'ofrep: variant: Feature.strategy.no.strategy.variants should fall back to base variants':
        "Python's OpenFeature SDK has integers and floats but no number type, so a number is asked as a float (the " +
        "specification's other number payloads are 1.2); this payload is the whole number 1, which JSON gives Python " +
        'as an int, and the OFREP provider\'s own type check answers TYPE_MISMATCH with the default for it',
    },
  },
};

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLIENTS_CACHE, type ClientUnderTest, type EvaluatorKind } from '../support/client.js';

const run = promisify(execFile);
const sourceFolder = dirname(fileURLToPath(import.meta.url));
const pom = readFileSync(join(sourceFolder, 'pom.xml'), 'utf8');

/** A version pinned in pom.xml's properties, so the report and the build name the same release. */
function pinned(property: string): string {
  const version = new RegExp(`<${property}>([^<]+)</${property}>`).exec(pom)?.[1];
  if (!version) throw new Error(`test/clients/java/pom.xml has no <${property}>`);
  return version;
}

/** Every file Maven builds from (pom.xml and src/), in a fixed order. */
function buildInputs(): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(sourceFolder, 'src'));
  return [join(sourceFolder, 'pom.xml'), ...files];
}

/** The build's folder in the cache, named by a hash of what it is built from: an edit builds anew. */
function buildFolder(): string {
  const hash = createHash('sha256');
  for (const file of buildInputs()) hash.update(relative(sourceFolder, file)).update('\0').update(readFileSync(file)).update('\0');
  return join(CLIENTS_CACHE, `java-${hash.digest('hex').slice(0, 16)}`);
}

/** Written last, so a folder holding it is a whole build. */
const READY_MARKER = 'built';

async function prepare(): Promise<void> {
  const target = buildFolder();
  if (existsSync(join(target, READY_MARKER))) return;
  // Built beside the target and renamed into place, so two suites preparing at once never start a
  // half-copied classpath: the first rename wins and the other build is dropped.
  const building = `${target}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    cpSync(join(sourceFolder, 'pom.xml'), join(building, 'pom.xml'));
    cpSync(join(sourceFolder, 'src'), join(building, 'src'), { recursive: true });
    await maven(building, ['compile', 'dependency:copy-dependencies', '-DincludeScope=runtime']);
    writeFileSync(join(building, READY_MARKER), `${new Date().toISOString()}\n`);
    try {
      renameSync(building, target);
    } catch (error) {
      if (!existsSync(join(target, READY_MARKER))) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

async function maven(folder: string, goals: string[]): Promise<void> {
  try {
    await run('mvn', ['--batch-mode', '--no-transfer-progress', '--quiet', ...goals], { cwd: folder, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`the Java evaluator did not build (mvn ${goals.join(' ')} in ${folder}): ${message}\n${stdout}\n${stderr}`);
  }
}

export const client: ClientUnderTest = {
  name: 'java',
  sdk: { package: 'io.getunleash:unleash-client-java', version: pinned('unleash.version') },
  ofrep: {
    package: 'dev.openfeature.contrib.providers:ofrep',
    version: pinned('ofrep.version'),
    sdkPackage: 'dev.openfeature:sdk',
    sdkVersion: pinned('openfeature.version'),
  },
  prepare,
  command(_kind: EvaluatorKind) {
    // One classpath serves both kinds: the evaluator reads CLIENT_KIND, which the suite sets.
    const folder = buildFolder();
    return {
      command: 'java',
      args: [
        // A short-lived process that evaluates a few hundred cases: the JIT's first tier and the
        // serial collector start fastest, and nothing here runs long enough to want more.
        '-XX:TieredStopAtLevel=1',
        '-XX:+UseSerialGC',
        '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
        '-cp',
        `${join(folder, 'target', 'classes')}:${join(folder, 'target', 'dependency', '*')}`,
        'toggles.clients.Evaluator',
      ],
    };
  },
};

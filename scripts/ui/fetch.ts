/**
 * `npm run ui:fetch`, and the install step (`postinstall`, with `--soft`): puts Unleash's built
 * admin UI under `.ui/` (lib/ui/release.ts). Only the pinned package's tarball is downloaded,
 * by `npm pack` (so the registry, proxy and auth settings of npm's own config apply, and no
 * dependency of that package is installed), checked against the pinned integrity, and only the
 * UI build and the licence files are extracted: no Unleash server code reaches the disk.
 *
 * With `--soft` a failed download (offline) warns and exits 0, so `npm install` still works and
 * `npm start` serves the API with a page saying how to fetch the UI. A tarball that does not
 * match the pinned integrity is refused in both modes.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { extract } from 'tar';
import { installedUi, UI_BUILD_SUBDIR, UI_DIR, UI_FETCH_COMMAND, UI_MARKER_FILE, UI_RELEASE } from '../../lib/ui/release.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const target = join(root, UI_DIR);
const spec = `${UI_RELEASE.packageName}@${UI_RELEASE.version}`;

/** Thrown when the tarball is not the pinned one: never a reason to go on. */
class IntegrityMismatch extends Error {}

/** The tarball's Subresource Integrity string (`sha512-<base64>`), as npm's registry states it. */
async function integrityOf(file: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha512-${hash.digest('base64')}`;
}

/** `npm pack <spec>` into `folder`: the tarball alone, from npm's configured registry. */
async function download(folder: string): Promise<string> {
  // Under an npm script, the npm that runs it; otherwise the one on PATH.
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm && npm.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  const { stdout } = await promisify(execFile)(command, [...prefix, 'pack', spec, '--json', '--pack-destination', folder], {
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stderr?: string; message: string }) => {
    // npm's own words (`npm error code ECONNREFUSED` …) say more than the command line.
    const said = (error.stderr ?? '').split('\n').filter((line) => line.startsWith('npm error')).slice(0, 3);
    throw new Error(said.length > 0 ? `npm pack ${spec}: ${said.join('; ')}` : error.message);
  });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack ${spec} named no tarball`);
  return join(folder, packed.filename);
}

/** Extracts the UI build and the licence files into `into`, nothing else, and no links. */
async function extractUi(tarball: string, into: string): Promise<void> {
  const licences = new Set<string>(UI_RELEASE.licenceFiles.map((name) => `package/${name}`));
  await extract({
    file: tarball,
    cwd: into,
    filter: (path, entry) =>
      ('type' in entry ? entry.type === 'File' || entry.type === 'Directory' : entry.isFile() || entry.isDirectory()) &&
      (path.startsWith(`${UI_RELEASE.buildFolder}/`) || licences.has(path)),
  });
  const unpacked = join(into, 'package');
  renameSync(join(into, UI_RELEASE.buildFolder), join(into, UI_BUILD_SUBDIR));
  for (const name of UI_RELEASE.licenceFiles) {
    if (existsSync(join(unpacked, name))) renameSync(join(unpacked, name), join(into, name));
  }
  rmSync(unpacked, { recursive: true, force: true });
  if (!existsSync(join(into, UI_BUILD_SUBDIR, 'index.html'))) throw new Error(`${spec} has no ${UI_RELEASE.buildFolder}/index.html`);
}

async function fetchUi(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'toggles-ui-'));
  // Extracted beside the target and renamed into place: a broken run never leaves half a UI.
  mkdirSync(dirname(target), { recursive: true });
  const staging = mkdtempSync(`${target}.partial-`);
  try {
    const tarball = await download(scratch);
    const integrity = await integrityOf(tarball);
    if (integrity !== UI_RELEASE.integrity) {
      throw new IntegrityMismatch(
        `the registry's ${spec} tarball is not the pinned one (integrity ${integrity}, expected ${UI_RELEASE.integrity}); ` +
          'refusing to install it. Check the npm registry configured (npm config get registry).',
      );
    }
    await extractUi(tarball, staging);
    writeFileSync(join(staging, UI_MARKER_FILE), `${UI_RELEASE.integrity}\n`);
    chmodSync(staging, 0o755); // mkdtemp's 0700 would hide the UI from anyone but its owner
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

const soft = process.argv.includes('--soft');
if (installedUi(root)) {
  if (!soft) console.log(`admin UI: ${spec} already in ${UI_DIR}`);
} else {
  try {
    await fetchUi();
    console.log(`admin UI: ${spec} (${UI_RELEASE.integrity.slice(0, 20)}…) extracted to ${UI_DIR}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    if (error instanceof IntegrityMismatch || !soft) {
      console.error(`admin UI: ${reason}`);
      process.exit(1);
    }
    console.warn(
      `WARNING: the admin UI (${spec}) could not be fetched: ${reason}\n` +
        `  The API works without it; npm start says at / that the UI is missing. Run \`${UI_FETCH_COMMAND}\` once the npm registry is reachable.`,
    );
  }
}

/**
 * Puts Unleash's built admin UI under `.ui/` (lib/ui/release.ts), for `npm run ui:fetch` and the
 * install step (scripts/ui/fetch.ts). Only the pinned package's tarball is downloaded,
 * by `npm pack` (so the registry, proxy and auth settings of npm's own config apply, and no
 * dependency of that package is installed), checked against the pinned integrity, and only the
 * UI build and the licence files are extracted: no Unleash server code reaches the disk.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { extract } from 'tar';
import {
  installedUi, UI_BUILD_SUBDIR, UI_MARKER_FILE, uiDirOf, type UiRelease,
} from '../../lib/ui/release.js';

/** Thrown when the tarball is not the pinned one: never a reason to go on. */
export class IntegrityMismatch extends Error {}

/** The tarball's Subresource Integrity string (`sha512-<base64>`), as npm's registry states it. */
async function integrityOf(file: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha512-${hash.digest('base64')}`;
}

/** `npm pack <spec>` into `folder`: the tarball alone, from npm's configured registry. */
async function download(spec: string, folder: string, env: NodeJS.ProcessEnv): Promise<string> {
  // Under an npm script, the npm that runs it; otherwise the one on PATH.
  const npm = env.npm_execpath;
  const [command, prefix] = npm && npm.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  const { stdout } = await promisify(execFile)(command, [...prefix, 'pack', spec, '--json', '--pack-destination', folder], {
    env,
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
async function extractUi(release: UiRelease, tarball: string, into: string): Promise<void> {
  const licences = new Set(release.licenceFiles.map((name) => `package/${name}`));
  await extract({
    file: tarball,
    cwd: into,
    filter: (path, entry) =>
      ('type' in entry ? entry.type === 'File' || entry.type === 'Directory' : entry.isFile() || entry.isDirectory()) &&
      (path.startsWith(`${release.buildFolder}/`) || licences.has(path)),
  });
  const unpacked = join(into, 'package');
  if (!existsSync(join(into, release.buildFolder, 'index.html'))) {
    throw new Error(`${release.packageName}@${release.version} has no ${release.buildFolder}/index.html`);
  }
  renameSync(join(into, release.buildFolder), join(into, UI_BUILD_SUBDIR));
  for (const name of release.licenceFiles) {
    if (existsSync(join(unpacked, name))) renameSync(join(unpacked, name), join(into, name));
  }
  rmSync(unpacked, { recursive: true, force: true });
}

/**
 * Puts `release`'s UI under `root` unless it is there already (a no-op then). Throws
 * IntegrityMismatch for a tarball that is not the pinned one, another error when it cannot be
 * downloaded; either way nothing is left half-extracted.
 */
export async function installUi(root: string, release: UiRelease, env: NodeJS.ProcessEnv = process.env): Promise<'present' | 'installed'> {
  if (installedUi(root, release)) return 'present';
  const target = join(root, uiDirOf(release));
  const spec = `${release.packageName}@${release.version}`;
  const scratch = mkdtempSync(join(tmpdir(), 'toggles-ui-'));
  // Extracted beside the target and renamed into place: a broken run never leaves half a UI.
  mkdirSync(dirname(target), { recursive: true });
  const staging = mkdtempSync(`${target}.partial-`);
  try {
    const tarball = await download(spec, scratch, env);
    const integrity = await integrityOf(tarball);
    if (integrity !== release.integrity) {
      throw new IntegrityMismatch(
        `the registry's ${spec} tarball is not the pinned one (integrity ${integrity}, expected ${release.integrity}); ` +
          'refusing to install it. Check the npm registry configured (npm config get registry).',
      );
    }
    await extractUi(release, tarball, staging);
    writeFileSync(join(staging, UI_MARKER_FILE), `${release.integrity}\n`);
    chmodSync(staging, 0o755); // mkdtemp's 0700 would hide the UI from anyone but its owner
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    return 'installed';
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

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
import { REPOSITORY_ROOT, UI_FETCH_COMMAND, UI_RELEASE, uiDirOf } from '../../lib/ui/release.js';
import { IntegrityMismatch, installUi } from '../../local/ui/fetch.js';

async function main(soft: boolean): Promise<void> {
  const spec = `${UI_RELEASE.packageName}@${UI_RELEASE.version}`;
  try {
    const outcome = await installUi(REPOSITORY_ROOT, UI_RELEASE);
    if (outcome === 'installed') console.log(`admin UI: ${spec} extracted to ${uiDirOf(UI_RELEASE)}`);
    else if (!soft) console.log(`admin UI: ${spec} already in ${uiDirOf(UI_RELEASE)}`);
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

await main(process.argv.includes('--soft'));

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The admin UI is Unleash's own open-source build, served unchanged (DESIGN.md §6): the
 * `frontend/build` folder of the npm package `unleash-server` at exactly this version, the last
 * release under Apache-2.0 (7.6.5-beta onwards and 8.x are AGPL). The integrity is the
 * registry's `dist.integrity` of that tarball, pinned here so a changed or substituted tarball
 * is refused rather than served.
 */
export interface UiRelease {
  packageName: string;
  version: string;
  integrity: string;
  buildFolder: string;
  licenceFiles: readonly string[];
}

export const UI_RELEASE: UiRelease = {
  packageName: 'unleash-server',
  version: '7.6.5',
  integrity: 'sha512-kBS9cPZNLeGO4g2XeUs37R0g4sQYcBjjrMAqea47TQIGcrs0iagNEm+ABih3SyEDAOnmxkQetsB0RGHIFki1Gg==',
  /** Where the built UI sits inside the tarball (npm tarballs put everything under `package/`). */
  buildFolder: 'package/frontend/build',
  /**
   * The licence files shipped next to the UI. 7.6.5's tarball has a LICENSE and no NOTICE;
   * a NOTICE is taken too should the pinned release ever carry one.
   */
  licenceFiles: ['LICENSE', 'NOTICE'],
};

/** The folder, relative to the repository root, that the install step extracts a release into (git-ignored). */
export const uiDirOf = (release: UiRelease): string => `.ui/${release.packageName}-${release.version}`;

/** Inside the release's folder: the served files (the tarball's `frontend/build`), the licence files beside them. */
export const UI_BUILD_SUBDIR = 'build';

/** Written last by the install step: the extraction is complete and came from this integrity. */
export const UI_MARKER_FILE = '.integrity';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a person runs to fetch the UI when the install step could not. */
export const UI_FETCH_COMMAND = 'npm run ui:fetch';

export interface InstalledUi {
  /** The served files. */
  buildDir: string;
  /** The licence files shipped beside them (LICENSE; NOTICE when the release has one), by name. */
  licenceFiles: Record<string, string>;
}

/**
 * The UI the install step extracted under `root`, or undefined when it is absent or incomplete
 * (the marker is written last, naming the integrity the tarball was checked against).
 */
export function installedUi(root = REPOSITORY_ROOT, release = UI_RELEASE): InstalledUi | undefined {
  const dir = join(root, uiDirOf(release));
  const marker = join(dir, UI_MARKER_FILE);
  const complete = existsSync(marker) && readFileSync(marker, 'utf8').trim() === release.integrity
    && existsSync(join(dir, UI_BUILD_SUBDIR, 'index.html'));
  if (!complete) return undefined;
  const licenceFiles = Object.fromEntries(
    release.licenceFiles.filter((name) => existsSync(join(dir, name))).map((name) => [name, join(dir, name)]),
  );
  return { buildDir: join(dir, UI_BUILD_SUBDIR), licenceFiles };
}

/**
 * `npm run events`: rewrites events/ from every resource's samples (lib/<resource>/samples.ts),
 * one file per scenario, and removes files no scenario makes. `--check` only reports whether
 * events/ is current (exit 1 when stale), as the test does.
 */
import { mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEventFiles, sampleEventFiles } from '../local/sample-scenarios.js';

const EVENTS_DIR = fileURLToPath(new URL('../events/', import.meta.url));

const wanted = sampleEventFiles();
const onDisk = readEventFiles(EVENTS_DIR);
const stale = [...onDisk.keys()].filter((file) => !wanted.has(file));
const changed = [...wanted].filter(([file, text]) => onDisk.get(file) !== text).map(([file]) => file);

if (process.argv.includes('--check')) {
  if (stale.length > 0 || changed.length > 0) {
    console.error(`events/: stale (${[...changed, ...stale].join(', ')}); run npm run events`);
    process.exit(1);
  }
  console.log(`events/: all ${wanted.size} sample events are current`);
} else {
  for (const file of changed) {
    mkdirSync(dirname(join(EVENTS_DIR, file)), { recursive: true });
    writeFileSync(join(EVENTS_DIR, file), wanted.get(file)!);
  }
  for (const file of stale) rmSync(join(EVENTS_DIR, file));
  removeEmptyDirectories(EVENTS_DIR);
  console.log(`events/: ${changed.length} written, ${stale.length} removed, ${wanted.size} in all`);
}

function removeEmptyDirectories(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    removeEmptyDirectories(path);
    if (readdirSync(path).length === 0) rmdirSync(path);
  }
}

import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * The modules the UI's entry script imports statically, directly or through each other, as
 * index.html names its assets (`/static/chart-….js`), in the order first met.
 *
 * 7.6.5's build names only its entry module in index.html. A browser learns of the entry's
 * imports (four chunks, one of 190 KB) only once it has fetched and parsed the 2.8 MB entry, and
 * runs nothing before every one of them is fetched and parsed too: in the UI benchmark's
 * waterfalls they were asked for 200–500 ms after the entry arrived, on both servers. Named as
 * `<link rel="modulepreload">` in index.html (lib/ui/index-html.ts), they are fetched and parsed
 * beside the entry instead. Dynamic `import()`s (the pages' own chunks) are not followed: which
 * of them a visit needs depends on the route, and one index.html serves every route.
 *
 * Only the import statements a chunk opens with are read, the way the bundler writes them
 * (`import{a as e}from"./x.js";`, `import"./y.js";`): a string in the code that looks like an
 * import is never taken for one. Returns nothing when the template names no module entry under
 * `/static/` or a file is missing: the page then works as it did, only without the head start.
 */
export function entryModulePreloads(buildDir: string, template: string): string[] {
  const entry = /<script\b[^>]*\btype="module"[^>]*\bsrc="(\/static\/[^"]+\.js)"/i.exec(template)?.[1];
  if (!entry) return [];
  const found: string[] = [];
  const pending = [entry];
  while (pending.length > 0) {
    const module = pending.shift()!;
    let source: string;
    try {
      source = readFileSync(join(buildDir, module), 'utf8');
    } catch {
      return [];
    }
    for (const specifier of leadingImports(source)) {
      const path = posix.join(posix.dirname(module), specifier);
      if (path === entry || found.includes(path) || !path.startsWith('/static/')) continue;
      found.push(path);
      pending.push(path);
    }
  }
  return found;
}

/** The relative specifiers of the import statements `source` opens with. */
function leadingImports(source: string): string[] {
  const statement = /\s*import\s*(?:[\w$*{}\s,]*?from\s*)?["'](\.{1,2}\/[^"']+)["']\s*;?/y;
  const specifiers: string[] = [];
  for (let match = statement.exec(source); match; match = statement.exec(source)) specifiers.push(match[1]!);
  return specifiers;
}

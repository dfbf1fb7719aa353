import type { Group } from '../lib/api/route-types.js';

/**
 * The esbuild settings every function is bundled with. The stack's `NodejsFunction`s and
 * `npm run bench` (which reports bundle sizes and init times) both read them, so the sizes
 * the benchmark prints are the sizes that deploy.
 */
export const BUNDLING = {
  format: 'esm',
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require(); ESM output has none unless we make one.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} as const;

/**
 * Whether a group's bundle carries its own AWS SDK (ADR 9). Most do: they run the SDK version
 * we test against. The client function, the SDK hot path, uses the SDK of the Node.js 22
 * runtime instead: bundled, the SDK alone is about 340 KB minified, more than the whole
 * 250 KB budget of that function, while the rest of its bundle is about 140 KB.
 */
export function bundlesAwsSdk(group: Group): boolean {
  return group !== 'client';
}

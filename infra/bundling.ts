import { SDK_GROUPS, type Group } from '../lib/http/route.js';

/**
 * The esbuild settings every function is bundled with. The stack's `NodejsFunction`s and
 * `npm run bench` (which reports bundle sizes and init times) both read them, so the sizes
 * the benchmark prints are the sizes that deploy.
 */
export const BUNDLING = {
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require(); ESM output has none unless we make one.
  esmBanner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} as const;

/** How one function is packaged. */
export interface FunctionBundle {
  /** The AWS SDK inside the bundle (the version we test against) or the Lambda runtime's. */
  awsSdk: 'bundled' | 'runtime';
  /** An ES module (`index.mjs`) or CommonJS (`index.js`). */
  format: 'esm' | 'cjs';
}

export const DEFAULT_BUNDLE: FunctionBundle = { awsSdk: 'bundled', format: 'esm' };

/**
 * Most functions bundle the SDK we test against, as ES modules. The client function, the SDK
 * hot path, has a 250 KB and 150 ms budget (ADR 9): bundled, the SDK alone is about 340 KB, so
 * it uses the runtime's SDK; and it is CommonJS, because an ES module imports that (CommonJS)
 * SDK through Node's export lexer and interop, which nearly doubles its cold import.
 */
export function bundleFor(group: Group): FunctionBundle {
  return SDK_GROUPS.has(group) ? { awsSdk: 'runtime', format: 'cjs' } : DEFAULT_BUNDLE;
}

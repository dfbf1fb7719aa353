/**
 * Each function's bundle, built with the stack's own esbuild settings (infra/bundling.ts), and
 * its module init time: how long a fresh Node process takes to import it, which is the part
 * of a Lambda cold start our code decides. Services are built on the first invocation, so the
 * import is the whole INIT phase apart from the runtime's own start.
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { BUNDLING, bundleFor, type FunctionBundle } from '../../infra/bundling.js';
import { GROUPS, type Group } from '../../lib/http/route.js';

const run = promisify(execFile);

export interface BundleReport {
  group: Group;
  /** Minified JavaScript, without the source map. */
  bytes: number;
  /**
   * The same bundle with the AWS SDK left out: our code and its libraries alone, comparable
   * across functions (the admin functions bundle the SDK, the SDK API's take the runtime's).
   */
  bytesWithoutAwsSdk: number;
  /** How many of lib/'s modules it holds. */
  libModules: number;
  bundle: FunctionBundle;
  /** Median of several fresh imports, in ms. */
  initMs: number;
}

/**
 * Bundles go under node_modules/.cache so that a bundle which leaves the AWS SDK to the
 * runtime resolves it from node_modules, as the Lambda runtime resolves its own copy.
 */
export async function bundleReports(root: string, imports = 5): Promise<BundleReport[]> {
  const reports: BundleReport[] = [];
  for (const group of GROUPS) {
    const bundle = await buildBundle(root, group);
    const lean = await buildBundle(root, group, { awsSdk: 'runtime' });
    reports.push({
      group, bytes: bundle.bytes, bytesWithoutAwsSdk: lean.bytes, libModules: lean.inputs.filter((input) => input.startsWith('lib/')).length,
      bundle: bundleFor(group), initMs: await initTime(bundle.file, bundleFor(group), imports),
    });
  }
  return reports;
}

/** One function's bundle as the stack builds it; answers its file, size and input modules. */
export async function buildBundle(
  root: string, group: Group, override: Partial<FunctionBundle> = {},
): Promise<{ file: string; bytes: number; inputs: string[] }> {
  const { awsSdk, format } = { ...bundleFor(group), ...override };
  // Explicit extensions: the repository's package.json says "type": "module".
  const variant = override.awsSdk ? `${group}-${override.awsSdk}-sdk` : group;
  const file = join(root, 'node_modules', '.cache', 'toggles-bench', variant, format === 'cjs' ? 'index.cjs' : 'index.mjs');
  mkdirSync(dirname(file), { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'functions', group, 'handler.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format,
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    mainFields: [...BUNDLING.mainFields],
    ...(format === 'esm' ? { banner: { js: BUNDLING.esmBanner } } : {}),
    external: awsSdk === 'bundled' ? [] : ['@aws-sdk/*'],
    metafile: true,
    logLevel: 'error',
  });
  const output = Object.values(result.metafile.outputs)[0];
  return { file, bytes: output?.bytes ?? 0, inputs: Object.keys(output?.inputs ?? {}) };
}

/** As the Lambda runtime loads a handler: `import()` for an ES module, `require` for CommonJS. */
async function initTime(file: string, bundle: FunctionBundle, times: number): Promise<number> {
  const load = bundle.format === 'cjs' ? `require(${JSON.stringify(file)})` : `await import(${JSON.stringify(file)})`;
  const script = `const t = performance.now(); ${load}; console.log(performance.now() - t);`;
  const args = bundle.format === 'cjs' ? ['-e', script] : ['--input-type=module', '-e', script];
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const { stdout } = await run(process.execPath, args, {
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    samples.push(Number(stdout.trim()));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

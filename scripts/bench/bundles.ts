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
import { BUNDLING, bundlesAwsSdk } from '../../infra/bundling.js';
import { GROUPS, type Group } from '../../lib/api/route-types.js';

const run = promisify(execFile);

export interface BundleReport {
  group: Group;
  /** Minified JavaScript, without the source map. */
  bytes: number;
  awsSdk: 'bundled' | 'runtime';
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
    reports.push({
      group,
      bytes: bundle.bytes,
      awsSdk: bundlesAwsSdk(group) ? 'bundled' : 'runtime',
      initMs: await initTime(bundle.file, imports),
    });
  }
  return reports;
}

/** One function's bundle as the stack builds it; answers its file, size and input modules. */
export async function buildBundle(root: string, group: Group): Promise<{ file: string; bytes: number; inputs: string[] }> {
  const file = join(root, 'node_modules', '.cache', 'toggles-bench', group, 'index.mjs');
  mkdirSync(dirname(file), { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'functions', group, 'handler.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: BUNDLING.format,
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    mainFields: [...BUNDLING.mainFields],
    banner: { js: BUNDLING.banner },
    external: bundlesAwsSdk(group) ? [] : ['@aws-sdk/*'],
    metafile: true,
    logLevel: 'error',
  });
  const output = Object.values(result.metafile.outputs)[0];
  return { file, bytes: output?.bytes ?? 0, inputs: Object.keys(output?.inputs ?? {}) };
}

async function initTime(file: string, times: number): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`;
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    samples.push(Number(stdout.trim()));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

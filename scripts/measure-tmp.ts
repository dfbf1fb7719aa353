import { build } from 'esbuild';
import { join } from 'node:path';
import { GROUPS } from '../lib/http/route.js';
const root = '/work/main';
const extra = process.argv.slice(2);
for (const group of [...GROUPS, ...extra]) {
  const entry = group.includes('/') ? join(root, group) : join(root, 'functions', group, 'handler.ts');
  const r = await build({ entryPoints: [entry], write: false, bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, mainFields: ['module','main'], external: ['@aws-sdk/*'], metafile: true, logLevel: 'error', outfile: '/tmp/measure/out.mjs' });
  const out = Object.values(r.metafile.outputs)[0]!;
  const inputs = Object.keys(out.inputs);
  const lib = inputs.filter((i) => i.startsWith('lib/'));
  const libBytes = lib.reduce((s, i) => s + out.inputs[i]!.bytesInOutput, 0);
  const nm: Record<string, number> = {};
  for (const i of inputs.filter((i) => i.includes('node_modules'))) { const m = i.match(/node_modules\/((@[^/]+\/)?[^/]+)/)![1]!; nm[m] = (nm[m] ?? 0) + out.inputs[i]!.bytesInOutput; }
  const top = Object.entries(nm).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k}:${Math.round(v/1024)}K`).join(' ');
  console.log(`${group.padEnd(12)} ${String(Math.round(out.bytes/1024)).padStart(5)} KB  lib files ${String(lib.length).padStart(3)} (${Math.round(libBytes/1024)} KB)  ${top}`);
}
if (process.env.LIST) {
  const r = await build({ entryPoints: [join(root, 'functions', process.env.LIST, 'handler.ts')], write: false, bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, mainFields: ['module','main'], external: ['@aws-sdk/*'], metafile: true, logLevel: 'error', outfile: '/tmp/measure/out.mjs' });
  const out = Object.values(r.metafile.outputs)[0]!;
  for (const [k, v] of Object.entries(out.inputs).filter(([k]) => k.startsWith('lib/')).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)) console.log(String(v.bytesInOutput).padStart(7), k);
}

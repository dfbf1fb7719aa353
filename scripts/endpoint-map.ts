/**
 * `npm run docs:endpoints`: rewrites the endpoint map in README.md from the route table.
 * `--check` only reports whether it is current (exit 1 when stale), as the test does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { withEndpointMap } from '../local/docs/endpoint-map.js';

const README = new URL('../README.md', import.meta.url);
const current = readFileSync(README, 'utf8');
const updated = withEndpointMap(current);

if (process.argv.includes('--check')) {
  if (updated !== current) {
    console.error('README.md: the endpoint map is stale; run npm run docs:endpoints');
    process.exit(1);
  }
  console.log('README.md: the endpoint map is current');
} else if (updated !== current) {
  writeFileSync(README, updated);
  console.log('README.md: endpoint map updated');
} else {
  console.log('README.md: endpoint map already current');
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operationIds, routeTable } from '../../lib/route-table.js';
import { configSchema } from '../../lib/config.js';
import { BEGIN, END, renderEndpointMap, withEndpointMap } from '../../local/docs/endpoint-map.js';

const README = readFileSync('README.md', 'utf8');

describe("the README's endpoint map", () => {
  it('is the one generated from the route table (npm run docs:endpoints rewrites it)', () => {
    expect(withEndpointMap(README) === README, 'README.md is stale: run npm run docs:endpoints').toBe(true);
  });

  it('lists every documented route once, and no internal one', () => {
    const map = renderEndpointMap();

    for (const id of operationIds) {
      const { method, path, internal } = routeTable[id] as { method: string; path: string; internal?: boolean };
      const line = `| ${method} | \`${path}\` |`;
      expect(map.split(line).length - 1, `${method} ${path}`).toBe(internal ? 0 : 1);
    }
  });

  it('refuses a README without the markers instead of losing the map', () => {
    expect(() => withEndpointMap('# no markers')).toThrow(BEGIN);
    expect(withEndpointMap(`a\n${BEGIN}\nold\n${END}\nb`)).toBe(`a\n${renderEndpointMap()}\nb`);
  });
});

describe("the README's configuration table", () => {
  it('names every variable the service and npm start read', () => {
    // configSchema is what every function and the local server parse; scripts/start.ts adds these.
    const variables = [...Object.keys(configSchema.shape), 'PORT', 'DATA_DIR', 'IN_MEMORY'];

    const missing = variables.filter((name) => !README.includes(`| \`${name}\` |`));

    expect(missing).toEqual([]);
  });
});

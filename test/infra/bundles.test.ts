import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_BUNDLED_FILES, GROUP_TAG } from '../../infra/constructs/group-functions.js';
import { createTogglesApp } from '../../infra/toggles-app.js';
import { bundleFor } from '../../infra/bundling.js';
import { GROUPS, type Group } from '../../lib/http/route.js';
import { openApiDocument } from '../../lib/docs/api-description.js';
import { SWAGGER_UI_BUNDLE_DIR } from '../../lib/docs/swagger-ui.js';
import { routeTable } from '../../lib/route-table.js';
import { cdkJsonContext } from './synth.js';

const run = promisify(execFile);

/**
 * What `cdk deploy` uploads: the stack synthesized with esbuild bundling on (the other stack
 * tests skip it), and the instance function's real bundle run by plain Node on sample events.
 */
describe('the bundled functions', () => {
  let outdir: string;
  const bundleOf = new Map<string, string>();

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'toggles-cdk-'));
    const { app } = createTogglesApp({ outdir, context: { ...cdkJsonContext } });
    const template = app.synth().getStackByName('ServerlessToggles').template as {
      Resources: Record<string, { Type: string; Properties: Record<string, any> }>;
    };
    for (const resource of Object.values(template.Resources)) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const group = (resource.Properties.Tags as Array<{ Key: string; Value: string }> | undefined)?.find((t) => t.Key === GROUP_TAG)?.Value;
      const key = String(resource.Properties.Code.S3Key);
      if (group) bundleOf.set(group, join(outdir, `asset.${key.replace(/\.zip$/, '')}`));
    }
  }, 120_000);

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('builds one bundle per endpoint group', () => {
    expect([...bundleOf.keys()].sort()).toEqual([...GROUPS].sort());
    for (const [group, dir] of bundleOf) {
      const entry = bundleFor(group as Group).format === 'cjs' ? 'index.js' : 'index.mjs';
      expect(existsSync(join(dir, entry)), group).toBe(true);
    }
  });

  it("puts Swagger UI's files into the instance bundle only", () => {
    for (const { to } of GROUP_BUNDLED_FILES.instance!) {
      expect(statSync(join(bundleOf.get('instance')!, to)).size).toBeGreaterThan(100_000);
    }
    for (const group of GROUPS.filter((g) => g !== 'instance')) {
      expect(existsSync(join(bundleOf.get(group)!, SWAGGER_UI_BUNDLE_DIR)), group).toBe(false);
    }
  });

  it('serves /docs, its files and the OpenAPI document from the instance bundle', async () => {
    const answers = await invokeBundle(bundleOf.get('instance')!, ['docs-page', 'docs-styles', 'docs-script', 'docs-openapi']);
    const [page, styles, script, openapi] = answers;

    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(page!.contentType).toContain('text/html');
    expect(page!.body).toContain('/docs/swagger-ui-bundle.js');
    expect(styles!.contentType).toContain('text/css');
    expect(styles!.length).toBe(sourceSize('swagger-ui.css'));
    expect(script!.contentType).toContain('javascript');
    expect(script!.length).toBe(sourceSize('swagger-ui-bundle.js'));
    // The sample events for the two files ask for gzip, as browsers do.
    expect([styles!.encoding, script!.encoding]).toEqual(['gzip', 'gzip']);
    expect(JSON.parse(openapi!.body)).toEqual(openApiDocument(routeTable));
  }, 30_000);
});

const sourceSize = (file: string) => readFileSync(join('node_modules/swagger-ui-dist', file), 'utf8').length;

interface Answer {
  statusCode: number;
  contentType: string;
  encoding: string;
  length: number;
  body: string;
}

/** Imports the bundle in a fresh Node process, as Lambda does, and calls its handler on each event. */
async function invokeBundle(bundleDir: string, events: string[]): Promise<Answer[]> {
  const script = `
    const { handler } = await import(${JSON.stringify(join(bundleDir, 'index.mjs'))});
    const { readFileSync } = await import('node:fs');
    const { gunzipSync } = await import('node:zlib');
    const answers = [];
    for (const name of ${JSON.stringify(events)}) {
      const event = JSON.parse(readFileSync('events/instance/' + name + '.json', 'utf8'));
      const result = await handler(event, { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 10000 });
      const raw = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '');
      const body = (result.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      answers.push({ statusCode: result.statusCode, contentType: result.headers['content-type'],
        encoding: result.headers['content-encoding'] ?? 'identity', length: body.length,
        body: name === 'docs-script' || name === 'docs-styles' ? '' : body });
    }
    process.stdout.write(JSON.stringify(answers));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    // Docs need no table; the services are built all the same, so they get a name.
    env: { PATH: process.env.PATH, TABLE_NAME: 'bundle-test', AWS_REGION: 'eu-west-1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Answer[];
}

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const rules = require('../../.dependency-cruiser.cjs') as IConfiguration;

/**
 * The repository's own rules (.dependency-cruiser.cjs, `npm run lint:deps` in CI) over a small
 * tree that breaks each of them once: a rule whose pattern stopped matching would otherwise pass
 * silently. Imports name no extension, so they resolve without the repository's tsconfig.
 */
const TREE: Record<string, string> = {
  // lib/alpha and lib/beta import each other through a chain of three files: a folder cycle, no file cycle.
  'lib/alpha/one.ts': "import './two'; import '../beta/three';",
  'lib/alpha/two.ts': 'export const two = 2;',
  'lib/beta/three.ts': "import '../alpha/two'; export const three = 3;",
  'lib/gamma/four.ts': "import '../beta/three';",
  // A file cycle inside one folder.
  'lib/delta/a.ts': "import './b';",
  'lib/delta/b.ts': "import './a';",
  // A resource's operations reaching the composition.
  'lib/epsilon/operations.ts': "import '../composition/wiring';",
  'lib/composition/wiring.ts': 'export const wiring = true;',
  // The AWS SDK outside an adapter, and inside one named for it.
  'lib/zeta/service.ts': "import '@aws-sdk/lib-dynamodb';",
  'lib/zeta/dynamo-store.ts': "import '@aws-sdk/lib-dynamodb';",
  // lib reaching the laptop runtime; a test importing a script; a script importing a test.
  'lib/eta/model.ts': "import '../../local/runtime';",
  'local/runtime.ts': 'export const runtime = true;',
  'test/unit/x.test.ts': "import '../../scripts/start';",
  'scripts/start.ts': "import '../test/support/helper';",
  'test/support/helper.ts': 'export const helper = true;',
  // One function reaching into another.
  'functions/one/handler.ts': "import '../two/handler';",
  'functions/two/handler.ts': 'export const handler = true;',
  // The CDK app importing a function.
  'infra/stack.ts': "import '../functions/two/handler';",
};

let root: string;
let violations: Array<{ rule: string; from: string; to: string }>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  for (const [file, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  // The AWS SDK as the rules see it: a package under node_modules, resolved but not followed.
  mkdirSync(join(root, 'node_modules/@aws-sdk/lib-dynamodb'), { recursive: true });
  writeFileSync(join(root, 'node_modules/@aws-sdk/lib-dynamodb/package.json'), JSON.stringify({ name: '@aws-sdk/lib-dynamodb', main: 'index.js' }));
  writeFileSync(join(root, 'node_modules/@aws-sdk/lib-dynamodb/index.js'), 'module.exports = {};');
  const { tsConfig: _tsConfig, ...options } = rules.options ?? {};
  const result = await cruise(['lib', 'local', 'test', 'scripts', 'functions', 'infra'], {
    ...options, baseDir: root, validate: true, ruleSet: { forbidden: rules.forbidden },
  });
  const output = result.output as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
  violations = output.summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }));
}, 60_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const broken = (rule: string) => violations.filter((violation) => violation.rule === rule);

describe('the import rules CI checks', () => {
  it('refuse two lib folders that import each other through any chain', () => {
    expect(broken('no-lib-folder-cycle').map(({ from }) => from).sort()).toEqual(expect.arrayContaining(['lib/alpha', 'lib/beta']));
  });

  it('refuse a file cycle', () => {
    expect(broken('no-file-cycle').map(({ from }) => from)).toContain('lib/delta/a.ts');
  });

  it("refuse a resource folder's import of lib/composition/", () => {
    expect(broken('resource-not-composition')).toEqual([{ rule: 'resource-not-composition', from: 'lib/epsilon/operations.ts', to: 'lib/composition/wiring.ts' }]);
  });

  it('refuse the AWS SDK outside an adapter named for its service, and allow it in one', () => {
    expect(broken('aws-sdk-only-in-adapters').map(({ from }) => from)).toEqual(['lib/zeta/service.ts']);
  });

  it('refuse lib/ reaching the laptop runtime, and anything importing a script or (outside the tests) a test', () => {
    expect(broken('lib-is-innermost').map(({ from }) => from)).toEqual(['lib/eta/model.ts']);
    expect(broken('scripts-are-entry-points').map(({ from }) => from)).toEqual(['test/unit/x.test.ts']);
    expect(broken('tests-are-nobodys-dependency').map(({ from }) => from)).toEqual(['scripts/start.ts']);
  });

  it('refuse a function reaching into another, and the CDK app importing a function', () => {
    expect(broken('functions-meet-only-in-the-registry').map(({ from }) => from)).toEqual(['functions/one/handler.ts']);
    expect(broken('infra-imports-lib').map(({ from }) => from)).toEqual(['infra/stack.ts']);
  });

  it('find nothing else in the tree: the lib folders without a broken rule pass', () => {
    const rulesBroken = new Set(violations.map(({ rule }) => rule));
    expect([...rulesBroken].sort()).toEqual([
      'aws-sdk-only-in-adapters', 'functions-meet-only-in-the-registry', 'infra-imports-lib', 'lib-is-innermost',
      'no-file-cycle', 'no-lib-folder-cycle', 'resource-not-composition', 'scripts-are-entry-points', 'tests-are-nobodys-dependency',
    ]);
    expect(violations.some(({ from }) => from.startsWith('lib/gamma') && !from.startsWith('lib/gamma/four'))).toBe(false);
  });
});

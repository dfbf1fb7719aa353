/**
 * The import rules CI checks (`npm run lint:deps`, run by .ci/run after the type check).
 * Only runtime imports count: `import type` is erased before a bundle is built, so it neither
 * makes a cycle at runtime nor puts a module in a function's bundle (tsPreCompilationDeps: false).
 */

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-lib-folder-cycle',
      comment:
        'Two lib folders that import each other (through any chain) are one module in two places: ' +
        'a slice must reach another resource only through its ports, bound in lib/composition/.',
      severity: 'error',
      scope: 'folder',
      // At folder scope a module is its folder's path with no trailing slash (`lib/features`).
      from: { path: '^lib/[^/]+' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycle',
      comment: 'A file cycle makes the order modules load in decide whether a value is defined yet.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'resource-not-composition',
      comment:
        'A resource folder (and its operations.ts) names what it needs as ports; only lib/composition/ ' +
        'and functions/ choose the implementations, or every function would bundle every resource.',
      severity: 'error',
      from: { path: '^lib/(?!composition/)[^/]+/' },
      to: { path: '^lib/composition/' },
    },
    {
      name: 'aws-sdk-only-in-adapters',
      comment:
        'The AWS SDK is used by adapters named for their service (dynamo-*, *-sqs-*, eventbridge-*, secrets), by the ' +
        'DynamoDB machinery in lib/store/ and by the secret sources in lib/secrets/, so that what talks ' +
        'to AWS is found by its name and everything else can be tested without it.',
      severity: 'error',
      from: {
        path: '^lib/',
        pathNot: [
          '^lib/store/',
          '^lib/secrets/',
          '(^|/)dynamo-[^/]+[.]ts$',
          '(^|/|-)sqs-[^/]+[.]ts$',
          '(^|/)eventbridge-[^/]+[.]ts$',
        ],
      },
      to: { path: '(^|/)node_modules/@aws-sdk/' },
    },
    {
      name: 'scripts-are-entry-points',
      comment:
        'scripts/ holds only command-line entry points: what the tests drive and the scripts share lives ' +
        'in local/ (the laptop runtime, the bench) or lib/, so no test, and nothing else, imports a script.',
      severity: 'error',
      from: { pathNot: '^scripts/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'lib-is-innermost',
      comment: 'What is deployed never depends on the tests, the laptop runtime, the scripts or the functions.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(test|scripts|local|functions)/' },
    },
    {
      name: 'tests-are-nobodys-dependency',
      comment: 'Only tests import test/: the runtime, the scripts and the CDK app work without the test folder.',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'infra-imports-lib',
      comment: 'The CDK app reads the route table and the key design from lib/, never the laptop runtime or a function.',
      severity: 'error',
      from: { path: '^infra/' },
      to: { path: '^(scripts|local|functions)/' },
    },
    {
      name: 'functions-import-lib',
      comment:
        "A function is lib/ composed for its group: it imports lib/ (and Node's own modules), and the " +
        'files of its own folder.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { pathNot: '^(lib|functions)/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'functions-meet-only-in-the-registry',
      comment: 'One function never reaches into another: functions/registry.ts is where they are listed together.',
      severity: 'error',
      from: { path: '^functions/([^/]+)/' },
      to: { path: '^functions/', pathNot: '^functions/$1/' },
    },
  ],
  options: {
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};

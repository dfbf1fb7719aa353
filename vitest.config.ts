import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The global setup runs in this process and uses the AWS SDK, which warns once on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** One DynamoDB Local engine, started only when a project that needs it runs (shared by them). */
const DYNAMODB = ['test/support/global-setup.ts'];

/**
 * Integration files that measure cost or limits at scale (thousands of items, 6 MB answers,
 * throughput ceilings): minutes each, so they run with the slow project, not in the edit loop.
 */
const SLOW_INTEGRATION = [
  'test/integration/metrics-aggregation.test.ts',
  'test/integration/sdk-change-cost.test.ts',
  'test/integration/project-reads-cost.test.ts',
  'test/integration/large-answers.test.ts',
  'test/integration/application-list-size.test.ts',
];

/** The route fuzz is sized by FUZZ_REQUESTS (10,000 unless set): the edit loop runs a tenth of that. */
const QUICK_FUZZ_REQUESTS = '1000';
const FUZZ = ['test/fuzz/**/*.test.ts'];

/**
 * Unit and integration files run at least two at a time: an integration file spends much of its
 * time waiting on DynamoDB Local (a process of its own), so even on two cores a second worker
 * fills that time (npm run test:quick took half the time). The slow and infra files run one at a
 * time after them, as before: browsers, local servers and template synthesis each keep a core busy.
 */
const QUICK = { maxWorkers: Math.max(2, availableParallelism() - 1), sequence: { groupOrder: 0 } };
const ONE_AT_A_TIME = { maxWorkers: 1, sequence: { groupOrder: 1 } };

export default defineConfig({
  test: {
    env: {
      CDK_VALIDATION: 'false',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // npm test runs the first four; npm run test:quick is unit + integration (the edit loop);
    // npm run test:clients the clients of other languages.
    projects: [
      {
        extends: true,
        // Rules and services without I/O: no Java, no global setup.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], ...QUICK },
      },
      {
        extends: true,
        // Handlers and stores on the AWS-like engine, the route × role walks, a short route fuzz.
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', ...FUZZ],
          exclude: SLOW_INTEGRATION,
          globalSetup: DYNAMODB,
          env: { FUZZ_REQUESTS: QUICK_FUZZ_REQUESTS },
          ...QUICK,
        },
      },
      {
        extends: true,
        // HTTP end to end, SDKs and Chromium, the measurements at scale and the full route fuzz.
        test: {
          name: 'slow',
          include: ['test/e2e/**/*.test.ts', ...SLOW_INTEGRATION, ...FUZZ],
          globalSetup: DYNAMODB,
          ...ONE_AT_A_TIME,
        },
      },
      {
        extends: true,
        // The synthesized CloudFormation template: CDK only, no DynamoDB.
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'], ...ONE_AT_A_TIME },
      },
      {
        extends: true,
        // The clients of other languages (Java, Go, Python SDKs and OFREP providers, Unleash Edge)
        // against npm start: npm run test:clients, which needs their toolchains. Their builds are
        // cached outside the checkout (test/clients/support/client.ts, CLIENTS_CACHE), hence the long hooks.
        test: {
          name: 'clients',
          include: ['test/clients/**/*.test.ts'],
          globalSetup: DYNAMODB,
          testTimeout: 120_000,
          hookTimeout: 1_800_000,
          ...ONE_AT_A_TIME,
        },
      },
    ],
  },
});

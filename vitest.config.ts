import { defineConfig } from 'vitest/config';

// The global setup runs in this process and uses the AWS SDK, which warns once on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local engine for the whole run; each test makes uniquely named data.
    globalSetup: ['test/support/global-setup.ts'],
    env: {
      CDK_VALIDATION: 'false',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});

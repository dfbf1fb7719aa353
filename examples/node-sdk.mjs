// The official Unleash Node SDK pointed at serverless-toggles: it syncs once and evaluates a
// feature for a few users. Against `npm start`, after the README's tour:
//
//   UNLEASH_API_TOKEN='*:development.…' node examples/node-sdk.mjs new-checkout
//
// In the cloud, set UNLEASH_URL to the stack's ApiUrl followed by /api.
import { once } from 'node:events';
import { initialize } from 'unleash-client';

const url = process.env.UNLEASH_URL ?? 'http://127.0.0.1:4242/api';
const token = process.env.UNLEASH_API_TOKEN;
const feature = process.argv[2] ?? 'new-checkout';
if (!token) {
  console.error('Set UNLEASH_API_TOKEN to a client token (the README tour creates one).');
  process.exit(2);
}

const unleash = initialize({
  url,
  appName: 'node-sdk-example',
  customHeaders: { Authorization: token },
  refreshInterval: 15_000,
});
unleash.on('error', (error) => console.error(`unleash: ${error.message}`));

try {
  // `synchronized` fires once the first payload from GET /api/client/features is in.
  await once(unleash, 'synchronized', { signal: AbortSignal.timeout(30_000) }).catch(() => {
    throw new Error(`no features from ${url} within 30 s`);
  });
  for (const userId of ['alice', 'bob', 'carol', 'dave']) {
    console.log(`${feature} for ${userId}: ${unleash.isEnabled(feature, { userId }) ? 'on' : 'off'}`);
  }
} finally {
  unleash.destroy();
}

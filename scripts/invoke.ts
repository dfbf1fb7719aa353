/**
 * `npm run invoke -- <group> events/<group>/<scenario>.json`: runs one group's real handler on a
 * sample API Gateway event against the local engine and prints the response.
 */
import { resolve } from 'node:path';
import { GROUPS, type Group } from '../lib/http/route.js';
import { invokeSample } from '../local/invoke-sample.js';
import { startLocalRuntime } from '../local/runtime.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const [group, eventFile] = process.argv.slice(2);
if (!group || !eventFile || !GROUPS.includes(group as Group)) {
  console.error(`usage: npm run invoke -- <group> <event.json>\n  groups: ${GROUPS.join(', ')}`);
  process.exit(2);
}

const runtime = await startLocalRuntime({
  inMemory: process.env.IN_MEMORY === 'true',
  dataDir: resolve(process.env.DATA_DIR ?? '.data'),
  env: process.env,
});
try {
  const result = await invokeSample(runtime, group as Group, resolve(eventFile));
  console.log(JSON.stringify(result, null, 2));
} finally {
  await runtime.stop();
}

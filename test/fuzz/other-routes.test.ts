import { operationIds, routeTable } from '../../lib/route-table.js';
import { describeRouteFuzz } from './harness.js';

/**
 * Every route outside the features group; with feature-routes.test.ts, the whole route table, but
 * the maintenance toggle: a fuzzed `{enabled: true}` would make every later change a 503 by design
 * and leave the rest of the run fuzzing refusals (test/integration/maintenance.test.ts holds it).
 */
const ids = operationIds.filter((id) => routeTable[id].group !== 'features' && id !== 'toggleMaintenance');

describeRouteFuzz('route fuzz: every other group', ids, Number(process.env.FUZZ_REQUESTS ?? 10_000) / 2);

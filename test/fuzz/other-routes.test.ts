import { operationIds, routeTable } from '../../lib/route-table.js';
import { describeRouteFuzz } from './harness.js';

/** Every route outside the features group; with feature-routes.test.ts, the whole route table. */
const ids = operationIds.filter((id) => routeTable[id].group !== 'features');

describeRouteFuzz('route fuzz: every other group', ids, Number(process.env.FUZZ_REQUESTS ?? 10_000) / 2);

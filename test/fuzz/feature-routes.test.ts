import { operationIds, routeTable } from '../../lib/route-table.js';
import { describeRouteFuzz } from './harness.js';

/** Half of the route fuzz (the other half is other-routes.test.ts), so the two run in parallel. */
const ids = operationIds.filter((id) => routeTable[id].group === 'features');

describeRouteFuzz('route fuzz: the features group', ids, Number(process.env.FUZZ_REQUESTS ?? 10_000) / 2);

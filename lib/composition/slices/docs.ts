import { docsSlice } from '../../docs/slice.js';
import { routeTable } from '../../route-table.js';
import type { Composition } from '../composition.js';

/** The API description's slice, once per composition, describing the whole route table. */
export const docs = (c: Composition) => docsSlice(c, { apiRows: routeTable });

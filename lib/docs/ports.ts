import type { ApiRows } from './api-description.js';

/** What the API's description reads: every row of the API, which lib/docs does not import (the route table lists the docs' own rows). */
export interface DocsPorts {
  apiRows: ApiRows;
}

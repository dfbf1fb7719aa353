/**
 * `npm run bench:walks`: which files one warm SDK poll and one feature strategy write run, and
 * their DynamoDB requests (local/bench/walks.ts). WALK_FILES=1 lists the files.
 */
import { measureWalks, walkLines } from '../../local/bench/walks.js';

console.log(walkLines(await measureWalks(), process.env.WALK_FILES === '1'));

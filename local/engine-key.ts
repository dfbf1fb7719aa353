import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupProblem } from './startup-problem.js';

/**
 * DynamoDB Local answers anyone who reaches its port (it cannot be bound to loopback only), but
 * without `-sharedDb` it keeps one database per access key id and region, and it never checks
 * the signature. So the access key id is what guards the data: 160 random bits that only the
 * service knows. The engine accepts letters and digits only, so hex.
 */
export const newAccessKeyId = (): string => randomBytes(20).toString('hex');

const KEY_FILE = 'access-key';
const VALID_KEY = /^[A-Za-z0-9]{32,}$/;
/** The single database file `-sharedDb` used, which any key reached. */
const SHARED_DB_FILE = 'shared-local-instance.db';

/**
 * The key for a persistent engine folder: made once and kept in `<folder>/access-key` (0600)
 * so the data stays reachable across restarts. The folder is closed to other users (0700),
 * because the engine names each database file after its key.
 */
export function persistentAccessKeyId(folder: string, region: string): string {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  const file = join(folder, KEY_FILE);
  const key = existsSync(file) ? readKey(file) : writeKey(file);
  adoptSharedDatabase(folder, key, region);
  return key;
}

function readKey(file: string): string {
  chmodSync(file, 0o600);
  const key = readFileSync(file, 'utf8').trim();
  if (!VALID_KEY.test(key)) {
    throw new StartupProblem(`${file} does not hold a DynamoDB Local access key (32 or more letters and digits); restore it, or move the data folder away to start afresh`);
  }
  return key;
}

/** Written to a temporary name and renamed, so a crash never leaves half a key behind. */
function writeKey(file: string): string {
  const key = newAccessKeyId();
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${key}\n`, { mode: 0o600 });
  renameSync(partial, file);
  return key;
}

/**
 * A folder from a version that ran the engine with `-sharedDb` holds one database any key
 * reached: it becomes this key's database, so the data moves along and the old well-known
 * key no longer reaches it. Checked on every start, so an interrupted first start finishes.
 */
function adoptSharedDatabase(folder: string, key: string, region: string): void {
  const shared = join(folder, SHARED_DB_FILE);
  const own = join(folder, `${key}_${region}.db`);
  if (existsSync(shared) && !existsSync(own)) renameSync(shared, own);
}

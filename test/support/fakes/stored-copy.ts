/**
 * What the DynamoDB adapters hand back is a fresh object read from the table: a caller changing
 * it changes nothing stored, and attributes written as `undefined` are not there at all (the
 * document client removes undefined values). Fakes store and answer copies made this way.
 */
export function storedCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map((element) => storedCopy(element)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== undefined).map(([name, field]) => [name, storedCopy(field)]),
  ) as T;
}

/**
 * The order a DynamoDB Query returns a collection in: by sort key, compared as UTF-8 bytes
 * (which differs from JavaScript's string order for characters past the Basic Multilingual Plane).
 */
export function bySortKey(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

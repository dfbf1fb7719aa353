/**
 * Capacity units as DynamoDB counts them, approximately, and a per-partition meter.
 *
 * Item size (DynamoDB's rules, "Item sizes and formats"): attribute names' UTF-8 bytes plus each
 * value's size: strings and binaries their bytes, numbers about one byte per two significant
 * digits plus one, booleans and nulls one byte, lists and maps three bytes plus one per element
 * plus their elements, sets the sum of their members.
 * Units: a write is ceil(size / 1 KB) WCU; a strongly consistent read ceil(size / 4 KB) RCU, an
 * eventually consistent one half of that; a transactional read or write costs twice as much.
 * The approximations: an UpdateItem or DeleteItem is charged for what the request carries (the
 * key and the update's values), not for the stored item's size before and after, since the
 * engine in front cannot see the stored item without reading it; a read is charged for what
 * came back, after the answer, so the request that crosses the limit is served and the next
 * one is throttled; a Scan touches every partition and is not charged to any.
 */
export type AttributeValue = Record<string, unknown>;
export type Item = Record<string, AttributeValue>;

export function valueSize(value: AttributeValue): number {
  const [type, inner] = Object.entries(value)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return Buffer.byteLength(String(inner), 'utf8');
    case 'N':
      return numberSize(String(inner));
    case 'B':
      return Buffer.from(String(inner), 'base64').length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
      return (inner as string[]).reduce((sum, member) => sum + Buffer.byteLength(member, 'utf8'), 0);
    case 'NS':
      return (inner as string[]).reduce((sum, member) => sum + numberSize(member), 0);
    case 'BS':
      return (inner as string[]).reduce((sum, member) => sum + Buffer.from(member, 'base64').length, 0);
    case 'L':
      return 3 + (inner as AttributeValue[]).reduce((sum, element) => sum + 1 + valueSize(element), 0);
    case 'M':
      return 3 + Object.entries(inner as Item).reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name, 'utf8') + valueSize(element), 0);
    default:
      return 1;
  }
}

function numberSize(number: string): number {
  const digits = number.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

export function itemSize(item: Item | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name, 'utf8') + valueSize(value), 0);
}

export const writeUnits = (size: number, transactional = false): number => Math.max(1, Math.ceil(size / 1024)) * (transactional ? 2 : 1);

export function readUnits(size: number, options: { consistent?: boolean; transactional?: boolean } = {}): number {
  const strong = Math.max(1, Math.ceil(size / 4096));
  if (options.transactional) return strong * 2;
  return options.consistent ? strong : strong / 2;
}

/** DynamoDB's documented per-partition ceilings: 1,000 WCU and 3,000 RCU per second. */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1_000;
export const PARTITION_READ_UNITS_PER_SECOND = 3_000;

/**
 * Units consumed per partition (table or index, and partition key value) in the current
 * one-second window of `now` (a clock the caller controls; tests pass their own).
 */
export class CapacityMeter {
  private window = Number.NaN;
  private readonly used = new Map<string, { read: number; write: number }>();
  /** Every unit consumed since the start, as DynamoDB would bill them (on demand: per request unit). */
  readonly total = { read: 0, write: 0 };

  constructor(
    private readonly now: () => number,
    readonly limits: { read: number; write: number },
  ) {}

  private current(partition: string) {
    const window = Math.floor(this.now() / 1000);
    if (window !== this.window) {
      this.window = window;
      this.used.clear();
    }
    let used = this.used.get(partition);
    if (!used) this.used.set(partition, (used = { read: 0, write: 0 }));
    return used;
  }

  /**
   * Would these units go beyond the partition's ceiling this second? A read is asked with 0
   * units (its size is known only from the answer): refused once the ceiling is used up.
   */
  wouldExceed(partition: string, kind: 'read' | 'write', units: number): boolean {
    const used = this.current(partition)[kind];
    return kind === 'write' ? used + units > this.limits.write : units === 0 ? used >= this.limits.read : used + units > this.limits.read;
  }

  consume(partition: string, kind: 'read' | 'write', units: number): void {
    this.current(partition)[kind] += units;
    this.total[kind] += units;
  }
}

/** `npm run bench` options, checked: a typo stops the bench before it seeds anything. */
import { parseArgs } from 'node:util';

export interface BenchArgs {
  flags: number;
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  /** Simulated SDK instances for each minute of metrics measured; empty measures none. */
  metricsInstances: number[];
  noBundles: boolean;
  /** Skip the real Unleash's SDK poll (local/bench/unleash.ts): it needs PostgreSQL and a minute of seeding. */
  noUnleash: boolean;
  /**
   * Flag counts at which the payload bytes are compared with Unleash's (local/bench/payload.ts),
   * each on a server and an Unleash of its own; empty compares none.
   */
  payloadFlags: number[];
}

export function parseBenchArgs(argv: string[]): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      flags: { type: 'string', default: '1000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '2' },
      'metrics-instances': { type: 'string', default: '10,100,1000' },
      'no-bundles': { type: 'boolean', default: false },
      'no-unleash': { type: 'boolean', default: false },
      'payload-flags': { type: 'string', default: '1000,10000' },
      // Only the payload comparison (scripts/bench/main.ts reads it before these options).
      payload: { type: 'boolean', default: false },
    },
  });
  const whole = (name: string, raw: string, min: number): number => {
    const value = Number(raw.replaceAll('_', ''));
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number ≥ ${min}, not ${raw}`);
    return value;
  };
  const list = (values['metrics-instances'] as string).trim();
  const payloadList = (values['payload-flags'] as string).trim();
  return {
    flags: whole('flags', values.flags as string, 1),
    duration: whole('duration', values.duration as string, 1),
    warmup: whole('warmup', values.warmup as string, 0),
    connections: whole('connections', values.connections as string, 1),
    rounds: whole('rounds', values.rounds as string, 1),
    metricsInstances: list === '' ? [] : list.split(',').map((n) => whole('metrics-instances', n.trim(), 1)),
    noBundles: values['no-bundles'] as boolean,
    noUnleash: values['no-unleash'] as boolean,
    payloadFlags: payloadList === '' ? [] : payloadList.split(',').map((n) => whole('payload-flags', n.trim(), 1)),
  };
}

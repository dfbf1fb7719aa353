import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../local/bench/args.js';
import { busyShare, limitOf, machineTicks, serverMicrosPerRequest } from '../../local/bench/cpu.js';
import { copyOfTemplate } from '../../local/bench/fast-seed.js';
import { sameFlags, type SdkAnswer } from '../../local/bench/payload.js';
import { handlerCalls } from '../../local/bench/handler-cost.js';
import { listeningInode, parseProcStat, pidListeningOn, ProcessCpuMeter } from '../../local/bench/process-cpu.js';
import { parseWrkOutput } from '../../local/bench/wrk.js';
import { parseUiArgs, preloadsNamed } from '../../local/bench/ui.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// `npm run bench`'s pure parts (issue 14, deliverable 5); the bench itself is not a test.
describe('npm run bench options', () => {
  it('take the defaults, and whole numbers such as --flags 50000', () => {
    expect(parseBenchArgs([])).toEqual({
      flags: 1000, duration: 10, warmup: 3, connections: 50, rounds: 2, metricsInstances: [10, 100, 1000], noBundles: false, noUnleash: false,
      payloadFlags: [1000, 10_000],
    });
    expect(parseBenchArgs(['--payload', '--payload-flags', '500, 2000']).payloadFlags).toEqual([500, 2000]);
    expect(parseBenchArgs(['--payload-flags', '']).payloadFlags).toEqual([]);
    expect(parseBenchArgs(['--flags', '50000', '--duration', '8', '--rounds', '1', '--metrics-instances', '', '--no-bundles']))
      .toMatchObject({ flags: 50_000, duration: 8, rounds: 1, metricsInstances: [], noBundles: true });
    expect(parseBenchArgs(['--flags', '10_000']).flags).toBe(10_000);
  });

  it('refuse what is not a whole number, and unknown options', () => {
    expect(() => parseBenchArgs(['--flags', '10k'])).toThrow('--flags must be a whole number ≥ 1, not 10k');
    expect(() => parseBenchArgs(['--rounds', '0'])).toThrow('--rounds');
    expect(() => parseBenchArgs(['--metrics-instances', '10,x'])).toThrow('--metrics-instances');
    expect(() => parseBenchArgs(['--payload-flags', '1000,0'])).toThrow('--payload-flags');
    expect(() => parseBenchArgs(['--flag', '10'])).toThrow();
  });
});

describe('which process limited a load run', () => {
  const run = { serverCpuMs: 0, loaderCpuMs: 0, wallMs: 1000, requests: 1000, cores: 2 };

  it('divides the server CPU by the requests it served', () => {
    expect(serverMicrosPerRequest({ serverCpuMs: 73, requests: 1000 })).toBe(73);
    expect(serverMicrosPerRequest({ serverCpuMs: 5, requests: 0 })).toBeNaN();
  });

  it('names a process that used ≥ 90% of a core, the busier one when both did', () => {
    expect(limitOf({ ...run, serverCpuMs: 200, loaderCpuMs: 950 })).toBe('load generator');
    expect(limitOf({ ...run, serverCpuMs: 990, loaderCpuMs: 400 })).toBe('server');
    expect(limitOf({ ...run, serverCpuMs: 920, loaderCpuMs: 960 })).toBe('load generator');
  });

  it('names the cores when neither process reached a core but every core was busy', () => {
    expect(limitOf({ ...run, serverCpuMs: 500, loaderCpuMs: 600, machineBusy: 0.95 }))
      .toBe('cores (all 2 busy; 80% of a core went to other processes)');
    expect(limitOf({ ...run, serverCpuMs: 500, loaderCpuMs: 600, machineBusy: 0.6 })).toBe('neither (latency-bound)');
  });

  it('reads the machine’s busy share from /proc/stat', () => {
    const before = machineTicks(() => 'cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3');
    const after = machineTicks(() => 'cpu  280 0 100 850 50 0 0 0 0 0\n');
    expect(before).toEqual({ busy: 150, total: 1000 });
    expect(busyShare(before, after)).toBeCloseTo(230 / 280);
    expect(machineTicks(() => 'nothing')).toBeUndefined();
  });
});

describe('seeding by copies', () => {
  it('gives a copy of a template flag its own name, key, strategy ids and project, and keeps the rest', () => {
    const template = {
      pk: 'FEATURES', sk: 'FEATURE#bench-flag-000007', name: 'bench-flag-000007',
      environments: { development: { strategies: [
        { id: '3f0c8a52-1b7e-4c1d-9a55-0d2f1e7b6a10', parameters: { groupId: 'bench-flag-000007' }, segments: [4] },
      ] } },
      tags: [{ type: 'simple', value: 'team-search' }],
    };
    const copy = copyOfTemplate(template, 'bench-flag-000007', 12_347) as typeof template;

    expect(copy.sk).toBe('FEATURE#bench-flag-012347');
    expect((copy as Record<string, unknown>).project).toBe('bench-project-1');
    expect(copy.name).toBe('bench-flag-012347');
    const strategy = copy.environments.development.strategies[0]!;
    expect(strategy.parameters.groupId).toBe('bench-flag-012347');
    expect(strategy.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(strategy.id).not.toBe(template.environments.development.strategies[0]!.id);
    expect(strategy.segments).toEqual([4]);
    expect(copy.tags).toEqual(template.tags);
  });
});

describe('the payload comparison’s check that both servers hold the same flags', () => {
  const segment = (id: number, name = 'nordics') => ({ id, name, constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE'] }] });
  const flag = (name: string, segmentId: number, extra: Record<string, unknown> = {}) => ({
    name, type: 'release', enabled: true, project: 'default', description: `${name} flag`, impressionData: false, variants: [],
    strategies: [
      {
        name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: name }, segments: [segmentId],
        constraints: [{ contextName: 'appName', operator: 'IN', values: ['checkout'], caseInsensitive: false, inverted: false }],
        variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } }],
      },
      { name: 'default', parameters: {}, constraints: [] },
    ],
    ...extra,
  });
  const ours: SdkAnswer = { features: [flag('a', 1), flag('b', 1)], segments: [segment(1)] };

  it('finds none between answers that differ only in segment ids, key order and flags left out as false', () => {
    const strategies = flag('a', 7).strategies.map((strategy) => ({
      ...strategy, constraints: strategy.constraints.map(({ caseInsensitive: _c, inverted: _i, ...rest }) => rest),
    }));
    const theirs: SdkAnswer = { features: [flag('b', 7), { ...flag('a', 7), strategies }], segments: [segment(7)] };
    expect(sameFlags(ours, theirs)).toEqual([]);
  });

  it('names each flag whose enabled state, strategies, their order or their segment differ, and flags on one side only', () => {
    const theirs: SdkAnswer = {
      features: [flag('a', 2, { enabled: false }), { ...flag('b', 1), strategies: [...flag('b', 1).strategies].reverse() }, flag('c', 1)],
      segments: [segment(1), { ...segment(2), constraints: [{ contextName: 'country', operator: 'IN', values: ['NO'] }] }],
    };
    const differences = sameFlags(ours, theirs);
    expect(differences.map((line) => line.split(':')[0])).toEqual(['a', 'b', 'c']);
    expect(differences[2]).toBe('c: only in Unleash\'s');
    expect(sameFlags(ours, { features: [flag('a', 1)], segments: [segment(1)] })).toEqual(['b: only in ours']);
  });

  it('tells apart segments that hold the same constraints under different names', () => {
    const theirs: SdkAnswer = { features: [flag('a', 1), flag('b', 2)], segments: [segment(1), segment(2, 'scandinavia')] };
    const differences = sameFlags(ours, theirs);
    expect(differences.map((line) => line.split(':')[0])).toEqual(['b']);
    expect(differences[0]).toContain('scandinavia');
  });

  it('names each flag whose project, description or dependencies differ, absent dependencies and enabled parents being the defaults', () => {
    const parent = { feature: 'a', enabled: true, variants: [] };
    const withParent: SdkAnswer = { features: [flag('a', 1), flag('b', 1, { dependencies: [parent] }), flag('c', 1, { dependencies: [] })], segments: [segment(1)] };
    const same: SdkAnswer = { features: [flag('a', 1), flag('b', 1, { dependencies: [{ feature: 'a' }] }), flag('c', 1)], segments: [segment(1)] };
    expect(sameFlags(withParent, same)).toEqual([]);
    const theirs: SdkAnswer = {
      features: [flag('a', 1, { project: 'other' }), flag('b', 1, { dependencies: [{ ...parent, enabled: false }] }), flag('c', 1, { description: 'changed' })],
      segments: [segment(1)],
    };
    expect(sameFlags(withParent, theirs).map((line) => line.split(':')[0])).toEqual(['a', 'b', 'c']);
  });
});

describe('in-process calls per batch', () => {
  it('shrink with the answer, within 50 and 20,000', () => {
    expect(handlerCalls(0)).toBe(20_000);
    expect(handlerCalls(42_688)).toBe(4_685);
    expect(handlerCalls(20_000_000)).toBe(50);
  });
});

describe('the CPU of processes other than the bench (Unleash and its PostgreSQL)', () => {
  it('reads user + system time from a /proc/<pid>/stat line, whatever the command name holds', () => {
    const line = '4242 (postgres: a (b) c) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 1 0 900 1000 10';
    expect(parseProcStat(line, 100)).toEqual({ pid: 4242, ppid: 17, cpuMs: 3000 });
    expect(parseProcStat('garbage')).toBeUndefined();
  });

  it('finds the listening loopback socket of a port in /proc/net/tcp', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 111 1',
      '   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 222 1',
    ].join('\n');
    expect(listeningInode(table, 8080)).toBe('222');
    expect(listeningInode(table, 8081)).toBeUndefined();
  });

  it('names this process as the one listening on its own server’s port', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(pidListeningOn((server.address() as AddressInfo).port)).toBe(process.pid);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('meters the CPU a process spent between start and stop', () => {
    const meter = new ProcessCpuMeter({ pids: [process.pid], childrenOf: [] });
    meter.start();
    const before = process.cpuUsage();
    let spentMs = 0;
    let sink = 0;
    while (spentMs < 200) {
      for (let i = 0; i < 100_000; i += 1) sink += Math.sqrt(i);
      const used = process.cpuUsage(before);
      spentMs = (used.user + used.system) / 1000;
    }
    const metered = meter.stop() as number;
    expect(sink).toBeGreaterThan(0);
    // /proc counts in clock ticks (10 ms): the metered time is this loop's, give or take a few ticks.
    expect(metered).toBeGreaterThanOrEqual(spentMs - 30);
    expect(metered).toBeLessThanOrEqual(spentMs + 60);
  });
});

describe('wrk as the load generator', () => {
  it('takes the summary line of wrk-summary.lua and wrk’s CPU from the shell’s times', () => {
    const stdout = [
      'Running 5s test @ http://127.0.0.1:4242/',
      '  150278 requests in 5.01s, 3.39GB read',
      '{"requests":150278,"durationMicros":5006151,"bytes":1,"connectErrors":0,"readErrors":0,"writeErrors":0,"statusErrors":2,"timeouts":0,"p50Micros":1252,"p99Micros":130770}',
      '0m0.000000s 0m0.000000s',
      '0m0.250000s 0m1.060000s',
    ].join('\n');
    const { summary, cpuMs } = parseWrkOutput(stdout);
    expect(summary).toMatchObject({ requests: 150_278, durationMicros: 5_006_151, statusErrors: 2, p99Micros: 130_770 });
    expect(cpuMs).toBeCloseTo(1310);
    expect(() => parseWrkOutput('Running 5s test\n')).toThrow('wrk printed no summary');
  });
});

describe('the UI bench\'s preloads A/B', () => {
  it('drops the API and module preloads by default, or the kinds --ui-preload-ab-drops names', () => {
    expect(parseUiArgs(['--ui-preload-ab']).preloadAbDrops).toEqual(['api', 'modules']);
    expect(parseUiArgs(['--ui-preload-ab', '--ui-preload-ab-drops', 'modules']).preloadAbDrops).toEqual(['modules']);
    expect(parseUiArgs(['--ui-preload-ab-drops', 'api, api']).preloadAbDrops).toEqual(['api']);
    expect(() => parseUiArgs(['--ui-preload-ab-drops', 'fonts'])).toThrow(/no preloads named "fonts"/);
  });

  it('names what the second side lacks in its labels and title', () => {
    expect(preloadsNamed(['api', 'modules'])).toBe('API and module preloads');
    expect(preloadsNamed(['modules'])).toBe('module preloads');
    expect(preloadsNamed(['api'])).toBe('API preloads');
  });
});

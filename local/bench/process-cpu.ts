/**
 * The CPU other processes spend over a load run, from /proc: what the real Unleash costs per
 * request is its Node process plus the PostgreSQL processes answering it, none of which is this
 * process's own time. Linux only; elsewhere the meter reads nothing and says so.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 on every Linux we run on). */
const TICKS_PER_SECOND = (() => {
  const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(answer.stdout?.trim());
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
})();

export interface ProcStat {
  pid: number;
  ppid: number;
  /** User + system time of the process and all its threads, ms (children it waited for not included). */
  cpuMs: number;
}

/**
 * Parses one /proc/<pid>/stat line. The command name (field 2) is in parentheses and may hold
 * spaces and parentheses itself, so the fields are counted from its last closing parenthesis.
 */
export function parseProcStat(line: string, ticksPerSecond = TICKS_PER_SECOND): ProcStat | undefined {
  const close = line.lastIndexOf(')');
  if (close < 0) return undefined;
  const pid = Number(line.slice(0, line.indexOf(' ')));
  // After the name: state(3) ppid(4) ... utime(14) stime(15), so index 0 here is field 3.
  const rest = line.slice(close + 2).trim().split(/\s+/);
  const ppid = Number(rest[1]);
  const ticks = Number(rest[11]) + Number(rest[12]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isFinite(ticks)) return undefined;
  return { pid, ppid, cpuMs: (ticks * 1000) / ticksPerSecond };
}

function readStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
  } catch {
    return [];
  }
}

/**
 * The inode of the loopback TCP socket listening on `port`, from a /proc/net/tcp table
 * (local address `0100007F:PPPP` in hex, state 0A = LISTEN, inode the tenth column).
 */
export function listeningInode(table: string, port: number): string | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const row of table.split('\n').slice(1)) {
    const cells = row.trim().split(/\s+/);
    if (cells[1]?.endsWith(`:${hexPort}`) && cells[3] === '0A') return cells[9];
  }
  return undefined;
}

/** The process listening on loopback `port` (the one holding the socket), if this user may see it. */
export function pidListeningOn(port: number): number | undefined {
  let inode: string | undefined;
  try {
    inode = listeningInode(readFileSync('/proc/net/tcp', 'utf8'), port);
  } catch {
    return undefined;
  }
  if (inode === undefined) return undefined;
  const socket = `socket:[${inode}]`;
  for (const pid of allPids()) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === socket) return pid;
      } catch {
        // The descriptor closed while we looked.
      }
    }
  }
  return undefined;
}

/** The PostgreSQL postmaster started with `-p <port>` (local/unleash-reference.ts starts one per run). */
export function postmasterOn(port: number): number | undefined {
  for (const pid of allPids()) {
    const args = commandLine(pid);
    if (!args[0]?.endsWith('/postgres')) continue;
    const flag = args.indexOf('-p');
    if (flag >= 0 && args[flag + 1] === String(port)) return pid;
  }
  return undefined;
}

/** Whose CPU a meter adds up: fixed processes, and every child of some parents (those that come and go included). */
export interface MeteredProcesses {
  pids: number[];
  childrenOf: number[];
}

/**
 * Adds up the CPU of `processes` between `start()` and `stop()`. It looks every `everyMs`, and
 * keeps the last time it saw for each process, so a backend that exits during the run still
 * counts up to the last look; one that starts during the run counts from zero.
 */
export class ProcessCpuMeter {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly processes: MeteredProcesses, private readonly everyMs = 250) {}

  start(): void {
    this.first.clear();
    this.last.clear();
    for (const stat of this.look()) this.first.set(stat.pid, stat.cpuMs);
    this.timer = setInterval(() => this.look(), this.everyMs);
  }

  /** CPU ms of the metered processes since `start()`; undefined when none of them could be read. */
  stop(): number | undefined {
    clearInterval(this.timer);
    this.look();
    if (this.last.size === 0) return undefined;
    let total = 0;
    for (const [pid, cpuMs] of this.last) total += cpuMs - (this.first.get(pid) ?? 0);
    return total;
  }

  private look(): ProcStat[] {
    const parents = new Set(this.processes.childrenOf);
    const seen: ProcStat[] = [];
    for (const pid of this.processes.pids) {
      const stat = readStat(pid);
      if (stat) seen.push(stat);
    }
    if (parents.size > 0) {
      for (const pid of allPids()) {
        const stat = readStat(pid);
        if (stat && parents.has(stat.ppid)) seen.push(stat);
      }
    }
    for (const stat of seen) this.last.set(stat.pid, stat.cpuMs);
    return seen;
  }
}

// CPU time on Linux, from /proc: the whole machine's (every process: servers, PostgreSQL, clients) and one process's.
// Undefined where /proc is not there.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Milliseconds every core spent busy (not idle, not waiting for I/O) since boot. */
export function machineBusyMs(): number | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
    return (user + nice + system + irq + softirq + steal) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Milliseconds of CPU process `pid` has used (user and system). */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Milliseconds of CPU used by every running process whose command is `name` (e.g. `postgres`: its server and backends). */
export function commandCpuMs(name: string): number | undefined {
  try {
    let sum = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) sum += processCpuMs(Number(entry)) ?? 0;
      } catch {
        // Gone since the listing.
      }
    }
    return sum;
  } catch {
    return undefined;
  }
}

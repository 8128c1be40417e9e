import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Every process below `root` (children, their children, …), read from /proc, or from `ps` where there is none. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parents()) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Kills every process below `root` with SIGKILL. The whole tree is read before any is killed: a killed parent's
 * children are handed to init and could no longer be found. Read again until none is left (a dying process may have
 * started one), at most five times.
 */
export function killDescendants(root: number): number[] {
  const killed: number[] = [];
  for (let round = 0; round < 5; round++) {
    const found = descendants(root).filter((pid) => !killed.includes(pid));
    if (found.length === 0) break;
    for (const pid of found) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      } catch {
        // Gone already.
      }
    }
  }
  return killed;
}

/** The live processes of process group `group` (Linux only: read from /proc). */
export function processGroup(group: number): number[] {
  return stats()
    .filter((stat) => stat.group === group)
    .map((stat) => stat.pid);
}

function parents(): Array<[number, number]> {
  if (!hasProc()) {
    return execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  }
  return stats().map((stat) => [stat.pid, stat.parent]);
}

const hasProc = (): boolean => {
  try {
    readdirSync('/proc/self');
    return true;
  } catch {
    return false;
  }
};

/** Each live process (zombies, ended but not yet reaped, left out) with its parent and process group, from /proc. */
function stats(): Array<{ pid: number; parent: number; group: number }> {
  const found: Array<{ pid: number; parent: number; group: number }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (name) state ppid pgrp …"; the name may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z') found.push({ pid: Number(entry), parent: Number(parent), group: Number(group) });
    } catch {
      // It ended while being read.
    }
  }
  return found;
}

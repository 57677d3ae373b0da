/**
 * @module CPU seconds the main thread has used (Linux: /proc/self/task/<pid>/stat), so a benchmark on a shared,
 * loaded machine can compare work done rather than wall time, which the other processes' load inflates.
 * process.cpuUsage() would count every thread, a stand-in's worker among them; undefined off Linux.
 */
import { readFileSync } from 'node:fs';

/** Ticks per second of /proc's utime and stime (USER_HZ, 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** The main thread's user + system CPU seconds so far, or undefined where /proc cannot tell. */
export function readMainThreadCpu(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

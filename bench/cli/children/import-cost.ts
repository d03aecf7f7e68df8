/**
 * Imports one module specifier (the built library, or a built-in for Node's own baseline) in a
 * fresh process and reports what that cost: the time of the import and the process's peak RSS.
 * Run as `node import-cost.mjs SPECIFIER`; prints one JSON {@link ImportCostReport}.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** What the child prints. */
export interface ImportCostReport {
  seconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
}

/**
 * This process's peak RSS. On Linux from /proc (VmHWM): getrusage's maxRSS survives exec, so a
 * child spawned by a large parent reports the parent's size at fork when it stays smaller.
 */
function peakRss(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (hwm) return Number(hwm) * 1024;
  } catch {
    // Not Linux: maxRSS (KiB on Linux and macOS).
  }
  return process.resourceUsage().maxRSS * 1024;
}

const [specifier] = process.argv.slice(2);
if (!specifier) {
  process.stderr.write('usage: import-cost SPECIFIER\n');
  process.exit(2);
}
const start = performance.now();
const cpu = process.cpuUsage();
await import(specifier);
const used = process.cpuUsage(cpu);
const report: ImportCostReport = {
  seconds: (performance.now() - start) / 1000,
  cpuSeconds: (used.user + used.system) / 1e6,
  peakRssBytes: peakRss(),
};
process.stdout.write(`${JSON.stringify(report)}\n`);

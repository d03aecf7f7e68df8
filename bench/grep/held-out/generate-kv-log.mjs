// A log for the held-out grep check (held-out.sh), from a generator the engine was never tuned
// on: epoch-millisecond key=value service lines with Java stack traces under a fifth of the
// errors. `node bench/grep/held-out/generate-kv-log.mjs BYTES PATH`. Deterministic; written 8 MiB
// at a time, so the page cache holds it as just written (see bench/shared/rewrite-log.ts).
import { closeSync, openSync, writeSync } from 'node:fs';

const size = Number(process.argv[2]);
const path = process.argv[3];
if (!(size > 0) || !path) throw new Error('usage: generate-kv-log.mjs BYTES PATH');
const out = openSync(path, 'w');
let seed = 12345;
const random = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 4294967296;
};
const pick = (items) => items[Math.floor(random() * items.length)];
const services = ['billing', 'auth', 'search', 'cart', 'inventory', 'gateway', 'notifier'];
const routes = [
  '/api/v1/users/',
  '/api/v1/orders/',
  '/api/v2/items/',
  '/healthz',
  '/api/v1/sessions/',
  '/internal/metrics',
];
const methods = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'];
const infos = [
  'request completed',
  'cache hit',
  'served from replica',
  'token refreshed',
  'batch flushed to kafka',
];
const warnings = [
  'slow query detected',
  'retrying request',
  'deprecated parameter used',
  'pool nearly exhausted',
];
const errors = [
  'upstream timeout',
  'connection reset by peer',
  'connection refused',
  'invalid token signature',
  'deadline exceeded, giving up after timeout',
];
const averageLine = 118;
// Nine lines name an OutOfMemoryError and about seven a checksum, spread over the file.
const rare = new Set(
  Array.from({ length: 9 }, (_, i) => Math.floor(((i + 0.5) * size) / 9 / averageLine)),
);
const checksums = new Set(
  Array.from({ length: 7 }, (_, i) => Math.floor(((i + 0.3) * size) / 7 / averageLine)),
);
const buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
let filled = 0;
let total = 0;
let stamp = 1700000000000;
for (let line = 1; total < size; line++) {
  stamp += Math.floor(random() * 3);
  const draw = random();
  let level;
  let message;
  if (draw < 0.66) [level, message] = ['INFO', pick(infos)];
  else if (draw < 0.8)
    [level, message] = ['DEBUG', `state=${Math.floor(random() * 1e6).toString(16)}`];
  else if (draw < 0.88) [level, message] = ['WARN', pick(warnings)];
  else if (draw < 0.999) [level, message] = ['ERROR', pick(errors)];
  else [level, message] = ['FATAL', 'worker crashed'];
  if (checksums.has(line))
    [level, message] = ['ERROR', `block checksum mismatch on segment ${line}`];
  const status =
    level === 'ERROR'
      ? pick([500, 502, 503, 504])
      : level === 'WARN'
        ? pick([200, 429, 404])
        : pick([200, 200, 201, 204, 304]);
  const trace = `${Math.floor(random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0')}-${Math.floor(random() * 65536)
    .toString(16)
    .padStart(4, '0')}`;
  let text = `${stamp} ${level.padEnd(5)} [worker-${Math.floor(random() * 32)}] svc=${pick(services)} route=${pick(routes)}${Math.floor(random() * 100000)} method=${pick(methods)} status=${status} latency_ms=${Math.floor(random() * random() * 5000)} trace=${trace} msg="${message}"`;
  if (rare.has(line)) text += ' cause=java.lang.OutOfMemoryError';
  text += '\n';
  if (level === 'ERROR' && random() < 0.2) {
    for (let frame = 0; frame < 3; frame++) {
      text += `    at com.example.${pick(services)}.Handler.process(Handler.java:${Math.floor(random() * 900)})\n`;
    }
  }
  if (filled + text.length * 3 > buffer.length) {
    writeSync(out, buffer, 0, filled);
    filled = 0;
  }
  filled += buffer.write(text, filled, 'latin1');
  total += text.length;
}
writeSync(out, buffer, 0, filled);
closeSync(out);

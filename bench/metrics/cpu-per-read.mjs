// CPU time per read with metrics on and off, in one process (issue 15): two services of one build, one
// with METRICS_TOKEN, each with the demo loaded, answer GET /v1/guides?limit=50 through Fastify's inject
// in alternating blocks; CPU time (process.cpuUsage) rather than wall time, so that other load on a shared
// machine weighs less. inject skips the network, so the measurement's share is larger than over HTTP.
//   node bench/metrics/cpu-per-read.mjs <build dir> [blocks=20] [requests per block=1000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [buildDir, blocks = '20', perBlock = '1000'] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(resolve(buildDir, path)).href);
const { loadConfig } = await load('config.js');
const { createService } = await load('service.js');
const { loadDemoOnce } = await load('domain/demo.js');
const { pino } = await import('pino');

async function start(env) {
  const dir = mkdtempSync(join(tmpdir(), 'guide-cpu-'));
  const config = loadConfig({ DATABASE_URL: `file:${dir}/service.db`, DATA_DIR: dir, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', ...env });
  const service = await createService(config, { logger: pino({ level: 'warn' }) });
  const demo = await loadDemoOnce(service.ctx, service.store);
  return { service, key: demo.organizationKey, dir };
}
const off = await start({});
const on = await start({ METRICS_TOKEN: 'cpu-per-read-token-0123456789' });

async function block({ service, key }, count) {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const response = await service.app.inject({ method: 'GET', url: '/v1/guides?limit=50', headers: { authorization: `Bearer ${key}` } });
    if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count; // µs per request
}
await block(off, 2000);
await block(on, 2000);
const results = { off: [], on: [] };
for (let i = 0; i < Number(blocks); i++) {
  for (const [name, s] of i % 2 ? [['on', on], ['off', off]] : [['off', off], ['on', on]]) results[name].push(await block(s, Number(perBlock)));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const m = { off: median(results.off), on: median(results.on) };
console.log(`CPU per read, median of ${blocks} blocks of ${perBlock}: off ${m.off.toFixed(1)} µs, on ${m.on.toFixed(1)} µs, on/off ${(m.on / m.off).toFixed(3)}`);
for (const s of [off, on]) {
  await s.service.close();
  rmSync(s.dir, { recursive: true, force: true });
}

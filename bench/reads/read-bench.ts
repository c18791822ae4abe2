// One pass of the read benchmark over one store: start the four servers, check that each answers every
// scenario (and that the SQL ceiling's answer is the service's), then per scenario put each server under
// the same wrk load in turn: a warm-up, then the measured run, sampling the server's memory meanwhile.
import { explainSearch } from '../ceiling/reads.js';
import type { BenchOptions } from '../options.js';
import { hasTableScan } from '../plans.js';
import { sampleRss } from '../processes.js';
import { type ProcessPeak, type ReadScenarioResult, type SearchPlan, TARGETS, type Target } from '../results.js';
import type { LoadedStore } from '../store.js';
import { failedRequests, runWrk } from '../wrk.js';
import { halfwayCursor } from './deep-cursor.js';
import { COMMON_TERM, RARE_TERM, type ReadScenario, readScenarios } from './scenarios.js';
import { peaks, type Servers, startServers, stopServers } from './servers.js';

export interface ReadPass {
  reads: ReadScenarioResult[];
  peaks: ProcessPeak[];
  searchPlans: SearchPlan[];
  problems: string[];
}

/**
 * Waits until a server has worked off the requests wrk left behind: when wrk stops it closes its
 * connections, but a server still answers what it had read from them, and that backlog must not eat into
 * the next run. A probe is answered after what was queued before it.
 */
export async function drain(url: string): Promise<void> {
  for (let i = 0; i < 2; i++) await fetch(`${url}/readyz`).then((response) => response.arrayBuffer());
}

async function fetchBody(url: string, key: string): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** Fetches each scenario once from each server; registers the service's bytes with the bytes ceiling. */
async function checkAnswers(servers: Servers, scenario: ReadScenario): Promise<Pick<ReadScenarioResult, 'responseBytes' | 'sameBody'>> {
  const service = await fetchBody(servers.service.url + scenario.path, scenario.key);
  const noCache = await fetchBody(servers.serviceNoCache.url + scenario.path, scenario.key);
  const ceiling = await fetchBody(servers.ceilingSql.url + scenario.path, scenario.key);
  for (const [name, answer] of [['service', service], ['service (READ_CACHE=off)', noCache], ['SQL ceiling', ceiling]] as const) {
    if (answer.status !== 200) throw new Error(`${scenario.id}: the ${name} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 500)}`);
  }
  const registered = await fetch(`${servers.ceilingBytes.url}/__bench/body?url=${encodeURIComponent(scenario.path)}`, { method: 'POST', body: service.body });
  if (!registered.ok) throw new Error(`${scenario.id}: the bytes ceiling refused the body (${registered.status})`);
  return { responseBytes: { service: service.body.length, ceilingSql: ceiling.body.length }, sameBody: service.body.equals(ceiling.body) };
}

export async function runReadPass(store: LoadedStore, options: BenchOptions, scalingOnly: boolean, log: (line: string) => void): Promise<ReadPass> {
  const guides = store.shape.guides;
  const problems: string[] = [];
  const servers = await startServers(store);
  try {
    const deep = options.groups.has('deep') && !scalingOnly
      ? { organization: await halfwayCursor(servers.service.url, store.ids.organizationKey), team: await halfwayCursor(servers.service.url, store.ids.teamKey) }
      : { organization: null, team: null };
    const scenarios = readScenarios(store.ids, deep).filter((scenario) => options.groups.has(scenario.group) && (!scalingOnly || scenario.scaling));

    const searchPlans: SearchPlan[] = [];
    if (options.groups.has('search')) {
      for (const term of [RARE_TERM, COMMON_TERM]) {
        const statements = await explainSearch(store.databaseUrl, store.ids.organizationKey, term);
        const plan = statements.flat();
        searchPlans.push({ guides, term, plan, tableScan: statements.some(hasTableScan) });
      }
    }

    const reads: ReadScenarioResult[] = [];
    for (const scenario of scenarios) {
      const checked = await checkAnswers(servers, scenario);
      if (!checked.sameBody) problems.push(`${scenario.id} at ${guides} guides: the SQL ceiling's body differs from the service's (${checked.responseBytes.ceilingSql} vs ${checked.responseBytes.service} bytes)`);
      const result: ReadScenarioResult = { id: scenario.id, label: scenario.label, guides, path: scenario.path, ...checked, targets: {} };
      const loadOf = (target: Target) => ({
        url: servers[target].url + scenario.path,
        headers: { authorization: `Bearer ${scenario.key}` },
        connections: options.connections,
        threads: options.threads,
      });
      for (const target of TARGETS) {
        await runWrk({ ...loadOf(target), seconds: options.warmupSeconds });
        await drain(servers[target].url);
      }
      // The servers take turns, round after round, so that a slow spell of the shared machine falls on
      // all of them; each keeps its median round.
      const rounds = new Map<Target, { measured: Awaited<ReturnType<typeof runWrk>>; peakRssMb: number }[]>();
      const roundSeconds = Math.max(2, Math.round(options.seconds / options.rounds));
      for (let round = 0; round < options.rounds; round++) {
        for (const target of TARGETS) {
          const memory = sampleRss(servers[target].child.pid);
          const measured = await runWrk({ ...loadOf(target), seconds: options.rounds === 1 ? options.seconds : roundSeconds });
          rounds.set(target, [...(rounds.get(target) ?? []), { measured, peakRssMb: memory.stop() }]);
          await drain(servers[target].url);
        }
      }
      for (const target of TARGETS) {
        const taken = [...rounds.get(target)!].sort((a, b) => a.measured.requestsPerSecond - b.measured.requestsPerSecond);
        const { measured } = taken[Math.floor(taken.length / 2)]!;
        result.targets[target] = { ...measured, peakRssMb: Math.max(...taken.map((round) => round.peakRssMb)) };
        if (measured.requests === 0) problems.push(`${scenario.id} at ${guides} guides on ${target}: no request completed in ${options.seconds} s`);
        const failed = failedRequests(measured);
        if (failed > 0) problems.push(`${scenario.id} at ${guides} guides on ${target}: ${failed} of ${measured.requests} requests failed (${JSON.stringify(measured.errors)})`);
        const all = taken.map((round) => round.measured.requestsPerSecond.toFixed(0)).join('/');
        log(`  ${scenario.id.padEnd(15)} ${target.padEnd(15)} ${measured.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${measured.p50Ms.toFixed(2)} ms  p99 ${measured.p99Ms.toFixed(2)} ms  (rounds ${all})`);
      }
      if (scenario.group === 'search') {
        result.alone = {};
        for (const target of ['service', 'serviceNoCache'] as const) {
          const measured = await runWrk({ ...loadOf(target), connections: 1, threads: 1, seconds: roundSeconds });
          await drain(servers[target].url);
          result.alone[target] = { p50Ms: measured.p50Ms, p99Ms: measured.p99Ms, requestsPerSecond: measured.requestsPerSecond };
          log(`  ${scenario.id.padEnd(15)} ${target.padEnd(15)} one connection: p50 ${measured.p50Ms.toFixed(2)} ms  p99 ${measured.p99Ms.toFixed(2)} ms  (${measured.requestsPerSecond.toFixed(0)} req/s)`);
        }
      }
      reads.push(result);
    }
    const high = peaks(servers);
    return {
      reads,
      peaks: TARGETS.map((target: Target) => ({ target, guides, peakMb: high[target] })),
      searchPlans,
      problems,
    };
  } finally {
    await stopServers(servers);
  }
}

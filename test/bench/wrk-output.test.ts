// The wrk done hook's line is what every read figure comes from: parse it exactly, refuse output without it.
import { describe, expect, it } from 'vitest';
import { failedRequests, parseWrkOutput } from '../../bench/wrk.js';

const OUTPUT = `Running 2s test @ http://127.0.0.1:40001/v1/guides?limit=50
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     4.21ms    1.02ms  30.11ms   90.00%
  25000 requests in 2.00s, 400.00MB read
Requests/sec:  12500.00
Transfer/sec:    200.00MB
WRK_JSON {"requests":25000,"duration_us":2000000,"bytes":419430400,"mean_us":4210.5,"p50_us":3900,"p90_us":5100,"p99_us":9800,"max_us":30110,"errors":{"connect":0,"read":0,"write":0,"status":3,"timeout":1}}
`;

describe('parseWrkOutput', () => {
  it('reads requests per second and percentiles in milliseconds from the done hook', () => {
    const measured = parseWrkOutput(OUTPUT);
    expect(measured.requests).toBe(25000);
    expect(measured.seconds).toBe(2);
    expect(measured.requestsPerSecond).toBe(12500);
    expect(measured.p50Ms).toBe(3.9);
    expect(measured.p90Ms).toBe(5.1);
    expect(measured.p99Ms).toBe(9.8);
    expect(measured.maxMs).toBeCloseTo(30.11);
    expect(measured.meanMs).toBeCloseTo(4.2105);
    expect(measured.bytes).toBe(419430400);
  });

  it('counts error statuses and socket errors as failed requests', () => {
    expect(failedRequests(parseWrkOutput(OUTPUT))).toBe(4);
  });

  it('refuses output without the done hook line, showing what wrk printed', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused\n')).toThrow(/Connection refused/);
  });
});

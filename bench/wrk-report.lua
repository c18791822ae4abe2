-- wrk's done hook: prints the exact figures of the run as one JSON line that bench/wrk.ts parses
-- (wrk's own text output rounds latencies and hides error counts in prose).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"mean_us":%.1f,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.bytes, latency.mean,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end

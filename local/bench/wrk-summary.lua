-- wrk's run summary as one JSON line for local/bench/load.ts (latencies in µs, duration in µs).
-- Only done() is defined: a response() callback would make wrk hand every answer to Lua,
-- which costs the load generator the CPU this tool is here to save.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationMicros":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"statusErrors":%d,"timeouts":%d,"p50Micros":%d,"p99Micros":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end

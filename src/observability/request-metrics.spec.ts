import { Counter, Histogram, Registry } from 'prom-client';
import { LATENCY_BUCKETS, RequestMetrics } from './request-metrics.js';

/** The same observations through prom-client's own Counter and Histogram. */
function reference(observations: Array<[string, string, number, number]>): Promise<string> {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'];
  const counter = new Counter({
    name: 'tessera_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [registry],
  });
  const histogram = new Histogram({
    name: 'tessera_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by method, route pattern and status',
    labelNames,
    buckets: [...LATENCY_BUCKETS],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations) {
    counter.inc({ method, route, status: String(status) });
    histogram.observe({ method, route, status: String(status) }, seconds);
  }
  return registry.metrics();
}

describe('RequestMetrics', () => {
  it("renders exactly what prom-client's Counter and Histogram render for the same requests", async () => {
    const observations: Array<[string, string, number, number]> = [
      ['GET', '/rest/:account/:project/:version/:resource', 200, 0.003],
      ['GET', '/rest/:account/:project/:version/:resource', 200, 0.001],
      ['GET', '/rest/:account/:project/:version/:resource', 200, 0.0011],
      ['POST', '/rest/:account/:project/:version/@authentication', 401, 0.25],
      ['PUT', '/rest/:account/:project/:version/:resource/:pk', 422, 12],
      ['GET', 'unmatched', 404, 0],
    ];
    const registry = new Registry();
    const metrics = new RequestMetrics(registry);
    for (const [method, route, status, seconds] of observations) metrics.record(method, route, status, seconds);
    expect(await registry.metrics()).toBe(await reference(observations));
  });

  it('names a method outside the usual ones OTHER', async () => {
    const registry = new Registry();
    new RequestMetrics(registry).record('PROPFIND', 'unmatched', 404, 0.01);
    expect(await registry.metrics()).toContain('tessera_http_requests_total{method="OTHER",route="unmatched",status="404"} 1');
  });
});

/**
 * Prometheus metrics (GET /metrics). Every part has a registry of its own, since several parts, and
 * in tests several hubs, run in one process; the process's own figures (CPU, memory, event loop,
 * garbage collection) are collected once per process and served by every part with its own.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

let processRegistry: Registry | undefined;

/** The process metrics, started on first use: they watch the event loop and the garbage collector. */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Seconds: from a cached read (a millisecond) to a bulk submit or a slow catch-up. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Times every request by route pattern (never the raw URL, whose values would make a series per
 * fid or hash), method and status; the histogram's count is the request count. Requests no route
 * matched share the pattern "unmatched".
 */
export function requestMetrics(registry: Registry): (request: FastifyRequest, reply: FastifyReply) => void {
  const duration = new Histogram({
    name: "castnet_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by route pattern, method and status.",
    labelNames: ["route", "method", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return (request, reply) =>
    duration.observe(
      { route: request.routeOptions.url ?? "unmatched", method: request.method, status: reply.statusCode },
      reply.elapsedTime / 1000,
    );
}

/**
 * GET /metrics in the Prometheus text format. It tells how busy the part is and how it fails, which
 * is the operator's business: it is an operator read (docs/security.md), open to loopback callers
 * without an admin token and to the token's holders with one, never to another site's page.
 */
const metricsSchema = {
  summary: "Prometheus metrics",
  description: "An operator read (docs/operations.md): the part's metrics in Prometheus's text format.",
  tags: ["Service"],
  response: {
    200: {
      description: "Prometheus text exposition",
      content: { "text/plain": { schema: { type: "string" } } },
    },
  },
};

export function serveMetrics(
  app: FastifyInstance,
  registry: Registry,
  guard: onRequestAsyncHookHandler,
): void {
  app.get("/metrics", { onRequest: guard, schema: metricsSchema }, async (_request, reply) => {
    const text = (await processMetrics().metrics()) + (await registry.metrics());
    return reply.type(registry.contentType).send(text);
  });
}

/**
 * GET /_ready: whether the part can do its work now (its database answers with every migration
 * applied, its followers have caught up), for load balancers and orchestrators, beside the static
 * GET /_health that says only that the process serves HTTP.
 */
import type { FastifyInstance } from "fastify";

/** One condition of readiness: resolves to why the part is not ready, or undefined when it is. */
export type ReadinessCheck = () => Promise<string | undefined>;

const answer = {
  type: "object",
  required: ["status"],
  properties: {
    status: { type: "string", enum: ["ready", "not ready"] },
    reasons: { type: "array", items: { type: "string" } },
  },
  additionalProperties: false,
} as const;

/**
 * Runs every check by name ("database", "chain follower", ...). The route is public, so a check
 * that throws is reported by its name only and its error goes to the log.
 */
export function serveReadiness(app: FastifyInstance, checks: Readonly<Record<string, ReadinessCheck>>): void {
  app.get(
    "/_ready",
    {
      schema: {
        summary: "Readiness",
        description:
          "Whether the part can do its work now: its database answers with every migration applied and its followers have caught up; 503 with the reasons otherwise.",
        tags: ["Service"],
        response: { 200: answer, 503: answer },
      },
    },
    async (request, reply) => {
      const verdicts = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            const reason = await check();
            return reason === undefined ? undefined : `${name}: ${reason}`;
          } catch (error) {
            request.log.warn({ err: error, check: name }, "readiness check failed");
            return `${name}: does not answer`;
          }
        }),
      );
      const reasons = verdicts.filter((reason) => reason !== undefined);
      if (reasons.length > 0) return reply.code(503).send({ status: "not ready", reasons });
      return { status: "ready" };
    },
  );
}

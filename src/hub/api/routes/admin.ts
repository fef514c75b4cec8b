/**
 * Operator routes (the operator-write rule: loopback only without an admin token, the token as a
 * Bearer credential with one): run the hourly housekeeping now, or catch up with the chain and
 * the registry now, instead of waiting for the next block or transfer notice.
 */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import { operatorGuard } from "../../../http/index.js";
import { hubErrors } from "../../errors.js";

const empty = { type: "object", additionalProperties: false, properties: {} } as const;

export const adminRoutes: FastifyPluginAsync<HubRoutesOptions> = async (app, { service, adminToken }) => {
  const onRequest = operatorGuard(adminToken, hubErrors);

  app.post(
    "/v1/admin/housekeeping",
    {
      onRequest,
      schema: {
        summary: "Run housekeeping now",
        description:
          "Prunes events older than 3 days (SPEC Events 4, SPEC Limits) and messages over storage limits without waiting for the schedule.",
        tags: ["Admin"],
        response: {
          200: {
            type: "object",
            required: ["prunedMessages", "prunedEvents"],
            properties: { prunedMessages: { type: "integer" }, prunedEvents: { type: "integer" } },
          },
        },
      },
    },
    async () => ({
      prunedMessages: await service.pruneMessages(),
      prunedEvents: await service.pruneEvents(),
    }),
  );

  app.post(
    "/v1/admin/sync",
    {
      onRequest,
      schema: {
        summary: "Sync with the chain and registry now",
        description:
          "Follows the on-chain events (SPEC Events 5) and name transfers without waiting for the next poll.",
        tags: ["Admin"],
        response: { 200: empty },
      },
    },
    async () => {
      await Promise.all([service.syncChain(), service.syncNames()]);
      return {};
    },
  );
};

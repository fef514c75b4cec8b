/** Every HTTP route of the hub, as one Fastify plugin whose options every route plugin shares. */
import type { FastifyPluginAsync } from "fastify";
import { activityRoutes } from "./activity.js";
import { addressRoutes } from "./addresses.js";
import { adminRoutes } from "./admin.js";
import { onChainEventRoutes } from "./chain.js";
import { eventRoutes } from "./events.js";
import { infoRoutes } from "./info.js";
import { messageRoutes } from "./messages.js";
import type { HubRoutesOptions } from "./options.js";
import { proofRoutes } from "./proofs.js";
import { signerRoutes } from "./signers.js";
import { streamRoutes } from "./stream.js";
import { submitRoutes } from "./submit.js";

export type { HubRoutesOptions } from "./options.js";

export const hubRoutes: FastifyPluginAsync<HubRoutesOptions> = async (app, options) => {
  for (const routes of [
    infoRoutes,
    activityRoutes,
    messageRoutes,
    onChainEventRoutes,
    signerRoutes,
    addressRoutes,
    proofRoutes,
    eventRoutes,
    streamRoutes,
    submitRoutes,
    adminRoutes,
  ]) {
    await app.register(routes, options);
  }
};

/** Every HTTP route of the client API, as one Fastify plugin whose options every route plugin shares. */
import type { FastifyPluginAsync } from "fastify";
import { actionRoutes } from "./actions.js";
import { userBlockRoutes } from "./blocks.js";
import { channelRoutes } from "./channels.js";
import { keyRequestRoutes } from "./keyRequests.js";
import type { ClientApiRoutesOptions } from "./options.js";
import { powerBadgeRoutes } from "./powerBadges.js";
import { signInRoutes } from "./signIn.js";
import { quickAuthRoutes } from "./quickAuth.js";
import { sponsorRoutes } from "./sponsors.js";

export type { ClientApiRoutesOptions } from "./options.js";

export const clientApiRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (app, options) => {
  for (const routes of [
    channelRoutes,
    powerBadgeRoutes,
    actionRoutes,
    userBlockRoutes,
    keyRequestRoutes,
    signInRoutes,
    sponsorRoutes,
    quickAuthRoutes,
  ]) {
    await app.register(routes, options);
  }
};

/**
 * The devchain's HTTP interface (docs/devchain.md): reads for anyone, writes for the operator. One
 * plugin per domain, all registered with the same options.
 */
import type { FastifyPluginAsync } from "fastify";
import { accountRoutes } from "./accounts.js";
import { chainBlockRoutes } from "./blocks.js";
import { idRegistryRoutes } from "./idRegistry.js";
import { keyRegistryRoutes } from "./keyRegistry.js";
import type { DevchainRoutesOptions } from "./schemas.js";
import { storageRegistryRoutes } from "./storageRegistry.js";

export type { DevchainRoutesOptions } from "./schemas.js";

export const devchainRoutes: FastifyPluginAsync<DevchainRoutesOptions> = async (app, options) => {
  for (const routes of [
    idRegistryRoutes,
    accountRoutes,
    keyRegistryRoutes,
    storageRegistryRoutes,
    chainBlockRoutes,
  ]) {
    await app.register(routes, options);
  }
};

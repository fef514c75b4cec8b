/**
 * The devchain's HTTP interface (docs/devchain.md): reads for anyone, writes for the operator. One
 * plugin per domain, all registered with the same options.
 */
import type { FastifyPluginAsync } from "fastify";
import { accountRoutes } from "./accounts.js";
import { blockRoutes } from "./blocks.js";
import { idRegistryRoutes } from "./idRegistry.js";
import { keyRegistryRoutes } from "./keyRegistry.js";
import type { ChainRoutesOptions } from "./schemas.js";
import { storageRegistryRoutes } from "./storageRegistry.js";

export type { ChainRoutesOptions } from "./schemas.js";

export const chainRoutes: FastifyPluginAsync<ChainRoutesOptions> = async (app, options) => {
  for (const routes of [
    idRegistryRoutes,
    accountRoutes,
    keyRegistryRoutes,
    storageRegistryRoutes,
    blockRoutes,
  ]) {
    await app.register(routes, options);
  }
};

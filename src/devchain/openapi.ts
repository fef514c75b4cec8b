/** The devchain's OpenAPI document: what it is, its operation groups and its error body. */
import type { ApiDescription } from "../http/index.js";
import { onChainEventJsonSchema } from "../protocol/json/eventSchema.js";
import { devchainErrorSchema } from "./errors.js";
import { jsonRpcErrorResponseSchema } from "./rpc/index.js";

export const devchainOpenApi: ApiDescription = {
  title: "castnet devchain",
  description:
    "A local model of the id, key and storage registries, mined into blocks, with the on-chain events " +
    "the hub follows (SPEC C. On-chain event). Writes stand for the contracts' transactions.",
  tags: [
    {
      name: "Accounts",
      description: "Development accounts: a fid with custody, storage and a signer in one call.",
    },
    { name: "Blocks", description: "Blocks, mining and the event log the hub follows." },
    { name: "Id registry", description: "Fids, their custody and recovery addresses." },
    {
      name: "JSON-RPC",
      description: "Ethereum JSON-RPC 2.0, as a node serves it to wallets, scripts and chain followers.",
    },
    { name: "Key registry", description: "Signer keys of fids (SPEC Authentication 3)." },
    { name: "Storage registry", description: "Storage units rented by fids." },
  ],
  schemas: [onChainEventJsonSchema(), devchainErrorSchema, jsonRpcErrorResponseSchema],
  errorSchema: devchainErrorSchema.$id,
  refusals: {
    404: "No such fid, address, key or transaction.",
    409: "The contracts would revert: the custody address, key or state is taken or gone.",
  },
};

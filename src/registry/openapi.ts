/** The registry's OpenAPI document: what it is, its operation groups and its error bodies (SPEC A). */
import type { ApiDescription } from "../http/index.js";
import { ccipErrorSchema, registryErrorSchema } from "./errors.js";

export const registryOpenApi: ApiDescription = {
  title: "castnet name registry",
  description:
    "The name registry: every name change is a transfer between fids, signed by the fid's custody " +
    "address and countersigned by the registry; the CCIP-read gateway serves names to L1 resolvers. (SPEC A)",
  tags: [
    { name: "Transfers", description: "The history of names and their owners (SPEC A. Transfer)." },
    { name: "Registry", description: "The registry's own signer and clock." },
    { name: "CCIP gateway", description: "EIP-3668 offchain lookups of names, signed by the registry." },
  ],
  schemas: [registryErrorSchema, ccipErrorSchema],
  errorSchema: registryErrorSchema.$id,
  refusals: {
    404: "No such name, fid or transfer.",
    429: "Too many requests from this address; Retry-After says when to try again.",
  },
};

import type { FastifyError, FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../http/routeTypes.js";
import type { Hex } from "viem";
import { clientAddressKey } from "../http/index.js";
import { answerGatewayCall } from "./ccip.js";
import { ccipErrorSchema, RegistryError } from "./errors.js";
import type { RateLimiter } from "../http/index.js";
import type { RegistryService } from "./service.js";

const address = { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" } as const;
const bytes = { type: "string", pattern: "^0x([0-9a-fA-F]{2})*$" } as const;

const answer = {
  200: {
    type: "object",
    additionalProperties: false,
    required: ["data"],
    properties: { data: { type: "string" } },
  },
} as const;

export interface CcipRoutesOptions {
  service: RegistryService;
  /** Name lookups per client address; undefined when the limit is off. */
  lookups: RateLimiter | undefined;
}

/**
 * The CCIP-read gateway, mounted at /ccip: the EIP-3668 GET form `/{sender}/{callData}.json` and the
 * POST form `{sender, data}`. It answers in its library's shape, `{"data"}` or `{"message"}`, so it
 * keeps an error handler of its own, which renders the registry's errors in that shape. `sender` is
 * not checked against the resolver, as in the reference.
 */
export const ccipRoutes: FastifyPluginAsync<CcipRoutesOptions> = async (fastify, { service, lookups }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  /**
   * Each name found costs a fresh signature, and one multicall may look up many names, so the limit
   * counts names looked up rather than requests.
   */
  const resolverFor = (ip: string) => {
    const client = clientAddressKey(ip);
    return (name: string) => {
      const wait = lookups?.waitSeconds(client) ?? 0;
      if (wait > 0) {
        throw new RegistryError(
          "rate_limited",
          `too many name lookups from this address; try again in ${wait} s`,
          wait,
        );
      }
      lookups?.take(client);
      return service.resolveName(name);
    };
  };

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RegistryError) {
      if (error.retryAfter !== undefined) void reply.header("retry-after", String(error.retryAfter));
      return reply.code(error.statusCode).send({ message: error.detail ?? error.code });
    }
    const status = error.statusCode ?? 500;
    if (error.validation || (status >= 400 && status < 500)) {
      return reply.code(error.validation ? 400 : status).send({ message: "Invalid request format" });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ message: "Internal server error" });
  });

  // One wildcard, not two parameters: calldata is far longer than the router's parameter limit.
  app.get(
    "/*",
    {
      config: { errorSchema: ccipErrorSchema.$id },
      schema: {
        summary: "Resolve a name (EIP-3668 GET)",
        description:
          "The CCIP-read gateway: `/{sender}/{callData}.json`, answered with the data signed by the registry.",
        tags: ["CCIP gateway"],
        params: {
          type: "object",
          required: ["*"],
          properties: { "*": { type: "string", pattern: "^0x[0-9a-fA-F]{40}/0x([0-9a-fA-F]{2})*\\.json$" } },
        },
        response: answer,
      },
    },
    async (request) => {
      const callData = request.params["*"].slice(43, -".json".length) as Hex;
      return { data: await answerGatewayCall(callData, resolverFor(request.ip)) };
    },
  );

  app.post(
    "/",
    {
      config: { errorSchema: ccipErrorSchema.$id },
      schema: {
        summary: "Resolve a name (EIP-3668 POST)",
        description: "The CCIP-read gateway's POST form, `{sender, data}`.",
        tags: ["CCIP gateway"],
        body: {
          type: "object",
          additionalProperties: false,
          required: ["sender", "data"],
          properties: { sender: address, data: bytes },
        },
        response: answer,
      },
    },
    async (request) => ({ data: await answerGatewayCall(request.body.data as Hex, resolverFor(request.ip)) }),
  );
};

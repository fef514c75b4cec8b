import type { FastifyError, FastifyPluginAsync } from "fastify";
import type { Hex } from "viem";
import { answerGatewayCall } from "./ccip.js";
import { CcipError } from "./errors.js";
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

/**
 * The CCIP-read gateway, mounted at /ccip: the EIP-3668 GET form `/{sender}/{callData}.json` and the
 * POST form `{sender, data}`. It answers in its library's shape, `{"data"}` or `{"message"}`, so it
 * keeps an error handler of its own. `sender` is not checked against the resolver, as in the reference.
 */
export const ccipRoutes: FastifyPluginAsync<{ service: RegistryService }> = async (app, { service }) => {
  const resolve = (name: string) => service.resolveName(name);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof CcipError) return reply.code(error.statusCode).send({ message: error.message });
    const status = error.statusCode ?? 500;
    if (error.validation || (status >= 400 && status < 500)) {
      return reply.code(error.validation ? 400 : status).send({ message: "Invalid request format" });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ message: "Internal server error" });
  });

  // One wildcard, not two parameters: calldata is far longer than the router's parameter limit.
  app.get<{ Params: { "*": string } }>(
    "/*",
    {
      schema: {
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
      return { data: await answerGatewayCall(callData, resolve) };
    },
  );

  app.post<{ Body: { sender: string; data: string } }>(
    "/",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          required: ["sender", "data"],
          properties: { sender: address, data: bytes },
        },
        response: answer,
      },
    },
    async (request) => ({ data: await answerGatewayCall(request.body.data as Hex, resolve) }),
  );
};

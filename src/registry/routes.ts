import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../http/routeTypes.js";
import type { SignedWriteLimiter } from "../http/index.js";
import { ALLOW_NUL } from "../http/validation.js";
import type { Hex } from "viem";
import { RegistryError } from "./errors.js";
import type { RegistryMetrics } from "./metrics.js";
import type { RegistryService } from "./service.js";
import type { TransferFilter } from "./store.js";

const count = { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const nameQuery = { type: "string", maxLength: 256, [ALLOW_NUL]: true } as const;

export const transferSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "timestamp", "username", "owner", "from", "to", "user_signature", "server_signature"],
  properties: {
    id: { type: "integer" },
    timestamp: { type: "integer" },
    username: { type: "string" },
    owner: { type: "string" },
    from: { type: "integer" },
    to: { type: "integer" },
    user_signature: { type: "string" },
    server_signature: { type: "string" },
  },
} as const;

const oneTransfer = {
  type: "object",
  additionalProperties: false,
  required: ["transfer"],
  properties: { transfer: transferSchema },
} as const;

/** What listFilter reads: GET /transfers' query, as its schema types it. */
interface ListQuery {
  from_id?: number;
  fromId?: number;
  from_ts?: number;
  name?: string;
  fname?: string;
  fid?: number;
}

/**
 * The reference's numeric filters treat 0 as "not given"; `fromId` and `fname` are aliases that
 * older and newer hubs send; zero-padded names match after their NULs are stripped.
 */
function listFilter(query: ListQuery): TransferFilter {
  const name = query.name || query.fname;
  return {
    afterId: query.fromId || query.from_id || undefined,
    afterTimestamp: query.from_ts || undefined,
    name: name ? name.replaceAll("\0", "") : undefined,
    fid: query.fid || undefined,
  };
}

export interface RegistryRoutesOptions {
  service: RegistryService;
  /** Undefined when rate limiting is off. */
  limits: SignedWriteLimiter | undefined;
  metrics: RegistryMetrics;
}

export const registryRoutes: FastifyPluginAsync<RegistryRoutesOptions> = async (
  fastify,
  { service, limits, metrics },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/transfers",
    {
      schema: {
        summary: "List transfers",
        description: "The registry's history: every name transfer in id order, filtered by name or fid.",
        "x-spec": "SPEC A. Registry, SPEC A. Transfer, SPEC Events 6",
        tags: ["Transfers"],
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            from_id: count,
            fromId: count,
            from_ts: count,
            name: nameQuery,
            fname: nameQuery,
            fid: count,
          },
        },
        response: {
          200: {
            type: "object",
            additionalProperties: false,
            required: ["transfers"],
            properties: { transfers: { type: "array", items: transferSchema } },
          },
        },
      },
    },
    async (request) => ({ transfers: await service.listTransfers(listFilter(request.query)) }),
  );

  app.get(
    "/transfers/current",
    {
      schema: {
        summary: "Current transfer of a name or fid",
        description: "The latest transfer of a name or to a fid, which says who holds it now.",
        "x-spec": "SPEC A. Registry",
        tags: ["Transfers"],
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { fid: count, name: nameQuery, fname: nameQuery },
        },
        response: { 200: oneTransfer },
      },
    },
    async (request) => {
      const { fid, name, fname } = request.query;
      return { transfer: await service.currentTransfer({ fid, name: name || fname || undefined }) };
    },
  );

  app.post(
    "/transfers",
    {
      schema: {
        summary: "Transfer a name",
        description:
          "Registers a name (from 0 to a fid), releases it (to 0) or moves it between fids, signed by the custody address of `fid`, which must be `from` or `to`.",
        "x-spec": "SPEC A. Registry, SPEC rule 1, SPEC Authentication 1, SPEC Errors 2",
        tags: ["Transfers"],
        body: {
          type: "object",
          additionalProperties: false,
          required: ["name", "from", "to", "owner", "timestamp", "signature"],
          properties: {
            name: { type: "string", maxLength: 1024 },
            from: count,
            to: count,
            fid: count,
            owner: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" },
            timestamp: count,
            signature: { type: "string", pattern: "^0x([0-9a-fA-F]{2})*$", maxLength: 2050 },
          },
        },
        response: { 200: oneTransfer },
      },
    },
    async (request) => {
      const body = request.body;
      try {
        const signed = limits?.admit(request.ip, body.fid || (body.from === 0 ? body.to : body.from));
        const transfer = await service.submitTransfer({ ...body, signature: body.signature as Hex }, signed);
        metrics.granted();
        return { transfer };
      } catch (error) {
        if (error instanceof RegistryError) metrics.refused(error.code);
        throw error;
      }
    },
  );

  app.get(
    "/signer",
    {
      schema: {
        summary: "The registry's signing address",
        description: "The address whose signature every transfer carries.",
        "x-spec": "SPEC A. Registry",
        tags: ["Registry"],
        response: {
          200: {
            type: "object",
            additionalProperties: false,
            required: ["signer"],
            properties: { signer: { type: "string" } },
          },
        },
      },
    },
    async () => ({ signer: await service.signer() }),
  );

  app.get(
    "/current-time",
    {
      schema: {
        summary: "The registry's clock",
        description: "The time transfers are checked against, in Unix seconds.",
        "x-spec": "SPEC A. Registry",
        tags: ["Registry"],
        response: {
          200: {
            type: "object",
            additionalProperties: false,
            required: ["currentTime"],
            properties: { currentTime: { type: "integer" } },
          },
        },
      },
    },
    async () => ({ currentTime: service.nowSeconds() }),
  );
};

/** The devchain's HTTP interface (docs/devchain.md): reads for anyone, writes for the operator. */
import type { FastifyPluginAsync } from "fastify";
import { getAddress } from "viem";
import { operatorGuard } from "../http/index.js";
import { renderOnChainEvent } from "../protocol/json/index.js";
import { type Hex, MAX_EVENTS_PAGE } from "./client.js";
import { ChainError, chainErrors } from "./errors.js";
import { type ChainService, MAX_UNITS_PER_RENT, normaliseAddress } from "./service.js";

export interface ChainRoutesOptions {
  chain: ChainService;
  adminToken?: string;
}

const hexString = (maxLength: number) => ({ type: "string", maxLength }) as const;
const address = hexString(42);
const uint32 = { type: "integer", minimum: 0, maximum: 0xffffffff } as const;
// A string, not an integer: coercion would read "0x1" or "1e3" as numbers.
const fidParams = {
  type: "object",
  additionalProperties: false,
  required: ["fid"],
  properties: { fid: { type: "string", maxLength: 32 } },
} as const;

function parseFid(value: string): number {
  const fid = /^[1-9][0-9]*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(fid)) {
    throw new ChainError("bad_request", `fid must be a positive whole number, not "${value.slice(0, 32)}"`);
  }
  return fid;
}
const waitQuery = {
  type: "object",
  additionalProperties: false,
  properties: { wait: { type: "boolean", default: true } },
} as const;

const errorBody = {
  type: "object",
  properties: { error: { type: "string" }, message: { type: "string" } },
} as const;
const transactionStatus = {
  type: "object",
  properties: {
    transactionHash: { type: "string" },
    status: { type: "string" },
    blockNumber: { type: "integer" },
    fid: { type: "integer" },
  },
} as const;
const enumJson = { type: ["string", "integer"] } as const;
const onChainEvent = {
  type: "object",
  properties: {
    type: enumJson,
    chainId: { type: "integer" },
    blockNumber: { type: "integer" },
    blockHash: { type: "string" },
    blockTimestamp: { type: "integer" },
    transactionHash: { type: "string" },
    logIndex: { type: "integer" },
    fid: { type: "integer" },
    signerEventBody: {
      type: "object",
      properties: {
        key: { type: "string" },
        keyType: { type: "integer" },
        eventType: enumJson,
        metadata: { type: "string" },
        metadataType: { type: "integer" },
      },
    },
    idRegisterEventBody: {
      type: "object",
      properties: {
        to: { type: "string" },
        eventType: enumJson,
        from: { type: "string" },
        recoveryAddress: { type: "string" },
      },
    },
    storageRentEventBody: {
      type: "object",
      properties: { payer: { type: "string" }, units: { type: "integer" }, expiry: { type: "integer" } },
    },
    txIndex: { type: "integer" },
    version: { type: "integer" },
  },
} as const;
const writeResponses = { 200: onChainEvent, 202: transactionStatus, "4xx": errorBody } as const;

const HASH = /^0x[0-9a-fA-F]{64}$/;

export const chainRoutes: FastifyPluginAsync<ChainRoutesOptions> = async (app, { chain, adminToken }) => {
  const operator = operatorGuard(adminToken, chainErrors);

  app.post<{ Body: { custody: Hex; recovery?: Hex }; Querystring: { wait: boolean } }>(
    "/v1/fids",
    {
      onRequest: operator,
      schema: {
        querystring: waitQuery,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["custody"],
          properties: { custody: address, recovery: address },
        },
        response: {
          200: {
            type: "object",
            properties: {
              fid: { type: "integer" },
              custody: { type: "string" },
              recovery: { type: "string" },
            },
          },
          202: transactionStatus,
          "4xx": errorBody,
        },
      },
    },
    async (request, reply) => {
      if (request.query.wait) return chain.register(request.body);
      return reply.code(202).send(await chain.submitRegister(request.body));
    },
  );

  app.get<{ Params: { fid: string } }>(
    "/v1/fids/:fid",
    {
      schema: {
        params: fidParams,
        response: {
          200: {
            type: "object",
            properties: {
              fid: { type: "integer" },
              custody: { type: "string" },
              recovery: { type: "string" },
              signers: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    key: { type: "string" },
                    keyType: { type: "integer" },
                    metadataType: { type: "integer" },
                    metadata: { type: "string" },
                  },
                },
              },
              storageUnits: { type: "integer" },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const fid = parseFid(request.params.fid);
      const account = await chain.getAccount(fid);
      if (!account) throw new ChainError("unknown_fid", `fid ${fid} is not registered`);
      return account;
    },
  );

  app.post<{
    Params: { fid: string };
    Querystring: { wait: boolean };
    Body: { key: Hex; keyType?: number; metadataType?: number; metadata?: Hex };
  }>(
    "/v1/fids/:fid/signers",
    {
      onRequest: operator,
      schema: {
        params: fidParams,
        querystring: waitQuery,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["key"],
          properties: {
            key: hexString(66),
            keyType: uint32,
            metadataType: { type: "integer", minimum: 0, maximum: 255 },
            metadata: hexString(16_384),
          },
        },
        response: writeResponses,
      },
    },
    async (request, reply) => {
      const add = { fid: parseFid(request.params.fid), ...request.body };
      if (request.query.wait) return renderOnChainEvent(await chain.addKey(add));
      return reply.code(202).send(await chain.submitKeyAdd(add));
    },
  );

  app.delete<{ Params: { fid: string; key: string }; Querystring: { wait: boolean } }>(
    "/v1/fids/:fid/signers/:key",
    {
      onRequest: operator,
      schema: {
        params: {
          type: "object",
          additionalProperties: false,
          required: ["fid", "key"],
          properties: { ...fidParams.properties, key: hexString(66) },
        },
        querystring: waitQuery,
        response: writeResponses,
      },
    },
    async (request, reply) => {
      const fid = parseFid(request.params.fid);
      const key = request.params.key;
      if (request.query.wait) return renderOnChainEvent(await chain.removeKey(fid, key as Hex));
      return reply.code(202).send(await chain.submitKeyRemove(fid, key as Hex));
    },
  );

  app.post<{ Params: { fid: string }; Querystring: { wait: boolean }; Body: { units: number } }>(
    "/v1/fids/:fid/storage",
    {
      onRequest: operator,
      schema: {
        params: fidParams,
        querystring: waitQuery,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["units"],
          properties: { units: { type: "integer", minimum: 1, maximum: MAX_UNITS_PER_RENT } },
        },
        response: writeResponses,
      },
    },
    async (request, reply) => {
      const fid = parseFid(request.params.fid);
      if (request.query.wait) return renderOnChainEvent(await chain.rentStorage(fid, request.body.units));
      return reply.code(202).send(await chain.submitStorageRent(fid, request.body.units));
    },
  );

  app.get<{ Params: { address: string } }>(
    "/v1/addresses/:address",
    {
      schema: {
        params: {
          type: "object",
          additionalProperties: false,
          required: ["address"],
          properties: { address },
        },
        response: {
          200: { type: "object", properties: { address: { type: "string" }, fid: { type: "integer" } } },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const normalised = normaliseAddress(request.params.address, "address");
      const fid = await chain.fidOf(normalised as Hex);
      if (fid === undefined) {
        throw new ChainError(
          "unknown_address",
          `${getAddress(normalised)} is not the custody address of any fid`,
        );
      }
      return { address: getAddress(normalised), fid };
    },
  );

  app.get<{ Querystring: { from_block: number; limit: number } }>(
    "/v1/events",
    {
      schema: {
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            from_block: { ...uint32, default: 0 },
            limit: { type: "integer", minimum: 1, maximum: MAX_EVENTS_PAGE, default: MAX_EVENTS_PAGE },
          },
        },
        response: {
          200: {
            type: "object",
            properties: {
              events: { type: "array", items: onChainEvent },
              nextFromBlock: { type: "integer" },
              hasMore: { type: "boolean" },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const page = await chain.eventsPage(request.query.from_block, request.query.limit);
      return { ...page, events: page.events.map(renderOnChainEvent) };
    },
  );

  app.get<{ Params: { hash: string } }>(
    "/v1/transactions/:hash",
    {
      schema: {
        params: {
          type: "object",
          additionalProperties: false,
          required: ["hash"],
          properties: { hash: hexString(66) },
        },
        response: { 200: transactionStatus, "4xx": errorBody },
      },
    },
    async (request) => {
      const { hash } = request.params;
      if (!HASH.test(hash)) {
        throw new ChainError("bad_request", "a transaction hash is 0x followed by 64 hex digits");
      }
      const status = await chain.getTransaction(hash as Hex);
      if (!status) throw new ChainError("unknown_transaction", `transaction ${hash} is not known`);
      return status;
    },
  );

  app.get(
    "/v1/blocks/latest",
    {
      schema: {
        response: {
          200: {
            type: "object",
            properties: {
              number: { type: "integer" },
              hash: { type: "string" },
              timestamp: { type: "integer" },
            },
          },
        },
      },
    },
    async () => chain.latestBlock(),
  );
};

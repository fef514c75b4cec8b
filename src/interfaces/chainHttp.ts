/**
 * The chain interfaces over the devchain's HTTP interface, for a part started alone with --chain-url
 * and for `castnet account create`. Refusals come back as the same DevchainError the in-process service
 * throws; an unreachable or garbled devchain is a DevchainError "chain_unavailable".
 */
import type { OnChainEvent } from "../protocol/generated/onchain_event.js";
import { isHex } from "../protocol/hex.js";
import { parseOnChainEvent } from "../protocol/json/parseOnChainEvent.js";
import { BlockWatcher } from "./blockWatcher.js";
import {
  type Account,
  type ChainClient,
  type ChainWriter,
  type KeyAddRequest,
  type OnChainEventSource,
  type RegisterRequest,
  type RegisteredFid,
  type TransactionStatus,
  eventsQuery,
} from "./chain.js";
import { DevchainError, isDevchainErrorCode } from "./chainErrors.js";

export interface HttpChainClientOptions {
  /** Sent as a Bearer token with operator writes. */
  adminToken?: string;
}

export type HttpChainClient = ChainClient & OnChainEventSource & ChainWriter;

const READ_TIMEOUT_MS = 10_000;
// A waiting write returns when its block is mined; block times are seconds, so this is generous.
const WRITE_TIMEOUT_MS = 120_000;
const BLOCK_POLL_MS = 500;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function garbled(path: string): DevchainError {
  return new DevchainError("chain_unavailable", `the devchain answered ${path} with an unexpected body`);
}

function toTransactionStatus(body: unknown, path: string): TransactionStatus {
  if (
    !isObject(body) ||
    !isHex(body.transactionHash) ||
    (body.status !== "pending" && body.status !== "mined")
  ) {
    throw garbled(path);
  }
  const status: TransactionStatus = { transactionHash: body.transactionHash, status: body.status };
  if (Number.isSafeInteger(body.blockNumber)) status.blockNumber = body.blockNumber as number;
  return status;
}

function toAccount(body: unknown, path: string): Account {
  if (
    !isObject(body) ||
    !Number.isSafeInteger(body.fid) ||
    !isHex(body.custody) ||
    !isHex(body.recovery) ||
    !Array.isArray(body.signers) ||
    !Number.isSafeInteger(body.storageUnits)
  ) {
    throw garbled(path);
  }
  const signers = body.signers.map((signer: unknown) => {
    if (
      !isObject(signer) ||
      !isHex(signer.key) ||
      !Number.isSafeInteger(signer.keyType) ||
      !Number.isSafeInteger(signer.metadataType) ||
      !isHex(signer.metadata)
    ) {
      throw garbled(path);
    }
    return {
      key: signer.key,
      keyType: signer.keyType as number,
      metadataType: signer.metadataType as number,
      metadata: signer.metadata,
    };
  });
  return {
    fid: body.fid as number,
    custody: body.custody,
    recovery: body.recovery,
    signers,
    storageUnits: body.storageUnits as number,
  };
}

function toEvent(body: unknown, path: string): OnChainEvent {
  try {
    return parseOnChainEvent(body);
  } catch {
    throw garbled(path);
  }
}

export function httpChainClient(baseUrl: string, options: HttpChainClientOptions = {}): HttpChainClient {
  const base = baseUrl.replace(/\/+$/, "");

  /** The JSON body of a 2xx answer; undefined for a 404 when `missingIsUndefined`. */
  async function call(
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown,
    missingIsUndefined = false,
  ): Promise<unknown> {
    const write = method !== "GET";
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (write && options.adminToken) headers.authorization = `Bearer ${options.adminToken}`;
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(write ? WRITE_TIMEOUT_MS : READ_TIMEOUT_MS),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DevchainError("chain_unavailable", `the devchain at ${base} is unreachable: ${reason}`);
    }
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch {
      throw garbled(path);
    }
    if (response.ok) return parsed;
    if (response.status === 404 && missingIsUndefined) return undefined;
    if (isObject(parsed) && isDevchainErrorCode(parsed.error) && typeof parsed.message === "string") {
      throw new DevchainError(parsed.error, parsed.message);
    }
    throw new DevchainError("chain_unavailable", `the devchain answered ${response.status} for ${path}`);
  }

  const getAccount = async (fid: number): Promise<Account | undefined> => {
    if (!Number.isSafeInteger(fid) || fid < 1) return undefined;
    const path = `/v1/fids/${fid}`;
    const body = await call("GET", path, undefined, true);
    return body === undefined ? undefined : toAccount(body, path);
  };

  const latestBlockNumber = async (): Promise<number> => {
    const body = await call("GET", "/v1/blocks/latest");
    if (!isObject(body) || !Number.isSafeInteger(body.number)) throw garbled("/v1/blocks/latest");
    return body.number as number;
  };

  const watcher = new BlockWatcher(latestBlockNumber, BLOCK_POLL_MS);

  return {
    getAccount,

    async custodyOf(fid) {
      return (await getAccount(fid))?.custody;
    },

    async fidOf(custody) {
      if (typeof custody !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(custody)) return undefined;
      // Lower case: the devchain refuses mixed case with a bad checksum, but custody lookups should not.
      const path = `/v1/addresses/${custody.toLowerCase()}`;
      const body = await call("GET", path, undefined, true);
      if (body === undefined) return undefined;
      if (!isObject(body) || !Number.isSafeInteger(body.fid)) throw garbled(path);
      return body.fid as number;
    },

    async submitKeyAdd(request: KeyAddRequest) {
      const { fid, ...add } = request;
      const path = `/v1/fids/${fid}/signers?wait=false`;
      return toTransactionStatus(await call("POST", path, add), path);
    },

    async getTransaction(hash) {
      const path = `/v1/transactions/${encodeURIComponent(hash)}`;
      const body = await call("GET", path, undefined, true);
      return body === undefined ? undefined : toTransactionStatus(body, path);
    },

    async eventsFromBlock(fromBlock, limit) {
      const query = eventsQuery(fromBlock, limit);
      const path = `/v1/events?from_block=${query.fromBlock}&limit=${query.limit}`;
      const body = await call("GET", path);
      if (!isObject(body) || !Array.isArray(body.events)) throw garbled(path);
      return body.events.map((event: unknown) => toEvent(event, path));
    },

    latestBlockNumber,

    onBlock: (listener) => watcher.onBlock(listener),

    async register(request: RegisterRequest): Promise<RegisteredFid> {
      const body = await call("POST", "/v1/fids", request);
      if (
        !isObject(body) ||
        !Number.isSafeInteger(body.fid) ||
        !isHex(body.custody) ||
        !isHex(body.recovery)
      ) {
        throw garbled("/v1/fids");
      }
      return { fid: body.fid as number, custody: body.custody, recovery: body.recovery };
    },

    async addKey(request) {
      const { fid, ...add } = request;
      const path = `/v1/fids/${fid}/signers`;
      return toEvent(await call("POST", path, add), path);
    },

    async removeKey(fid, key) {
      const path = `/v1/fids/${fid}/signers/${encodeURIComponent(key)}`;
      return toEvent(await call("DELETE", path), path);
    },

    async rentStorage(fid, units) {
      const path = `/v1/fids/${fid}/storage`;
      return toEvent(await call("POST", path, { units }), path);
    },
  };
}

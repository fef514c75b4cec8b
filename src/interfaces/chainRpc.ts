/**
 * The hub's on-chain events read from any Ethereum JSON-RPC node, as the reference hubs read them
 * (docs/reference/contracts.md §10, §13): the three registries' logs by eth_getLogs over bounded
 * block ranges, each event's block time from eth_getBlockByHash, and only blocks with enough
 * confirmations, so that a reorganisation never reaches the hub. Given an OP-mainnet node and
 * `firstBlock: OP_MAINNET_FIRST_BLOCK` it follows the real registries; given the devchain's
 * JSON-RPC, the local ones.
 */
import {
  BaseError,
  type Hex,
  HttpRequestError,
  type Log,
  type PublicClient,
  type RpcLog,
  TimeoutError,
  createPublicClient,
  formatLog,
  hexToNumber,
  http,
  isAddress,
  numberToHex,
} from "viem";
import type { OnChainEvent } from "../protocol/generated/onchain_event.js";
import { OP_MAINNET_CHAIN_ID } from "../protocol/contracts.js";
import { BlockWatcher } from "./blockWatcher.js";
import { type OnChainEventSource, eventsQuery } from "./chain.js";
import { DevchainError } from "./chainErrors.js";
import {
  type LogBlock,
  OP_MAINNET_REGISTRIES,
  REGISTRY_EVENT_TOPICS,
  type RegistryAddresses,
  isRegistryEventLog,
  onChainEventOfLog,
} from "./chainLogs.js";

export interface JsonRpcEventSourceOptions {
  /** The node's JSON-RPC endpoint (http or https). */
  url: string;
  /** Where the registries are; by default their OP-mainnet addresses, which the devchain uses too. */
  addresses?: Partial<RegistryAddresses>;
  /**
   * No block before this one is read. Default 0; the registries on OP mainnet begin at
   * OP_MAINNET_FIRST_BLOCK (src/protocol/registryAddresses.ts).
   */
  firstBlock?: number;
  /**
   * Blocks a block needs on top of it to be final: events of the newest `confirmations` blocks wait.
   * Default 2, as the reference hub; 0 follows the head (a devchain never reorganises).
   */
  confirmations?: number;
  /**
   * Blocks per eth_getLogs request, both ends included; default 1,000, which every public node
   * of contracts.md §13 serves and both reference hubs ask for. A node that refuses a range as too
   * large or too full is asked for half as many blocks, down to one; the size grows back after a
   * run of successes.
   */
  blockRange?: number;
  /** How often eth_blockNumber is polled for new blocks while the hub listens; default 1 s. */
  pollMs?: number;
  /** The chain the node must be on, which the events carry; default 10 (OP mainnet). */
  chainId?: number;
}

const DEFAULT_CONFIRMATIONS = 2;
const DEFAULT_BLOCK_RANGE = 1_000;
const DEFAULT_POLL_MS = 1_000;
/** Successful eth_getLogs requests after which a shrunk range doubles again. */
const GROW_AFTER = 10;
/** Blocks whose times are fetched at once; a page of events spans up to its size in blocks. */
const BLOCK_FETCHES = 8;
/** Block times kept, by hash: enough for the pages of a catch-up and of ordinary following. */
const BLOCK_CACHE = 4_096;
/**
 * Error codes public nodes give an eth_getLogs range that is too large or matches too many logs
 * (contracts.md §13): EIP-1474's "limit exceeded", invalid params, invalid request, and QuickNode's.
 */
const RANGE_REFUSALS = new Set([-32005, -32602, -32600, -32614]);

function wholeNumber(value: number | undefined, fallback: number, name: string, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}`);
  return value;
}

function rpcCodeOf(error: unknown): number | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const coded = error.walk((e) => typeof (e as { code?: unknown }).code === "number");
  return (coded as { code?: number } | null)?.code;
}

function blockNumberOf(log: Log): number {
  return Number(log.blockNumber);
}

/** Logs in chain order: by block, then by position in the block. */
function inChainOrder(a: Log, b: Log): number {
  return blockNumberOf(a) - blockNumberOf(b) || a.logIndex! - b.logIndex!;
}

/**
 * The first events of `logs` (whole blocks, in chain order) up to `limit`, cut at a block
 * boundary; a single block with more comes whole.
 */
function wholeBlocks(logs: Log[], limit: number): Log[] {
  if (logs.length <= limit) return logs;
  const cut = blockNumberOf(logs[limit]!);
  const page = logs.slice(0, limit).filter((log) => blockNumberOf(log) < cut);
  return page.length > 0 ? page : logs.filter((log) => blockNumberOf(log) === cut);
}

class JsonRpcEventSource implements OnChainEventSource {
  readonly #url: string;
  readonly #client: PublicClient;
  readonly #registries: RegistryAddresses;
  readonly #firstBlock: number;
  readonly #confirmations: number;
  readonly #maxRange: number;
  readonly #chainId: number;
  readonly #watcher: BlockWatcher;
  #range: number;
  #successes = 0;
  #chainChecked: Promise<void> | undefined;
  readonly #blocks = new Map<Hex, LogBlock>();
  /**
   * Final blocks known to hold no registry event: a page that ends before the head, or an empty
   * scan, leaves the blocks it read past its last event here, so the next call does not read them again.
   */
  #empty: { from: number; through: number } | undefined;

  constructor(options: JsonRpcEventSourceOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new Error(`the chain's JSON-RPC URL ${options.url} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new Error(`the chain's JSON-RPC URL ${options.url} must be http or https`);
    this.#url = options.url;
    this.#registries = { ...OP_MAINNET_REGISTRIES, ...options.addresses };
    for (const [name, address] of Object.entries(this.#registries)) {
      if (!isAddress(address, { strict: false })) throw new Error(`${name} ${address} is not an address`);
    }
    this.#firstBlock = wholeNumber(options.firstBlock, 0, "firstBlock", 0);
    this.#confirmations = wholeNumber(options.confirmations, DEFAULT_CONFIRMATIONS, "confirmations", 0);
    this.#maxRange = wholeNumber(options.blockRange, DEFAULT_BLOCK_RANGE, "blockRange", 1);
    this.#range = this.#maxRange;
    this.#chainId = wholeNumber(options.chainId, OP_MAINNET_CHAIN_ID, "chainId", 1);
    this.#client = createPublicClient({ transport: http(options.url) });
    this.#watcher = new BlockWatcher(
      () => this.latestBlockNumber(),
      wholeNumber(options.pollMs, DEFAULT_POLL_MS, "pollMs", 1),
    );
  }

  /** The newest final block: the node's head less the confirmations. */
  async latestBlockNumber(): Promise<number> {
    await this.#checkChain();
    const head = await this.#call("eth_blockNumber", () =>
      this.#client.request({ method: "eth_blockNumber" }),
    );
    return Math.max(0, hexToNumber(head) - this.#confirmations);
  }

  onBlock(listener: (blockNumber: number) => void): () => void {
    return this.#watcher.onBlock(listener);
  }

  /**
   * Reads ranges of final blocks from `fromBlock` until it has `limit` events or reaches the final
   * head, so that an empty answer always means caught up, never a quiet stretch of the chain.
   */
  async eventsFromBlock(fromBlock: number, limit: number): Promise<OnChainEvent[]> {
    const query = eventsQuery(fromBlock, limit);
    const head = await this.latestBlockNumber();
    const start = Math.max(query.fromBlock, this.#firstBlock);
    const empty = this.#empty;
    let next =
      empty !== undefined && empty.from <= start && start <= empty.through ? empty.through + 1 : start;
    const found: Log[] = [];
    while (next <= head && found.length < query.limit) {
      const { logs, through } = await this.#logs(next, head);
      found.push(...logs);
      next = through + 1;
      if (found.length === 0) this.#empty = { from: start, through };
    }
    const page = wholeBlocks(found, query.limit);
    if (page.length > 0 && page.length === found.length) {
      const after = blockNumberOf(page[page.length - 1]!) + 1;
      if (after < next) this.#empty = { from: after, through: next - 1 };
    }
    return this.#events(page);
  }

  /**
   * The registry logs of blocks `from` to at most `head`, in chain order, with the last block read:
   * as many blocks as the node serves at once, up to the configured range.
   */
  async #logs(from: number, head: number): Promise<{ logs: Log[]; through: number }> {
    for (;;) {
      const through = Math.min(from + this.#range - 1, head);
      try {
        const raw = await this.#client.request(
          {
            method: "eth_getLogs",
            params: [
              {
                address: Object.values(this.#registries),
                topics: [REGISTRY_EVENT_TOPICS],
                fromBlock: numberToHex(from),
                toBlock: numberToHex(through),
              },
            ],
          },
          // A refused range is asked again smaller at once rather than retried as it was; other
          // failures end the call, and the hub's follower tries again a little later.
          { retryCount: 0 },
        );
        this.#grow();
        return { logs: this.#registryLogs(raw, from, through), through };
      } catch (error) {
        const span = through - from + 1;
        if (span > 1 && RANGE_REFUSALS.has(rpcCodeOf(error) ?? 0)) {
          this.#range = Math.floor(span / 2);
          this.#successes = 0;
          continue;
        }
        throw this.#failure("eth_getLogs", error);
      }
    }
  }

  #grow(): void {
    if (this.#range === this.#maxRange || ++this.#successes < GROW_AFTER) return;
    this.#range = Math.min(this.#range * 2, this.#maxRange);
    this.#successes = 0;
  }

  /** What a node answered, kept to mined logs of the registries' events within the range asked. */
  #registryLogs(raw: unknown, from: number, through: number): Log[] {
    if (!Array.isArray(raw))
      throw new DevchainError(
        "chain_unavailable",
        `the JSON-RPC node at ${this.#url} answered eth_getLogs with no list`,
      );
    return (raw as RpcLog[])
      .map((log) => formatLog(log))
      .filter(
        (log) =>
          !log.removed &&
          log.blockHash !== null &&
          log.transactionHash !== null &&
          log.transactionIndex !== null &&
          log.logIndex !== null &&
          log.blockNumber !== null &&
          blockNumberOf(log) >= from &&
          blockNumberOf(log) <= through &&
          isRegistryEventLog(log, this.#registries),
      )
      .sort(inChainOrder);
  }

  /** The logs' events, with the number and time of each log's block as the node reports the block. */
  async #events(logs: Log[]): Promise<OnChainEvent[]> {
    const hashes = [...new Set(logs.map((log) => log.blockHash!))];
    const blocks = new Map<Hex, LogBlock>();
    for (let i = 0; i < hashes.length; i += BLOCK_FETCHES) {
      for (const block of await Promise.all(hashes.slice(i, i + BLOCK_FETCHES).map((h) => this.#block(h))))
        blocks.set(block.hash, block);
    }
    return logs.flatMap((log) => {
      const block = blocks.get(log.blockHash!)!;
      if (block.number !== blockNumberOf(log)) {
        throw new DevchainError(
          "chain_unavailable",
          `the JSON-RPC node at ${this.#url} puts block ${block.hash} at ${block.number}, its logs at ${blockNumberOf(log)}`,
        );
      }
      const event = onChainEventOfLog(log, block, this.#chainId, this.#registries);
      return event === undefined ? [] : [event];
    });
  }

  /** A block's number and time, asked once per hash. */
  async #block(hash: Hex): Promise<LogBlock> {
    const known = this.#blocks.get(hash);
    if (known !== undefined) return known;
    const block = await this.#call("eth_getBlockByHash", () =>
      this.#client.request({ method: "eth_getBlockByHash", params: [hash, false] }),
    );
    if (block === null || block.hash === null || block.number === null) {
      throw new DevchainError(
        "chain_unavailable",
        `the JSON-RPC node at ${this.#url} does not know block ${hash}, which its logs named`,
      );
    }
    const found = { hash, number: hexToNumber(block.number), timestamp: hexToNumber(block.timestamp) };
    if (this.#blocks.size >= BLOCK_CACHE) this.#blocks.delete(this.#blocks.keys().next().value!);
    this.#blocks.set(hash, found);
    return found;
  }

  /** Checks once that the node is on the expected chain (again after a failed check). */
  #checkChain(): Promise<void> {
    this.#chainChecked ??= (async () => {
      const answer = await this.#call("eth_chainId", () => this.#client.request({ method: "eth_chainId" }));
      const chainId = hexToNumber(answer);
      if (chainId !== this.#chainId) {
        throw new DevchainError(
          "chain_unavailable",
          `the JSON-RPC node at ${this.#url} is on chain ${chainId}, not chain ${this.#chainId}`,
        );
      }
    })().catch((error: unknown) => {
      this.#chainChecked = undefined;
      throw error;
    });
    return this.#chainChecked;
  }

  async #call<T>(method: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.#failure(method, error);
    }
  }

  /** A node's failure as a sentence that names it. */
  #failure(method: string, error: unknown): DevchainError {
    const where = `the JSON-RPC node at ${this.#url}`;
    if (error instanceof BaseError) {
      const http = error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError);
      if (http instanceof HttpRequestError && http.status !== undefined)
        return new DevchainError(
          "chain_unavailable",
          `${where} answered ${method} with HTTP ${http.status}: is it an Ethereum JSON-RPC endpoint?`,
        );
      if (http instanceof HttpRequestError || http instanceof TimeoutError)
        return new DevchainError(
          "chain_unavailable",
          `${where} is unreachable (${method}: ${http.details || http.shortMessage})`,
        );
      return new DevchainError("chain_unavailable", `${where} refused ${method}: ${error.shortMessage}`);
    }
    return new DevchainError("chain_unavailable", `${where} failed ${method}: ${String(error)}`);
  }
}

/** The on-chain events of a chain's registries, read over Ethereum JSON-RPC. */
export function jsonRpcEventSource(options: JsonRpcEventSourceOptions): OnChainEventSource {
  return new JsonRpcEventSource(options);
}

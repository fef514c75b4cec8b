/**
 * A small Ethereum JSON-RPC node for tests of what follows a chain: blocks mined on demand, each
 * holding transactions that emitted the logs given (test/support/registryLogs.ts builds them), served
 * over HTTP with the field shapes a node answers (docs/reference/contracts.md §12): eth_chainId,
 * eth_blockNumber, eth_getBlockByNumber and eth_getBlockByHash (transactions as hashes), and
 * eth_getLogs (address and topic filters, block ranges), optionally refusing ranges beyond a limit
 * as public nodes do (§13).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Hex, encodePacked, keccak256, numberToHex, zeroAddress, zeroHash } from "viem";
import type { EmittedLog } from "./registryLogs.js";

export interface NodeBlock {
  number: number;
  hash: Hex;
  parentHash: Hex;
  /** Unix seconds. */
  timestamp: number;
  transactions: Hex[];
}

export interface NodeLog extends EmittedLog {
  blockNumber: number;
  blockHash: Hex;
  transactionHash: Hex;
  transactionIndex: number;
  logIndex: number;
}

/** Refuses an eth_getLogs spanning more blocks, or matching more logs, than allowed, with `code`. */
export interface LogsLimit {
  maxBlocks?: number;
  maxResults?: number;
  code: number;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const quantity = (value: number): Hex => numberToHex(value);
const BLOCK_TIME_SECONDS = 2;

export class JsonRpcNode {
  readonly blocks: NodeBlock[] = [];
  readonly logs: NodeLog[] = [];
  /** Every request answered, in order (a batch's entries one by one). */
  readonly calls: { method: string; params: unknown[]; error?: number }[] = [];
  logsLimit: LogsLimit | undefined;
  private server: Server | undefined;

  /** Block 0 is mined at `genesisTime` (Unix seconds), each later block two seconds after the one before. */
  constructor(
    readonly chainId = 10,
    private readonly genesisTime = Math.floor(Date.now() / 1000) - 24 * 60 * 60,
  ) {
    this.blocks.push(this.block(0, zeroHash, []));
  }

  get head(): NodeBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  /** Mines a block holding one transaction per entry, which emitted that entry's logs in order. */
  mine(transactions: EmittedLog[][] = []): NodeBlock {
    const number = this.blocks.length;
    const parent = this.head;
    const hashes = transactions.map((_, index) =>
      keccak256(encodePacked(["uint32", "uint64", "uint32"], [this.chainId, BigInt(number), index])),
    );
    const block = this.block(number, parent.hash, hashes);
    this.blocks.push(block);
    let logIndex = 0;
    transactions.forEach((logs, transactionIndex) => {
      for (const log of logs) {
        this.logs.push({
          ...log,
          blockNumber: number,
          blockHash: block.hash,
          transactionHash: hashes[transactionIndex]!,
          transactionIndex,
          logIndex: logIndex++,
        });
      }
    });
    return block;
  }

  /** Mines `count` blocks without transactions. */
  mineEmpty(count: number): void {
    for (let i = 0; i < count; i++) this.mine();
  }

  /** Listens on 127.0.0.1 at a free port; returns the URL. */
  async listen(): Promise<string> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const answer = this.answer(Buffer.concat(chunks).toString("utf8"));
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(answer));
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** How many eth_getLogs requests were refused. */
  get refusedLogs(): number {
    return this.calls.filter((call) => call.method === "eth_getLogs" && call.error !== undefined).length;
  }

  private block(number: number, parentHash: Hex, transactions: Hex[]): NodeBlock {
    const timestamp = this.genesisTime + number * BLOCK_TIME_SECONDS;
    const hash = keccak256(
      encodePacked(
        ["uint32", "uint64", "bytes32", "uint64"],
        [this.chainId, BigInt(number), parentHash, BigInt(timestamp)],
      ),
    );
    return { number, hash, parentHash, timestamp, transactions };
  }

  private answer(body: string): unknown {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } };
    }
    return Array.isArray(parsed) ? parsed.map((one) => this.answerOne(one)) : this.answerOne(parsed);
  }

  private answerOne(request: unknown): unknown {
    const { id, method, params } = (request ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
    const args = Array.isArray(params) ? params : [];
    const call: (typeof this.calls)[number] = { method: String(method), params: args };
    this.calls.push(call);
    try {
      return { jsonrpc: "2.0", id, result: this.result(String(method), args) };
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      call.error = error.code;
      return { jsonrpc: "2.0", id, error: { code: error.code, message: error.message } };
    }
  }

  private result(method: string, params: unknown[]): unknown {
    switch (method) {
      case "eth_chainId":
        return quantity(this.chainId);
      case "eth_blockNumber":
        return quantity(this.head.number);
      case "eth_getBlockByNumber": {
        const block = this.blocks[this.blockNumber(params[0])];
        return block === undefined ? null : this.blockJson(block);
      }
      case "eth_getBlockByHash": {
        const block = this.blocks.find((b) => b.hash === String(params[0]).toLowerCase());
        return block === undefined ? null : this.blockJson(block);
      }
      case "eth_getLogs":
        return this.getLogs((params[0] ?? {}) as Record<string, unknown>);
      default:
        throw new RpcError(-32601, `the method ${method} does not exist/is not available`);
    }
  }

  private blockNumber(tag: unknown): number {
    if (tag === "earliest") return 0;
    if (tag === undefined || tag === "latest" || tag === "safe" || tag === "finalized" || tag === "pending")
      return this.head.number;
    if (typeof tag !== "string" || !/^0x[0-9a-f]+$/i.test(tag))
      throw new RpcError(-32602, `invalid block number ${String(tag)}`);
    return Number(tag);
  }

  private getLogs(filter: Record<string, unknown>): unknown[] {
    let from: number;
    let to: number;
    if (filter.blockHash !== undefined) {
      const block = this.blocks.find((b) => b.hash === String(filter.blockHash).toLowerCase());
      if (block === undefined) throw new RpcError(-32000, "unknown block");
      from = to = block.number;
    } else {
      from = this.blockNumber(filter.fromBlock ?? "latest");
      to = Math.min(this.blockNumber(filter.toBlock ?? "latest"), this.head.number);
    }
    const limit = this.logsLimit;
    if (limit?.maxBlocks !== undefined && to - from + 1 > limit.maxBlocks)
      throw new RpcError(limit.code, `block range too large, max range: ${limit.maxBlocks}`);
    const addresses = [filter.address ?? []].flat().map((a) => String(a).toLowerCase());
    const topics = Array.isArray(filter.topics) ? (filter.topics as unknown[]) : [];
    const matches = this.logs.filter(
      (log) =>
        log.blockNumber >= from &&
        log.blockNumber <= to &&
        (addresses.length === 0 || addresses.includes(log.address.toLowerCase())) &&
        topics.every((wanted, i) => {
          if (wanted === null) return true;
          const topic = log.topics[i]?.toLowerCase();
          return [wanted].flat().some((one) => String(one).toLowerCase() === topic);
        }),
    );
    if (limit?.maxResults !== undefined && matches.length > limit.maxResults)
      throw new RpcError(
        limit.code,
        `query exceeds max results ${limit.maxResults}, retry with a smaller range`,
      );
    return matches.map((log) => ({
      address: log.address.toLowerCase(),
      topics: log.topics,
      data: log.data,
      blockNumber: quantity(log.blockNumber),
      blockHash: log.blockHash,
      transactionHash: log.transactionHash,
      transactionIndex: quantity(log.transactionIndex),
      logIndex: quantity(log.logIndex),
      removed: false,
    }));
  }

  private blockJson(block: NodeBlock): Record<string, unknown> {
    const word = (byte: string) => `0x${byte.repeat(32)}`;
    return {
      number: quantity(block.number),
      hash: block.hash,
      parentHash: block.parentHash,
      nonce: "0x0000000000000000",
      sha3Uncles: word("00"),
      logsBloom: `0x${"00".repeat(256)}`,
      transactionsRoot: word("00"),
      stateRoot: word("00"),
      receiptsRoot: word("00"),
      miner: zeroAddress,
      mixHash: word("00"),
      difficulty: "0x0",
      totalDifficulty: "0x0",
      extraData: "0x",
      size: quantity(512 + 128 * block.transactions.length),
      gasLimit: quantity(30_000_000),
      gasUsed: quantity(100_000 * block.transactions.length),
      timestamp: quantity(block.timestamp),
      baseFeePerGas: quantity(1_000_000),
      uncles: [],
      transactions: block.transactions,
    };
  }
}

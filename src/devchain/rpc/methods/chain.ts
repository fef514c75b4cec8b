/** Methods about the chain itself: its id, its blocks, its sync state. */
import type { Ledger, StoredBlock } from "../../ledger/index.js";
import { RpcError } from "../errors.js";
import {
  type BlockSelector,
  encodeQuantity,
  parseBoolean,
  parseBlockSelector,
  parseHash,
  positionalParams,
} from "../params.js";
import type { RpcMethods } from "../server.js";
import { blockJson, transactionJson } from "./shapes.js";

/** The block a selector names: undefined for a number or hash the chain has not mined. */
export async function selectedBlock(
  ledger: Ledger,
  selector: BlockSelector,
): Promise<StoredBlock | undefined> {
  if (selector.kind === "hash") return ledger.blockByHash(selector.hash);
  if (selector.kind === "number") return ledger.blockByNumber(selector.number);
  return selector.tag === "earliest" ? ledger.blockByNumber(0) : ledger.latestBlock();
}

/** As selectedBlock, for reads of state: a block the chain does not have is an error, as geth says it. */
export async function stateBlock(ledger: Ledger, value: unknown, name: string): Promise<StoredBlock> {
  const selector =
    value === undefined ? ({ kind: "tag", tag: "latest" } as const) : parseBlockSelector(value, name);
  const block = await selectedBlock(ledger, selector);
  if (!block) throw RpcError.serverError("header not found");
  return block;
}

async function blockAnswer(ledger: Ledger, block: StoredBlock | undefined, full: boolean) {
  if (!block) return null;
  const txs = await ledger.transactionsOfBlock(block.number);
  return blockJson(
    block,
    full ? txs.map((tx) => transactionJson(tx, block, ledger.chainId)) : txs.map((tx) => tx.hash),
  );
}

export function chainMethods(ledger: Ledger, clientVersion: string): RpcMethods {
  return {
    async eth_chainId(params) {
      positionalParams(params, []);
      return encodeQuantity(ledger.chainId);
    },
    async net_version(params) {
      positionalParams(params, []);
      return String(ledger.chainId);
    },
    async net_listening(params) {
      positionalParams(params, []);
      return true;
    },
    async web3_clientVersion(params) {
      positionalParams(params, []);
      return clientVersion;
    },
    async eth_syncing(params) {
      positionalParams(params, []);
      return false;
    },
    async eth_blockNumber(params) {
      positionalParams(params, []);
      return encodeQuantity((await ledger.latestBlock()).number);
    },
    async eth_getBlockByNumber(params) {
      const [tag, full] = positionalParams(params, ["block", "fullTransactions"], 1);
      const block = await selectedBlock(ledger, parseBlockSelector(tag, "block"));
      return blockAnswer(ledger, block, full === undefined ? false : parseBoolean(full, "fullTransactions"));
    },
    async eth_getBlockByHash(params) {
      const [hash, full] = positionalParams(params, ["blockHash", "fullTransactions"], 1);
      const block = await ledger.blockByHash(parseHash(hash, "blockHash"));
      return blockAnswer(ledger, block, full === undefined ? false : parseBoolean(full, "fullTransactions"));
    },
  };
}

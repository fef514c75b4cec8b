/** Sending a signed transaction, and reading transactions and receipts back. */
import type { Ledger } from "../../ledger/index.js";
import { encodeQuantity, parseData, parseHash, parseQuantityNumber, positionalParams } from "../params.js";
import type { RpcMethods } from "../server.js";
import { DEFAULT_PRIORITY_FEE_PER_GAS } from "../../ledger/fees.js";
import { receiptJson, transactionJson } from "./shapes.js";

/** The largest eth_feeHistory window, as geth bounds it. */
const MAX_FEE_HISTORY_BLOCKS = 1024;

export function transactionMethods(ledger: Ledger): RpcMethods {
  return {
    async eth_sendRawTransaction(params) {
      const [raw] = positionalParams(params, ["transaction"]);
      return ledger.submitRaw(parseData(raw, "transaction"));
    },
    async eth_getTransactionByHash(params) {
      const [hash] = positionalParams(params, ["transactionHash"]);
      const tx = await ledger.transaction(parseHash(hash, "transactionHash"));
      if (!tx) return null;
      const block = tx.blockNumber === null ? undefined : await ledger.blockByNumber(tx.blockNumber);
      return transactionJson(tx, block, ledger.chainId);
    },
    async eth_getTransactionReceipt(params) {
      const [hash] = positionalParams(params, ["transactionHash"]);
      const tx = await ledger.transaction(parseHash(hash, "transactionHash"));
      if (!tx || tx.blockNumber === null || !tx.receipt) return null;
      const block = (await ledger.blockByNumber(tx.blockNumber))!;
      let cumulative = 0n;
      for (const other of await ledger.transactionsOfBlock(block.number)) {
        cumulative += other.receipt?.gasUsed ?? 0n;
        if (other.seq === tx.seq) break;
      }
      return receiptJson(tx, block, await ledger.logJsonOfTransaction(tx.seq), cumulative);
    },
    async eth_gasPrice(params) {
      positionalParams(params, []);
      return encodeQuantity((await ledger.latestBlock()).baseFeePerGas + DEFAULT_PRIORITY_FEE_PER_GAS);
    },
    async eth_maxPriorityFeePerGas(params) {
      positionalParams(params, []);
      return encodeQuantity(DEFAULT_PRIORITY_FEE_PER_GAS);
    },
    async eth_feeHistory(params) {
      const [count, newest, percentiles] = positionalParams(
        params,
        ["blockCount", "newestBlock", "rewardPercentiles"],
        2,
      );
      const blocks = Math.min(parseQuantityNumber(count, "blockCount"), MAX_FEE_HISTORY_BLOCKS);
      const latest = await ledger.latestBlock();
      const last =
        newest === "latest" || newest === "pending"
          ? latest.number
          : Math.min(parseQuantityNumber(newest, "newestBlock"), latest.number);
      const first = Math.max(0, last - blocks + 1);
      const baseFees: string[] = [];
      const ratios: number[] = [];
      const rewards: string[][] = [];
      const wanted = Array.isArray(percentiles) ? percentiles.length : 0;
      for (let number = first; number <= last; number++) {
        const block = (await ledger.blockByNumber(number))!;
        baseFees.push(encodeQuantity(block.baseFeePerGas));
        ratios.push(Number(block.gasUsed) / 30_000_000);
        rewards.push(Array.from({ length: wanted }, () => encodeQuantity(DEFAULT_PRIORITY_FEE_PER_GAS)));
      }
      baseFees.push(encodeQuantity(latest.baseFeePerGas));
      return {
        oldestBlock: encodeQuantity(first),
        baseFeePerGas: baseFees,
        gasUsedRatio: ratios,
        ...(Array.isArray(percentiles) ? { reward: rewards } : {}),
      };
    },
  };
}

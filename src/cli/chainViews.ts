/**
 * What the `castnet chain` commands read and print (src/cli/commands/chain.ts): balances, blocks and
 * transactions as the devchain's JSON-RPC answers them, made into castnet's JSON (numbers in
 * decimal, wei as decimal strings) and into lines for a terminal. The commands import it when they
 * run: it loads viem.
 */
import { type Abi, type Address, decodeEventLog, formatEther, getAddress, type Hex, numberToHex } from "viem";
import { idRegistryAbi, keyRegistryAbi, storageRegistryAbi } from "../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES, type ContractName } from "../protocol/registryAddresses.js";
import { ether } from "../stack/optionValues.js";
import { UsageError } from "../usageError.js";
import type { Context } from "./context.js";
import type { ChainRpc } from "./http/chainRpc.js";
import { CliError } from "./http/request.js";

/** A command's result: its --json document and its lines for a terminal. */
export interface View {
  json: unknown;
  human: string[];
}

/** An address and, when it was named so, the keystore account whose custody address it is. */
interface Holder {
  address: Address;
  account: string | null;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;
// A fund waits for its block as the other chain writes do (src/interfaces/chainHttp.ts).
const RECEIPT_WAIT_MS = 120_000;
const RECEIPT_POLL_MS = 100;

/** The registries that emit events, with the ABIs their logs are decoded by. */
const EVENT_ABIS: Partial<Record<ContractName, Abi>> = {
  idRegistry: idRegistryAbi,
  keyRegistry: keyRegistryAbi,
  storageRegistry: storageRegistryAbi,
};

/** The contract at `address` by the name its ABI has (IdGateway), or null. */
function contractAt(address: string | null): ContractName | null {
  if (address === null) return null;
  const entry = Object.entries(CONTRACT_ADDRESSES).find(
    ([, at]) => at.toLowerCase() === address.toLowerCase(),
  );
  return entry === undefined ? null : (entry[0] as ContractName);
}

const displayName = (contract: ContractName) => contract[0]!.toUpperCase() + contract.slice(1);

/** `<address|account>`: an address in any case, else an account of the keystore. */
export function resolveHolder(context: Context, who: string): Holder {
  if (ADDRESS.test(who)) return { address: getAddress(who.toLowerCase()), account: null };
  if (/^0x/i.test(who)) throw new UsageError(`"${who}" is not an address (0x and 40 hex digits)`);
  return { address: getAddress(context.keystore().get(who).custodyAddress), account: who };
}

const label = (holder: Holder) =>
  holder.account === null ? holder.address : `${holder.account} (${holder.address})`;

function unexpected(method: string): CliError {
  return new CliError(`the devchain answered ${method} with a result castnet cannot read`);
}

function record(value: unknown, method: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw unexpected(method);
  return value as Record<string, unknown>;
}

function quantity(value: unknown, method: string): bigint {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw unexpected(method);
  return BigInt(value);
}

const count = (value: unknown, method: string) => Number(quantity(value, method));

function hash(value: unknown, method: string): Hex {
  if (typeof value !== "string" || !TRANSACTION_HASH.test(value)) throw unexpected(method);
  return value as Hex;
}

async function latestBlockNumber(rpc: ChainRpc): Promise<number> {
  return count(await rpc.call("eth_blockNumber"), "eth_blockNumber");
}

/** `key value` lines, the values in one column, as `account show` prints. */
const lines = (rows: [string, string][]) => rows.map(([key, value]) => `${key.padEnd(14)}${value}`);

export async function balanceView(context: Context, rpc: ChainRpc, who: string): Promise<View> {
  const holder = resolveHolder(context, who);
  // The balance as of one block, the one printed beside it.
  const block = await latestBlockNumber(rpc);
  const wei = quantity(
    await rpc.call("eth_getBalance", [holder.address, numberToHex(block)]),
    "eth_getBalance",
  );
  return {
    json: { ...holder, balance: wei.toString(), ether: formatEther(wei), blockNumber: block },
    human: [`${label(holder)} has ${formatEther(wei)} ETH at block ${block}`],
  };
}

/** The receipt of `transaction` once its block is mined. */
async function minedReceipt(rpc: ChainRpc, transaction: Hex): Promise<Record<string, unknown>> {
  const deadline = Date.now() + RECEIPT_WAIT_MS;
  for (;;) {
    const receipt = await rpc.call("eth_getTransactionReceipt", [transaction]);
    if (receipt !== null) return record(receipt, "eth_getTransactionReceipt");
    if (Date.now() > deadline)
      throw new CliError(
        `transaction ${transaction} is still pending after ${RECEIPT_WAIT_MS / 1000} s: castnet chain tx ${transaction} shows it once mined`,
      );
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
  }
}

export async function fundView(context: Context, rpc: ChainRpc, who: string, amount: string): Promise<View> {
  const holder = resolveHolder(context, who);
  const wei = ether("<ether>", amount);
  const transaction = hash(
    await rpc.call("castnet_setBalance", [holder.address, numberToHex(wei)]),
    "castnet_setBalance",
  );
  const blockNumber = count((await minedReceipt(rpc, transaction)).blockNumber, "eth_getTransactionReceipt");
  return {
    json: {
      ...holder,
      balance: wei.toString(),
      ether: formatEther(wei),
      transactionHash: transaction,
      blockNumber,
    },
    human: [
      `${label(holder)} now has ${formatEther(wei)} ETH (transaction ${transaction}, block ${blockNumber})`,
    ],
  };
}

export async function mineView(rpc: ChainRpc, blocks: number): Promise<View> {
  const mined: number[] = [];
  for (let i = 0; i < blocks; i++) mined.push(count(await rpc.call("castnet_mine"), "castnet_mine"));
  return {
    json: { blocks: mined },
    human: [
      mined.length === 1
        ? `mined block ${mined[0]}`
        : `mined ${mined.length} blocks: ${mined[0]} to ${mined[mined.length - 1]}`,
    ],
  };
}

/** `[number|latest]`: a block number in decimal, or `latest` (the default). */
export function parseBlock(value: string | undefined): number | "latest" {
  if (value === undefined || value === "latest") return "latest";
  if (/^\d{1,15}$/.test(value)) return Number(value);
  throw new UsageError(`"${value}" is not a block: give a block number or latest`);
}

const time = (seconds: number) =>
  `${seconds} (${new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 19)} UTC)`;

export async function blockView(rpc: ChainRpc, which: number | "latest"): Promise<View> {
  const method = "eth_getBlockByNumber";
  const answer = await rpc.call(method, [which === "latest" ? "latest" : numberToHex(which), false]);
  if (answer === null)
    throw new CliError(`there is no block ${which} yet: the latest is block ${await latestBlockNumber(rpc)}`);
  const block = record(answer, method);
  if (!Array.isArray(block.transactions)) throw unexpected(method);
  const json = {
    number: count(block.number, method),
    hash: hash(block.hash, method),
    parentHash: hash(block.parentHash, method),
    timestamp: count(block.timestamp, method),
    gasUsed: count(block.gasUsed, method),
    baseFeePerGas: quantity(block.baseFeePerGas, method).toString(),
    transactions: block.transactions.map((tx) => hash(tx, method)),
  };
  return {
    json,
    human: [
      ...lines([
        ["number", String(json.number)],
        ["hash", json.hash],
        ["parentHash", json.parentHash],
        ["timestamp", time(json.timestamp)],
        ["gasUsed", String(json.gasUsed)],
        ["baseFeePerGas", `${json.baseFeePerGas} wei`],
        ["transactions", String(json.transactions.length)],
      ]),
      ...json.transactions.map((tx) => `  ${tx}`),
    ],
  };
}

/** The event a registry's log is, by its ABI; null for a log castnet cannot name. */
function eventOf(contract: ContractName | null, topics: Hex[], data: Hex): string | null {
  const abi = contract === null ? undefined : EVENT_ABIS[contract];
  if (abi === undefined || topics.length === 0) return null;
  try {
    return decodeEventLog({ abi, topics: topics as [Hex, ...Hex[]], data }).eventName ?? null;
  } catch {
    return null;
  }
}

function logOf(value: unknown) {
  const method = "eth_getTransactionReceipt";
  const log = record(value, method);
  if (typeof log.address !== "string" || !ADDRESS.test(log.address) || !Array.isArray(log.topics))
    throw unexpected(method);
  if (typeof log.data !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(log.data)) throw unexpected(method);
  const topics = log.topics.map((topic) => hash(topic, method));
  const contract = contractAt(log.address);
  return {
    logIndex: count(log.logIndex, method),
    address: getAddress(log.address),
    contract: contract === null ? null : displayName(contract),
    event: eventOf(contract, topics, log.data as Hex),
    topics,
    data: log.data as Hex,
  };
}

export async function transactionView(rpc: ChainRpc, given: string): Promise<View> {
  if (!TRANSACTION_HASH.test(given))
    throw new UsageError(`"${given}" is not a transaction hash (0x and 64 hex digits)`);
  const wanted = given.toLowerCase();
  const method = "eth_getTransactionByHash";
  const answer = await rpc.call(method, [wanted]);
  if (answer === null) throw new CliError(`the devchain has no transaction ${wanted}`);
  const tx = record(answer, method);
  const receiptAnswer = await rpc.call("eth_getTransactionReceipt", [wanted]);
  const receipt = receiptAnswer === null ? null : record(receiptAnswer, "eth_getTransactionReceipt");
  if (typeof tx.from !== "string" || !ADDRESS.test(tx.from)) throw unexpected(method);
  if (tx.to !== null && (typeof tx.to !== "string" || !ADDRESS.test(tx.to))) throw unexpected(method);
  if (receipt !== null && !Array.isArray(receipt.logs)) throw unexpected("eth_getTransactionReceipt");
  const to = tx.to === null ? null : getAddress(tx.to as string);
  const contract = contractAt(to);
  const gasUsed = receipt === null ? null : count(receipt.gasUsed, "eth_getTransactionReceipt");
  const fee =
    receipt === null
      ? null
      : BigInt(gasUsed!) * quantity(receipt.effectiveGasPrice, "eth_getTransactionReceipt");
  const status =
    receipt === null
      ? "pending"
      : quantity(receipt.status, "eth_getTransactionReceipt") === 1n
        ? "success"
        : "reverted";
  const json = {
    hash: hash(tx.hash, method),
    status,
    blockNumber: tx.blockNumber === null ? null : count(tx.blockNumber, method),
    transactionIndex: tx.transactionIndex === null ? null : count(tx.transactionIndex, method),
    from: getAddress(tx.from),
    to,
    contract: contract === null ? null : displayName(contract),
    value: quantity(tx.value, method).toString(),
    nonce: count(tx.nonce, method),
    gasUsed,
    fee: fee === null ? null : fee.toString(),
    logs: receipt === null ? [] : (receipt.logs as unknown[]).map(logOf),
  };
  const where =
    json.blockNumber === null ? "" : ` (block ${json.blockNumber}, index ${json.transactionIndex})`;
  return {
    json,
    human: [
      ...lines([
        ["hash", json.hash],
        ["status", `${status}${where}`],
        ["from", json.from],
        ["to", to === null ? "(none)" : `${to}${json.contract === null ? "" : ` (${json.contract})`}`],
        ["value", `${formatEther(BigInt(json.value))} ETH`],
        ["nonce", String(json.nonce)],
        ...(receipt === null
          ? []
          : ([
              ["gasUsed", String(gasUsed)],
              ["fee", `${formatEther(fee!)} ETH`],
              ["logs", String(json.logs.length)],
            ] as [string, string][])),
      ]),
      ...json.logs.map(
        (log) =>
          `  ${log.logIndex}  ${log.contract ?? log.address} ${log.event ?? log.topics[0] ?? "(no topics)"}`,
      ),
    ],
  };
}

/**
 * Logs: eth_getLogs, and the filters that poll for new logs or blocks (eth_newFilter and friends).
 * A query is bounded by its result count, as public nodes bound it; a filter left unpolled for five
 * minutes is dropped, as geth drops it.
 */
import { randomBytes } from "node:crypto";
import type { Address, Hex } from "viem";
import type { Ledger, LogFilter } from "../../ledger/index.js";
import { RpcError } from "../errors.js";
import {
  encodeQuantity,
  parseAddress,
  parseBlockSelector,
  parseHash,
  parseObject,
  positionalParams,
} from "../params.js";
import { JsonText, type RpcContext, type RpcMethods } from "../server.js";
import { selectedBlock } from "./chain.js";

/** The most logs one eth_getLogs (or eth_getFilterLogs) answers. */
const MAX_LOG_RESULTS = 10_000;
const FILTER_IDLE_MS = 5 * 60_000;
const MAX_FILTERS_PER_CLIENT = 100;

interface Query {
  filter: Omit<LogFilter, "fromBlock" | "toBlock">;
  from: unknown;
  to: unknown;
  blockHash?: Hex;
}

function addressesOf(value: unknown): Address[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((a, i) => parseAddress(a, `filter.address[${i}]`));
  return [parseAddress(value, "filter.address")];
}

function topicsOf(value: unknown): (Hex[] | null)[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > 4)
    throw RpcError.invalidParams("filter.topics must be an array of at most 4 positions");
  return value.map((position, i) => {
    if (position === null) return null;
    // An empty OR-list constrains nothing, as geth reads it.
    if (Array.isArray(position))
      return position.length === 0 ? null : position.map((t, j) => parseHash(t, `filter.topics[${i}][${j}]`));
    return [parseHash(position, `filter.topics[${i}]`)];
  });
}

function queryOf(value: unknown): Query {
  const fields = parseObject(value ?? {}, "filter");
  const blockHash =
    fields.blockHash === undefined || fields.blockHash === null
      ? undefined
      : parseHash(fields.blockHash, "filter.blockHash");
  if (blockHash && (fields.fromBlock !== undefined || fields.toBlock !== undefined))
    throw RpcError.invalidParams("filter.blockHash goes without fromBlock and toBlock");
  return {
    filter: { addresses: addressesOf(fields.address), topics: topicsOf(fields.topics) },
    from: fields.fromBlock,
    to: fields.toBlock,
    blockHash,
  };
}

/** The block range of a query, as numbers (undefined: a block hash the chain does not have). */
async function rangeOf(
  ledger: Ledger,
  query: Query,
): Promise<{ fromBlock: number; toBlock: number } | undefined> {
  if (query.blockHash) {
    const block = await ledger.blockByHash(query.blockHash);
    return block && { fromBlock: block.number, toBlock: block.number };
  }
  const latest = (await ledger.latestBlock()).number;
  // A number past the head stays as it is for fromBlock (the range is then empty) and is the head
  // for toBlock, as geth reads them; numbers need no block read.
  const resolve = async (value: unknown, name: string, pastHead: (n: number) => number) => {
    if (value === undefined || value === null) return latest;
    const selector = parseBlockSelector(value, name);
    if (selector.kind === "number")
      return selector.number > latest ? pastHead(selector.number) : selector.number;
    if (selector.kind === "tag") return selector.tag === "earliest" ? 0 : latest;
    return (await selectedBlock(ledger, selector))?.number ?? latest;
  };
  const fromBlock = await resolve(query.from, "filter.fromBlock", (n) => n);
  const toBlock = await resolve(query.to, "filter.toBlock", () => latest);
  return { fromBlock, toBlock };
}

async function queryLogs(
  ledger: Ledger,
  query: Query,
  range: { fromBlock: number; toBlock: number },
  maxResults: number,
) {
  if (range.toBlock < range.fromBlock) return new JsonText("[]");
  const filter = { ...query.filter, ...range };
  const logs = await ledger.logJson(filter, maxResults + 1);
  if (logs.count > maxResults) {
    const last = (await ledger.logs(filter, maxResults)).at(-1)!.blockNumber;
    const retry =
      last > range.fromBlock
        ? `, retry with the range ${encodeQuantity(range.fromBlock)}-${encodeQuantity(last - 1)}`
        : "";
    throw RpcError.limitExceeded(`query returned more than ${maxResults} results${retry}`);
  }
  return new JsonText(logs.json);
}

type Filter =
  | { kind: "logs"; client: string; query: Query; next: number; used: number }
  | { kind: "blocks"; client: string; next: number; used: number };

/** `maxResults`: the most logs one answer holds (tests lower it). */
export function logMethods(
  ledger: Ledger,
  now: () => number = Date.now,
  maxResults = MAX_LOG_RESULTS,
): RpcMethods {
  const filters = new Map<string, Filter>();

  const sweep = () => {
    for (const [id, filter] of filters) if (now() - filter.used > FILTER_IDLE_MS) filters.delete(id);
  };
  const install = (filter: Filter, context: RpcContext): string => {
    sweep();
    const mine = [...filters.values()].filter((f) => f.client === context.clientAddress).length;
    if (mine >= MAX_FILTERS_PER_CLIENT)
      throw RpcError.limitExceeded(
        `too many filters: at most ${MAX_FILTERS_PER_CLIENT} per client; uninstall some or let them expire`,
      );
    const id = `0x${randomBytes(16).toString("hex")}`;
    filters.set(id, filter);
    return id;
  };
  const find = (value: unknown): Filter => {
    sweep();
    const filter = typeof value === "string" ? filters.get(value.toLowerCase()) : undefined;
    if (!filter) throw RpcError.serverError("filter not found");
    filter.used = now();
    return filter;
  };

  return {
    async eth_getLogs(params) {
      const [filter] = positionalParams(params, ["filter"]);
      const query = queryOf(filter);
      const range = await rangeOf(ledger, query);
      if (!range) throw RpcError.serverError("unknown block");
      return queryLogs(ledger, query, range, maxResults);
    },
    async eth_newFilter(params, context) {
      const [filter] = positionalParams(params, ["filter"]);
      const query = queryOf(filter);
      if (query.blockHash) throw RpcError.invalidParams("a filter cannot take filter.blockHash");
      const range = (await rangeOf(ledger, query))!;
      return install(
        { kind: "logs", client: context.clientAddress, query, next: range.fromBlock, used: now() },
        context,
      );
    },
    async eth_newBlockFilter(params, context) {
      positionalParams(params, []);
      const next = (await ledger.latestBlock()).number + 1;
      return install({ kind: "blocks", client: context.clientAddress, next, used: now() }, context);
    },
    async eth_getFilterChanges(params) {
      const [id] = positionalParams(params, ["filterId"]);
      const filter = find(id);
      const latest = (await ledger.latestBlock()).number;
      if (filter.kind === "blocks") {
        const hashes: Hex[] = [];
        for (let number = filter.next; number <= latest; number++)
          hashes.push((await ledger.blockByNumber(number))!.hash);
        filter.next = latest + 1;
        return hashes;
      }
      const range = (await rangeOf(ledger, filter.query))!;
      const toBlock =
        filter.query.to === undefined || filter.query.to === null ? latest : Math.min(range.toBlock, latest);
      const answer = await queryLogs(ledger, filter.query, { fromBlock: filter.next, toBlock }, maxResults);
      filter.next = Math.max(filter.next, toBlock + 1);
      return answer;
    },
    async eth_getFilterLogs(params) {
      const [id] = positionalParams(params, ["filterId"]);
      const filter = find(id);
      if (filter.kind !== "logs") throw RpcError.serverError("filter not found: a block filter has no logs");
      const range = (await rangeOf(ledger, filter.query))!;
      return queryLogs(ledger, filter.query, range, maxResults);
    },
    async eth_uninstallFilter(params) {
      const [id] = positionalParams(params, ["filterId"]);
      sweep();
      return typeof id === "string" && filters.delete(id.toLowerCase());
    },
  };
}

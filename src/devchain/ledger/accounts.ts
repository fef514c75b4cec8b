/**
 * An account as the REST routes show it: a fid's custody and recovery from the IdRegistry's state,
 * its active keys with the metadata of their `Add` logs (metadata is not contract storage), and the
 * storage units whose rent has not expired (a year from the block of each `Rent`, the hubs' rule).
 */
import { decodeEventLog, encodeEventTopics, getAddress, type Hex, keccak256, numberToHex } from "viem";
import type { Account } from "../../interfaces/chain.js";
import { keyRegistryAbi, storageRegistryAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { activeKeys, readFid } from "../contracts/reads.js";
import type { Ledger } from "./index.js";

const RENT_PERIOD_SECONDS = 365 * 24 * 60 * 60;
const ALL = Number.MAX_SAFE_INTEGER;

const fidTopic = (fid: number): Hex => numberToHex(fid, { size: 32 });
const [ADD_TOPIC] = encodeEventTopics({ abi: keyRegistryAbi, eventName: "Add" });
const [RENT_TOPIC] = encodeEventTopics({ abi: storageRegistryAbi, eventName: "Rent" });

export async function accountOf(
  ledger: Ledger,
  fid: number,
  nowSeconds: number,
): Promise<Account | undefined> {
  if (!Number.isSafeInteger(fid) || fid < 1) return undefined;
  const latest = await ledger.latestBlock();
  const state = ledger.stateAt(latest.number);
  const addresses = await readFid(state, BigInt(fid));
  if (!addresses) return undefined;

  const adds = await ledger.logs(
    {
      fromBlock: 0,
      toBlock: latest.number,
      addresses: [CONTRACT_ADDRESSES.keyRegistry],
      topics: [[ADD_TOPIC!], [fidTopic(fid)]],
    },
    ALL,
  );
  // The last Add of each key (a key is added once per fid), in the order the keys were added.
  const added = new Map<Hex, { order: number; metadataType: number; metadata: Hex }>();
  for (const [order, log] of adds.entries()) {
    const { args } = decodeEventLog({
      abi: keyRegistryAbi,
      eventName: "Add",
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
    });
    added.set(keccak256(args.keyBytes), { order, metadataType: args.metadataType, metadata: args.metadata });
  }
  const signers = (await activeKeys(state, BigInt(fid)))
    .map(({ key, keyType }) => ({
      key,
      keyType,
      ...(added.get(keccak256(key)) ?? { order: ALL, metadataType: 0, metadata: "0x" as Hex }),
    }))
    .sort((a, b) => a.order - b.order)
    .map(({ key, keyType, metadataType, metadata }) => ({ key, keyType, metadataType, metadata }));

  const since = nowSeconds - RENT_PERIOD_SECONDS;
  const rents = await ledger.logs(
    {
      fromBlock: 0,
      toBlock: latest.number,
      addresses: [CONTRACT_ADDRESSES.storageRegistry],
      topics: [[RENT_TOPIC!], null, [fidTopic(fid)]],
    },
    ALL,
  );
  let storageUnits = 0;
  for (const log of rents) {
    const block = await ledger.blockByNumber(log.blockNumber);
    if (block!.timestamp <= since) continue;
    const { args } = decodeEventLog({
      abi: storageRegistryAbi,
      eventName: "Rent",
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
    });
    storageUnits += Number(args.units);
  }
  return {
    fid,
    custody: getAddress(addresses.custody),
    recovery: getAddress(addresses.recovery),
    signers,
    storageUnits,
  };
}

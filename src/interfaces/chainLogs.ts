/**
 * The hub's on-chain events as the reference hubs derive them from the registries' logs
 * (docs/reference/contracts.md §10, docs/reference/protocol-wire.md §4): one event per Register,
 * Transfer and ChangeRecoveryAddress of the IdRegistry, Add, Remove, AdminReset and Migrated of the
 * KeyRegistry and Rent of the StorageRegistry. Field for field they are what the devchain records
 * for the same action, so that a hub following JSON-RPC and one following the devchain in process
 * hold the same events.
 */
import {
  type Address,
  type Hex,
  type Log,
  decodeEventLog,
  hexToBytes,
  isAddressEqual,
  parseAbiItem,
  toEventSelector,
} from "viem";
import {
  IdRegisterEventType,
  type OnChainEvent,
  OnChainEventType,
  SignerEventType,
} from "../protocol/generated/onchain_event.js";
import { idRegistryAbi, keyRegistryAbi, storageRegistryAbi } from "../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../protocol/registryAddresses.js";
import { toProtocolTime } from "../protocol/time.js";

/** Where the three registries whose logs become events live. */
export interface RegistryAddresses {
  idRegistry: Address;
  keyRegistry: Address;
  storageRegistry: Address;
}

/** The OP-mainnet registries (also where the devchain serves them). */
export const OP_MAINNET_REGISTRIES: RegistryAddresses = {
  idRegistry: CONTRACT_ADDRESSES.idRegistry,
  keyRegistry: CONTRACT_ADDRESSES.keyRegistry,
  storageRegistry: CONTRACT_ADDRESSES.storageRegistry,
};

/** The block a log was mined in, as eth_getBlockByHash tells it (timestamp in Unix seconds). */
export interface LogBlock {
  hash: Hex;
  number: number;
  timestamp: number;
}

/** The registries' event versions (docs/reference/protocol-wire.md §4). */
const ID_REGISTRY_VERSION = 2;
const KEY_REGISTRY_VERSION = 2;
const STORAGE_REGISTRY_VERSION = 0;
const RENT_PERIOD_SECONDS = 365 * 24 * 60 * 60;
const MAX_UINT32 = 0xffff_ffff;

// The KeyRegistry's end-of-migration event; the devchain never emits it, so castnet's ABI lacks it.
const migratedEvent = parseAbiItem("event Migrated(uint256 indexed migratedAt)");
const keyRegistryEvents = [...keyRegistryAbi, migratedEvent];

type Registry = keyof RegistryAddresses;

function topicsOf(abi: readonly { type: string; name?: string }[], names: readonly string[]): Hex[] {
  return abi
    .filter((item) => item.type === "event" && names.includes(item.name!))
    .map((item) => toEventSelector(item as Parameters<typeof toEventSelector>[0]));
}

/**
 * Topic0 of each event that becomes an on-chain event, by registry. IdRegistry's `Recover` is left
 * out as both reference hubs leave it: the `Transfer` logged after it moves the fid.
 */
const DERIVED_TOPICS: Record<Registry, ReadonlySet<Hex>> = {
  idRegistry: new Set(topicsOf(idRegistryAbi, ["Register", "Transfer", "ChangeRecoveryAddress"])),
  keyRegistry: new Set(topicsOf(keyRegistryEvents, ["Add", "Remove", "AdminReset", "Migrated"])),
  storageRegistry: new Set(topicsOf(storageRegistryAbi, ["Rent"])),
};

/** Topic0 of every log that may become an event: the OR-list an eth_getLogs filter asks for. */
export const REGISTRY_EVENT_TOPICS: Hex[] = [
  ...new Set(Object.values(DERIVED_TOPICS).flatMap((topics) => [...topics])),
];

type EventBody = Pick<
  OnChainEvent,
  | "type"
  | "version"
  | "idRegisterEventBody"
  | "signerEventBody"
  | "storageRentEventBody"
  | "signerMigratedEventBody"
>;

/** A log's event before its place on the chain is added. */
interface Derived {
  fid: number;
  body: EventBody;
}

const EMPTY = new Uint8Array(0);

function fidOf(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new Error(`fid ${value} is beyond what castnet can hold`);
  return Number(value);
}

function uint32(value: bigint | number, field: string): number {
  if (BigInt(value) > BigInt(MAX_UINT32)) throw new Error(`${field} ${value} does not fit an on-chain event`);
  return Number(value);
}

function registryOf(address: Address, registries: RegistryAddresses): Registry | undefined {
  return (Object.keys(DERIVED_TOPICS) as Registry[]).find((registry) =>
    isAddressEqual(address, registries[registry]),
  );
}

/** Whether a log of `registries` becomes an on-chain event (its topic0 is one the hubs derive). */
export function isRegistryEventLog(
  log: Pick<Log, "address" | "topics">,
  registries: RegistryAddresses = OP_MAINNET_REGISTRIES,
): boolean {
  const registry = registryOf(log.address, registries);
  const topic0 = log.topics[0];
  return registry !== undefined && topic0 !== undefined && DERIVED_TOPICS[registry].has(topic0);
}

function idRegistryEvent(log: Log): Derived | undefined {
  const decoded = decodeEventLog({ abi: idRegistryAbi, data: log.data, topics: log.topics, strict: true });
  const id = (eventType: IdRegisterEventType, to: Uint8Array, from: Uint8Array, recovery: Uint8Array) => ({
    type: OnChainEventType.EVENT_TYPE_ID_REGISTER,
    version: ID_REGISTRY_VERSION,
    idRegisterEventBody: { to, eventType, from, recoveryAddress: recovery },
  });
  switch (decoded.eventName) {
    case "Register": {
      const { to, id: fid, recovery } = decoded.args;
      return {
        fid: fidOf(fid),
        body: id(IdRegisterEventType.REGISTER, hexToBytes(to), EMPTY, hexToBytes(recovery)),
      };
    }
    case "Transfer": {
      const { from, to, id: fid } = decoded.args;
      return {
        fid: fidOf(fid),
        body: id(IdRegisterEventType.TRANSFER, hexToBytes(to), hexToBytes(from), EMPTY),
      };
    }
    case "ChangeRecoveryAddress": {
      const { id: fid, recovery } = decoded.args;
      return {
        fid: fidOf(fid),
        body: id(IdRegisterEventType.CHANGE_RECOVERY, EMPTY, EMPTY, hexToBytes(recovery)),
      };
    }
    default:
      return undefined;
  }
}

function keyRegistryEvent(log: Log): Derived | undefined {
  const decoded = decodeEventLog({
    abi: keyRegistryEvents,
    data: log.data,
    topics: log.topics,
    strict: true,
  });
  const signer = (signerEventBody: NonNullable<OnChainEvent["signerEventBody"]>) => ({
    type: OnChainEventType.EVENT_TYPE_SIGNER,
    version: KEY_REGISTRY_VERSION,
    signerEventBody,
  });
  switch (decoded.eventName) {
    case "Add": {
      const { fid, keyType, keyBytes, metadataType, metadata } = decoded.args;
      return {
        fid: fidOf(fid),
        body: signer({
          key: hexToBytes(keyBytes),
          keyType: uint32(keyType, "keyType"),
          eventType: SignerEventType.ADD,
          metadata: hexToBytes(metadata),
          metadataType,
        }),
      };
    }
    case "Remove":
    case "AdminReset": {
      const { fid, keyBytes } = decoded.args;
      const eventType = decoded.eventName === "Remove" ? SignerEventType.REMOVE : SignerEventType.ADMIN_RESET;
      return {
        fid: fidOf(fid),
        body: signer({ key: hexToBytes(keyBytes), keyType: 0, eventType, metadata: EMPTY, metadataType: 0 }),
      };
    }
    case "Migrated":
      return {
        fid: 0,
        body: {
          type: OnChainEventType.EVENT_TYPE_SIGNER_MIGRATED,
          version: KEY_REGISTRY_VERSION,
          signerMigratedEventBody: { migratedAt: uint32(decoded.args.migratedAt, "migratedAt") },
        },
      };
    default:
      return undefined;
  }
}

function storageRegistryEvent(log: Log, block: LogBlock): Derived | undefined {
  const decoded = decodeEventLog({
    abi: storageRegistryAbi,
    data: log.data,
    topics: log.topics,
    strict: true,
  });
  if (decoded.eventName !== "Rent") return undefined;
  const { payer, fid, units } = decoded.args;
  return {
    fid: fidOf(fid),
    body: {
      type: OnChainEventType.EVENT_TYPE_STORAGE_RENT,
      version: STORAGE_REGISTRY_VERSION,
      storageRentEventBody: {
        payer: hexToBytes(payer),
        units: uint32(units, "units"),
        // In protocol-epoch seconds, as the reference hub writes it (docs/reference/protocol-wire.md §4).
        expiry: toProtocolTime(block.timestamp * 1000) + RENT_PERIOD_SECONDS,
      },
    },
  };
}

/**
 * The hub's event for a registry log mined in `block`, or undefined for a log that makes none: of
 * another contract or event, removed by a reorganisation, or still pending (without a block hash,
 * block number, transaction hash, transaction index or log index, which both reference hubs skip).
 * A log of a registry's event that does not decode is an error: the node or the addresses are wrong.
 */
export function onChainEventOfLog(
  log: Log,
  block: LogBlock,
  chainId: number,
  registries: RegistryAddresses = OP_MAINNET_REGISTRIES,
): OnChainEvent | undefined {
  const { transactionHash, transactionIndex, logIndex } = log;
  if (
    log.removed ||
    log.blockHash === null ||
    log.blockNumber === null ||
    transactionHash === null ||
    transactionIndex === null ||
    logIndex === null ||
    !isRegistryEventLog(log, registries)
  ) {
    return undefined;
  }
  const registry = registryOf(log.address, registries);
  const derived =
    registry === "idRegistry"
      ? idRegistryEvent(log)
      : registry === "keyRegistry"
        ? keyRegistryEvent(log)
        : storageRegistryEvent(log, block);
  if (derived === undefined) return undefined;
  return {
    ...derived.body,
    chainId,
    blockNumber: block.number,
    blockHash: hexToBytes(block.hash),
    blockTimestamp: block.timestamp,
    transactionHash: hexToBytes(transactionHash),
    logIndex,
    fid: derived.fid,
    txIndex: transactionIndex,
  };
}

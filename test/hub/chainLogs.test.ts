/**
 * The hub's on-chain events derived from the registries' logs (src/interfaces/chainLogs.ts), for logs
 * viem encodes from the reference client library's ABIs: the fields contracts.md §10 names, and
 * exactly the event the devchain records for the same action.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import {
  type Abi,
  type AbiEvent,
  type Address,
  type Hex,
  type Log,
  bytesToHex,
  encodeEventTopics,
  getAddress,
  hexToBytes,
  keccak256,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { onChainEventOfLog, type LogBlock } from "../../src/interfaces/chainLogs.js";
import {
  IdRegisterEventType,
  OnChainEvent,
  OnChainEventType,
  SignerEventType,
} from "../../src/protocol/generated/onchain_event.js";
import { toProtocolTime } from "../../src/protocol/time.js";
import { testEngines } from "../support/databases.js";
import { type EmittedLog, ID_GATEWAY, registryLog } from "../support/registryLogs.js";
import { startTestStack, type TestStack } from "../support/stack.js";

const BLOCK: LogBlock = {
  hash: keccak256(toHex("block 42")),
  number: 42,
  timestamp: Math.floor(Date.parse("2025-03-01T12:00:00Z") / 1000),
};
const TX = keccak256(toHex("transaction"));
const YEAR = 365 * 24 * 60 * 60;

/** A log as viem's getLogs returns it, mined in `block` by transaction `txIndex` at `logIndex`. */
function mined(
  log: EmittedLog,
  place: { logIndex?: number; txIndex?: number; tx?: Hex } = {},
  block = BLOCK,
): Log {
  return {
    ...log,
    topics: log.topics as [Hex, ...Hex[]],
    blockHash: block.hash,
    blockNumber: BigInt(block.number),
    transactionHash: place.tx ?? TX,
    transactionIndex: place.txIndex ?? 3,
    logIndex: place.logIndex ?? 7,
    removed: false,
  };
}

const bytes = (hex: Hex) => hexToBytes(hex);
const address = () => privateKeyToAccount(generatePrivateKey()).address;

/** The fields every event takes from the log and its block. */
const placed = {
  chainId: 10,
  blockNumber: BLOCK.number,
  blockHash: bytes(BLOCK.hash),
  blockTimestamp: BLOCK.timestamp,
  transactionHash: bytes(TX),
  logIndex: 7,
  txIndex: 3,
};

function derive(log: EmittedLog): OnChainEvent | undefined {
  return onChainEventOfLog(mined(log), BLOCK, 10);
}

describe("on-chain events from registry logs", () => {
  const custody = address();
  const recovery = address();
  const key = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const metadata = toHex(crypto.getRandomValues(new Uint8Array(288)));

  it("derives the IdRegistry's Register, Transfer and ChangeRecoveryAddress", () => {
    assert.deepEqual(derive(registryLog.register(custody, 12, recovery)), {
      ...placed,
      type: OnChainEventType.EVENT_TYPE_ID_REGISTER,
      version: 2,
      fid: 12,
      idRegisterEventBody: {
        eventType: IdRegisterEventType.REGISTER,
        to: bytes(custody),
        from: new Uint8Array(0),
        recoveryAddress: bytes(recovery),
      },
    });
    assert.deepEqual(derive(registryLog.transfer(custody, recovery, 12))?.idRegisterEventBody, {
      eventType: IdRegisterEventType.TRANSFER,
      to: bytes(recovery),
      from: bytes(custody),
      recoveryAddress: new Uint8Array(0),
    });
    assert.deepEqual(derive(registryLog.changeRecoveryAddress(12, custody))?.idRegisterEventBody, {
      eventType: IdRegisterEventType.CHANGE_RECOVERY,
      to: new Uint8Array(0),
      from: new Uint8Array(0),
      recoveryAddress: bytes(custody),
    });
  });

  it("derives the KeyRegistry's Add, Remove, AdminReset and Migrated", () => {
    assert.deepEqual(derive(registryLog.add(12, key, metadata)), {
      ...placed,
      type: OnChainEventType.EVENT_TYPE_SIGNER,
      version: 2,
      fid: 12,
      signerEventBody: {
        key: bytes(key),
        keyType: 1,
        eventType: SignerEventType.ADD,
        metadata: bytes(metadata),
        metadataType: 1,
      },
    });
    // An auth address (key type 2) is an event too: the hub keeps it out of its signers itself.
    assert.equal(derive(registryLog.add(12, key, metadata, 2))?.signerEventBody?.keyType, 2);
    for (const [log, eventType] of [
      [registryLog.remove(12, key), SignerEventType.REMOVE],
      [registryLog.adminReset(12, key), SignerEventType.ADMIN_RESET],
    ] as const) {
      assert.deepEqual(derive(log)?.signerEventBody, {
        key: bytes(key),
        keyType: 0,
        eventType,
        metadata: new Uint8Array(0),
        metadataType: 0,
      });
    }
    assert.deepEqual(derive(registryLog.migrated(1_700_000_000)), {
      ...placed,
      type: OnChainEventType.EVENT_TYPE_SIGNER_MIGRATED,
      version: 2,
      fid: 0,
      signerMigratedEventBody: { migratedAt: 1_700_000_000 },
    });
  });

  it("derives the StorageRegistry's Rent, valid for a year from its block in protocol time", () => {
    assert.deepEqual(derive(registryLog.rent(ID_GATEWAY, 12, 5)), {
      ...placed,
      type: OnChainEventType.EVENT_TYPE_STORAGE_RENT,
      version: 0,
      fid: 12,
      storageRentEventBody: {
        payer: bytes(ID_GATEWAY),
        units: 5,
        expiry: toProtocolTime(BLOCK.timestamp * 1000) + YEAR,
      },
    });
  });

  it("makes nothing of Recover, other contracts, other events, and logs not (or no longer) mined", () => {
    const register = registryLog.register(custody, 12, recovery);
    const guardian = (core.keyRegistryABI as Abi).find(
      (item): item is AbiEvent => item.type === "event" && item.name === "Add" && item.inputs.length === 1,
    )!;
    const guardianAdd: EmittedLog = {
      address: core.KEY_REGISTRY_ADDRESS,
      topics: encodeEventTopics({ abi: [guardian], args: { guardian: custody } } as never) as Hex[],
      data: "0x",
    };
    const cases: [string, Log][] = [
      ["Recover", mined(registryLog.recover(custody, recovery, 12))],
      ["a guardian's Add", mined(guardianAdd)],
      // The IdRegistry's Migrated shares its topic with the KeyRegistry's; only the latter counts.
      ["the IdRegistry's Migrated", mined({ ...registryLog.migrated(1), address: core.ID_REGISTRY_ADDRESS })],
      [
        "an ERC-20 Transfer elsewhere",
        mined({ ...registryLog.transfer(custody, recovery, 12), address: address() }),
      ],
      ["a removed log", { ...mined(register), removed: true }],
      [
        "a pending log",
        { ...mined(register), blockHash: null, blockNumber: null, logIndex: null } as unknown as Log,
      ],
    ];
    for (const [what, log] of cases) assert.equal(onChainEventOfLog(log, BLOCK, 10), undefined, what);
  });

  it("reads the registries at the addresses it is given, and stamps the chain id given", () => {
    const registries = { idRegistry: address(), keyRegistry: address(), storageRegistry: address() };
    const elsewhere = { ...registryLog.register(custody, 12, recovery), address: registries.idRegistry };
    assert.equal(onChainEventOfLog(mined(elsewhere), BLOCK, 10), undefined);
    assert.equal(onChainEventOfLog(mined(elsewhere), BLOCK, 31337, registries)?.chainId, 31337);
  });

  it("refuses a registry log that does not decode", () => {
    const truncated = { ...registryLog.rent(ID_GATEWAY, 12, 5), data: "0x01" as Hex };
    assert.throws(() => derive(truncated));
  });
});

for (const engine of (await testEngines()).filter((e) => e.engine === "sqlite")) {
  describe("on-chain events from logs, against the devchain's own", () => {
    let stack: TestStack<never>;
    before(async () => {
      stack = await startTestStack(engine, { parts: [] });
    });
    after(async () => {
      await stack?.close();
    });

    it("are the event the devchain records for the same action, byte for byte", async () => {
      const devchain = stack.chain.chain;
      const custody = address();
      const recovery = address();
      const key = toHex(crypto.getRandomValues(new Uint8Array(32)));
      const metadata = toHex(crypto.getRandomValues(new Uint8Array(288)));
      const { fid } = await devchain.register({ custody, recovery });
      await devchain.rentStorage(fid, 3);
      await devchain.addKey({ fid, key, metadata });
      await devchain.removeKey(fid, key);
      // What each action logs on the real registries (the devchain charges rent to the custody).
      const logs = [
        registryLog.register(custody, fid, recovery),
        registryLog.rent(custody, fid, 3),
        registryLog.add(fid, key, metadata),
        registryLog.remove(fid, key),
      ];
      const events = (await devchain.eventsFromBlock(0, 100)).filter((event) => event.fid === fid);
      assert.equal(events.length, logs.length);
      events.forEach((event, i) => {
        const block = {
          hash: bytesToHex(event.blockHash),
          number: event.blockNumber,
          timestamp: event.blockTimestamp,
        };
        const log = mined(
          logs[i]!,
          { logIndex: event.logIndex, txIndex: event.txIndex, tx: bytesToHex(event.transactionHash) },
          block,
        );
        const derived = onChainEventOfLog({ ...log, address: getAddress(log.address) as Address }, block, 10);
        assert.ok(derived);
        assert.equal(
          bytesToHex(OnChainEvent.encode(derived).finish()),
          bytesToHex(OnChainEvent.encode(event).finish()),
        );
      });
    });
  });
}

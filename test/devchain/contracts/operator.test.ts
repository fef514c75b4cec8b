/**
 * The operator's writes (src/devchain/contracts/operator.ts): the logs of the real flows without
 * signatures or payment, the same checks and reverts, and the typed reads (reads.ts) the ledger
 * and the REST door use.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hexToBytes, zeroAddress, type Hex } from "viem";
import {
  operatorAddKey,
  operatorChangeRecovery,
  operatorRegister,
  operatorRemoveKey,
  operatorRent,
  operatorTransfer,
} from "../../../src/devchain/contracts/operator.js";
import {
  activeKeys,
  fidOfAddress,
  KeyState,
  keysOf,
  readFid,
  rentedUnits,
} from "../../../src/devchain/contracts/reads.js";
import { ADDRESSES, TestChain, account, decodedLogs, key, revertOf, signed } from "./support.js";

const operator = account("operator");
const app = account("app");
const user = account("user");
const other = account("other");

/** A chain where the app holds fid 1 and the user fid 2, both registered by the operator. */
async function chainWithFids(): Promise<TestChain> {
  const chain = new TestChain();
  for (const to of [app.address, user.address]) {
    await chain.operate(operator.address, (ctx) =>
      operatorRegister(ctx, { to, recovery: zeroAddress, extraUnits: 0n }),
    );
  }
  return chain;
}

async function metadataFor(keyBytes: Hex, deadline: bigint): Promise<Hex> {
  return signed(
    app.signer.getSignedKeyRequestMetadata({ requestFid: 1n, key: hexToBytes(keyBytes), deadline }),
  );
}

describe("the operator's writes", () => {
  it("registers as IdGateway.register does: Register, then Rent paid by the IdGateway", async () => {
    const chain = new TestChain();
    const { result, logs } = await chain.operate(operator.address, (ctx) =>
      operatorRegister(ctx, { to: user.address, recovery: other.address, extraUnits: 2n }),
    );
    assert.deepEqual(result, { fid: 1n });
    assert.deepEqual(decodedLogs(logs), [
      {
        contract: "idRegistry",
        eventName: "Register",
        args: { to: user.address, id: 1n, recovery: other.address },
      },
      {
        contract: "storageRegistry",
        eventName: "Rent",
        args: { payer: ADDRESSES.idGateway, fid: 1n, units: 3n },
      },
    ]);
    assert.deepEqual(await readFid(chain.state, 1n), { custody: user.address, recovery: other.address });
    assert.equal(await readFid(chain.state, 2n), undefined);
    assert.equal(await fidOfAddress(chain.state, user.address), 1n);
    assert.equal(await fidOfAddress(chain.state, other.address), undefined);
    assert.equal(await rentedUnits(chain.state), 3n);
    assert.equal(chain.balance(operator.address), 0n, "nothing paid");

    const again = chain.operate(operator.address, (ctx) =>
      operatorRegister(ctx, { to: user.address, recovery: zeroAddress, extraUnits: 0n }),
    );
    assert.deepEqual(await revertOf(again, "idRegistry"), { errorName: "HasId", args: [] });
    const toNobody = chain.operate(operator.address, (ctx) =>
      operatorRegister(ctx, { to: zeroAddress, recovery: zeroAddress, extraUnits: 0n }),
    );
    assert.deepEqual(await revertOf(toNobody, "idGateway"), { errorName: "InvalidSignature", args: [] });
  });

  it("adds and removes keys as the custody would, vouching for the metadata", async () => {
    const chain = await chainWithFids();
    const metadata = await metadataFor(key(1), chain.deadline());
    const add = { fid: 2n, keyType: 1, key: key(1), metadataType: 1, metadata };
    const { logs } = await chain.operate(operator.address, (ctx) => operatorAddKey(ctx, add));
    assert.deepEqual(
      decodedLogs(logs).map((log) => [log.eventName, (log.args as { fid: bigint }).fid]),
      [["Add", 2n]],
    );
    await chain.operate(operator.address, async (ctx) =>
      operatorAddKey(ctx, { ...add, key: key(2), metadata: await metadataFor(key(2), chain.deadline()) }),
    );
    assert.deepEqual(await activeKeys(chain.state, 2n), [
      { key: key(1), keyType: 1 },
      { key: key(2), keyType: 1 },
    ]);

    // Metadata the validator would refuse (it was signed for another key) is kept as given.
    await chain.operate(operator.address, (ctx) => operatorAddKey(ctx, { ...add, key: key(3) }));
    const twice = chain.operate(operator.address, (ctx) => operatorAddKey(ctx, add));
    assert.deepEqual(await revertOf(twice, "keyGateway"), { errorName: "InvalidState", args: [] });
    const noFid = chain.operate(operator.address, (ctx) => operatorAddKey(ctx, { ...add, fid: 9n }));
    assert.deepEqual(await revertOf(noFid, "keyRegistry"), { errorName: "Unauthorized", args: [] });

    const removed = await chain.operate(operator.address, (ctx) =>
      operatorRemoveKey(ctx, { fid: 2n, key: key(1) }),
    );
    assert.deepEqual(
      decodedLogs(removed.logs).map((log) => log.eventName),
      ["Remove"],
    );
    // Swap-and-pop: the last added key takes the removed one's place.
    assert.deepEqual(await activeKeys(chain.state, 2n), [
      { key: key(3), keyType: 1 },
      { key: key(2), keyType: 1 },
    ]);
    assert.deepEqual(await keysOf(chain.state, 2n, KeyState.removed), [key(1)]);
  });

  it("rents with the operator as payer", async () => {
    const chain = await chainWithFids();
    const { logs } = await chain.operate(operator.address, (ctx) =>
      operatorRent(ctx, { fid: 2n, units: 5n }),
    );
    assert.deepEqual(
      decodedLogs(logs).map((log) => log.args),
      [{ payer: operator.address, fid: 2n, units: 5n }],
    );
    assert.equal(await rentedUnits(chain.state), 7n);
    const none = chain.operate(operator.address, (ctx) => operatorRent(ctx, { fid: 2n, units: 0n }));
    assert.deepEqual(await revertOf(none, "storageRegistry"), { errorName: "InvalidAmount", args: [] });
  });

  it("transfers a fid and changes its recovery address as the custody would", async () => {
    const chain = await chainWithFids();
    const { logs } = await chain.operate(operator.address, (ctx) =>
      operatorTransfer(ctx, { fid: 2n, to: other.address }),
    );
    assert.deepEqual(
      decodedLogs(logs).map((log) => [log.eventName, log.args]),
      [["Transfer", { from: user.address, to: other.address, id: 2n }]],
    );
    assert.deepEqual(await readFid(chain.state, 2n), { custody: other.address, recovery: zeroAddress });
    assert.equal(await fidOfAddress(chain.state, user.address), undefined);

    const changed = await chain.operate(operator.address, (ctx) =>
      operatorChangeRecovery(ctx, { fid: 2n, recovery: app.address }),
    );
    assert.deepEqual(
      decodedLogs(changed.logs).map((log) => [log.eventName, log.args]),
      [["ChangeRecoveryAddress", { id: 2n, recovery: app.address }]],
    );
    assert.deepEqual(await readFid(chain.state, 2n), { custody: other.address, recovery: app.address });

    const toHolder = chain.operate(operator.address, (ctx) =>
      operatorTransfer(ctx, { fid: 2n, to: app.address }),
    );
    assert.deepEqual(await revertOf(toHolder, "idRegistry"), { errorName: "HasId", args: [] });
    const unknown = chain.operate(operator.address, (ctx) =>
      operatorTransfer(ctx, { fid: 9n, to: user.address }),
    );
    assert.deepEqual(await revertOf(unknown, "idRegistry"), { errorName: "HasNoId", args: [] });
    const toNobody = chain.operate(operator.address, (ctx) =>
      operatorTransfer(ctx, { fid: 2n, to: zeroAddress }),
    );
    assert.deepEqual(await revertOf(toNobody, "idRegistry"), { errorName: "InvalidSignature", args: [] });
    const noRecovery = chain.operate(operator.address, (ctx) =>
      operatorChangeRecovery(ctx, { fid: 9n, recovery: app.address }),
    );
    assert.deepEqual(await revertOf(noRecovery, "idRegistry"), { errorName: "HasNoId", args: [] });
  });
});

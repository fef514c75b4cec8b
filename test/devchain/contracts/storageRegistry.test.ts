/**
 * StorageRegistry's model (docs/reference/contracts.md §7): rent and batchRent at the configured
 * price, refunds of overpayment in balances, and the checks in each function's order.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ADDRESSES, ETHER, TestChain, UNIT_PRICE, account, decodedLogs, revertOf } from "./support.js";

const payer = account("payer");

function fundedChain(): TestChain {
  const chain = new TestChain();
  chain.fund(payer.address, ETHER);
  return chain;
}

describe("StorageRegistry", () => {
  it("rents units for any fid and refunds the overpayment", async () => {
    const chain = fundedChain();
    const { result, logs } = await chain.send({
      from: payer.address,
      to: "storageRegistry",
      functionName: "rent",
      args: [5n, 3n],
      value: 3n * UNIT_PRICE + 42n,
    });
    assert.equal(result, 42n);
    assert.deepEqual(decodedLogs(logs), [
      { contract: "storageRegistry", eventName: "Rent", args: { payer: payer.address, fid: 5n, units: 3n } },
    ]);
    assert.equal(await chain.read("storageRegistry", "rentedUnits"), 3n);
    assert.equal(chain.balance(payer.address), ETHER - 3n * UNIT_PRICE);
    assert.equal(chain.balance(ADDRESSES.storageRegistry), 3n * UNIT_PRICE);
  });

  it("refuses zero units, short payment and units past the capacity", async () => {
    const chain = fundedChain();
    chain.prices = { ...chain.prices, maxStorageUnits: 4n };
    const rent = (units: bigint, value: bigint) =>
      chain.send({
        from: payer.address,
        to: "storageRegistry",
        functionName: "rent",
        args: [1n, units],
        value,
      });
    assert.deepEqual(await revertOf(rent(0n, 0n), "storageRegistry"), {
      errorName: "InvalidAmount",
      args: [],
    });
    assert.deepEqual(await revertOf(rent(2n, 2n * UNIT_PRICE - 1n), "storageRegistry"), {
      errorName: "InvalidPayment",
      args: [],
    });
    await rent(4n, 4n * UNIT_PRICE);
    // Both over capacity and short: rent checks capacity first.
    assert.deepEqual(await revertOf(rent(1n, 0n), "storageRegistry"), {
      errorName: "ExceedsCapacity",
      args: [],
    });
    assert.equal(chain.balance(payer.address), ETHER - 4n * UNIT_PRICE);
  });

  it("batch-rents, skipping zero entries, and refunds", async () => {
    const chain = fundedChain();
    const { logs } = await chain.send({
      from: payer.address,
      to: "storageRegistry",
      functionName: "batchRent",
      args: [
        [1n, 2n, 3n],
        [2n, 0n, 1n],
      ],
      value: ETHER / 2n,
    });
    assert.deepEqual(
      decodedLogs(logs).map((log) => log.args),
      [
        { payer: payer.address, fid: 1n, units: 2n },
        { payer: payer.address, fid: 3n, units: 1n },
      ],
    );
    assert.equal(await chain.read("storageRegistry", "rentedUnits"), 3n);
    assert.equal(chain.balance(payer.address), ETHER - 3n * UNIT_PRICE);
  });

  it("refuses bad batches, and checks payment before capacity", async () => {
    const chain = fundedChain();
    chain.prices = { ...chain.prices, maxStorageUnits: 2n };
    const batch = (fids: bigint[], units: bigint[], value = 0n) =>
      chain.send({
        from: payer.address,
        to: "storageRegistry",
        functionName: "batchRent",
        args: [fids, units],
        value,
      });
    for (const [fids, units] of [
      [[], []],
      [[1n], []],
      [[1n, 2n], [1n]],
    ] as [bigint[], bigint[]][]) {
      assert.deepEqual(await revertOf(batch(fids, units), "storageRegistry"), {
        errorName: "InvalidBatchInput",
        args: [],
      });
    }
    assert.deepEqual(await revertOf(batch([1n], [3n]), "storageRegistry"), {
      errorName: "InvalidPayment",
      args: [],
    });
    assert.deepEqual(await revertOf(batch([1n], [3n], 3n * UNIT_PRICE), "storageRegistry"), {
      errorName: "ExceedsCapacity",
      args: [],
    });
  });
});

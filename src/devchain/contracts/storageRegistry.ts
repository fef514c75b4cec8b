/**
 * StorageRegistry (docs/reference/contracts.md §7): storage units rented for any fid at the chain's
 * configured price, overpayment refunded to the caller. The fid is not checked.
 */
import { storageRegistryAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { contractModel, emit, moveEther, revert, uint256 } from "./execution.js";
import { rentedUnits } from "./reads.js";
import { stateKey, type CallContext } from "./state.js";

const ADDRESS = CONTRACT_ADDRESSES.storageRegistry;

/** Wei for `units` units. */
export function price(ctx: CallContext, units: bigint): bigint {
  return uint256(units * ctx.prices.storageUnitPrice);
}

/** The units ever rented after renting `units` more, or `ExceedsCapacity` past `maxUnits`. */
async function rentedAfter(ctx: CallContext, units: bigint): Promise<bigint> {
  const total = uint256((await rentedUnits(ctx.state)) + units);
  if (total > ctx.prices.maxStorageUnits) throw revert(storageRegistryAbi, "ExceedsCapacity");
  return total;
}

/** Sends what the call paid beyond `cost` back to the caller; returns it. */
async function refund(ctx: CallContext, cost: bigint): Promise<bigint> {
  const overpayment = ctx.value - cost;
  await moveEther(ctx, ADDRESS, ctx.sender, overpayment);
  return overpayment;
}

/** `rent(fid, units)` paid with the call's value; returns the overpayment refunded to the caller. */
export async function rent(ctx: CallContext, fid: bigint, units: bigint): Promise<bigint> {
  if (units === 0n) throw revert(storageRegistryAbi, "InvalidAmount");
  const total = await rentedAfter(ctx, units);
  const cost = price(ctx, units);
  if (ctx.value < cost) throw revert(storageRegistryAbi, "InvalidPayment");
  ctx.state.setBigInt(stateKey.rentedUnits(), total);
  emit(ctx, ADDRESS, storageRegistryAbi, "Rent", { payer: ctx.sender, fid, units });
  return refund(ctx, cost);
}

/** `batchRent`: one `Rent` per non-zero entry; payment checked before capacity, unlike `rent` (§7). */
async function batchRent(ctx: CallContext, fids: readonly bigint[], units: readonly bigint[]): Promise<void> {
  if (fids.length === 0 || units.length === 0 || fids.length !== units.length) {
    throw revert(storageRegistryAbi, "InvalidBatchInput");
  }
  let total = 0n;
  fids.forEach((fid, i) => {
    const count = units[i] ?? 0n;
    if (count === 0n) return;
    total = uint256(total + count);
    emit(ctx, ADDRESS, storageRegistryAbi, "Rent", { payer: ctx.sender, fid, units: count });
  });
  const cost = price(ctx, total);
  if (ctx.value < cost) throw revert(storageRegistryAbi, "InvalidPayment");
  ctx.state.setBigInt(stateKey.rentedUnits(), await rentedAfter(ctx, total));
  await refund(ctx, cost);
}

export const storageRegistry = contractModel({
  address: ADDRESS,
  abi: storageRegistryAbi,
  async run(ctx, call) {
    switch (call.functionName) {
      case "unitPrice":
        return price(ctx, 1n);
      case "price":
        return price(ctx, call.args[0]);
      case "rentedUnits":
        return rentedUnits(ctx.state);
      case "maxUnits":
        return ctx.prices.maxStorageUnits;
      case "rent":
        return rent(ctx, ...call.args);
      case "batchRent":
        return batchRent(ctx, ...call.args);
    }
  },
});

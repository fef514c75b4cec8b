/**
 * The devchain operator's writes, behind castnet's REST door: the real flows without their
 * signatures and payments, emitting exactly the logs those flows emit (docs/reference/contracts.md
 * §3–§7), with the same checks and reverts. The operator stands in for every signature but the
 * zero address's, which no one can make (§3), and writes at a storage price of zero. `ctx.value`
 * is ignored.
 */
import { zeroAddress, type Address, type Hex } from "viem";
import { signatureErrorsAbi } from "../../protocol/registryAbis.js";
import { revert, sameAddress } from "./execution.js";
import { register } from "./idGateway.js";
import { moveFid, requireFid, setRecovery, validateTransfer } from "./idRegistry.js";
import { addOwn } from "./keyGateway.js";
import { removeOwn } from "./keyRegistry.js";
import { custodyOf } from "./reads.js";
import type { CallContext } from "./state.js";
import { rent } from "./storageRegistry.js";

/** `ctx` as `sender` calling without value, storage costing nothing. */
function unpaid(ctx: CallContext, sender: Address): CallContext {
  return { ...ctx, sender, value: 0n, prices: { ...ctx.prices, storageUnitPrice: 0n } };
}

/** The signature the real flow needs from `signer`, granted unless no one can make it. */
function grantSignature(signer: Address): void {
  if (sameAddress(signer, zeroAddress)) throw revert(signatureErrorsAbi, "InvalidSignature");
}

/** As IdGateway.registerFor for `to`: `Register`, then `Rent` of 1 + extra units paid by the IdGateway. */
export async function operatorRegister(
  ctx: CallContext,
  request: { to: Address; recovery: Address; extraUnits: bigint },
): Promise<{ fid: bigint }> {
  const { to, recovery, extraUnits } = request;
  grantSignature(to);
  const [fid] = await register(unpaid(ctx, to), { to, recovery, extraStorage: extraUnits });
  return { fid };
}

/**
 * As KeyGateway.add by the fid's custody: every KeyRegistry check but the validator's, since the
 * operator vouches for the metadata (the REST routes have always kept metadata as given).
 */
export async function operatorAddKey(
  ctx: CallContext,
  request: { fid: bigint; keyType: number; key: Hex; metadataType: number; metadata: Hex },
): Promise<void> {
  const { fid, ...key } = request;
  await addOwn(unpaid(ctx, await custodyOf(ctx.state, fid)), { ...key, vouched: true });
}

/** As KeyRegistry.remove by the fid's custody. */
export async function operatorRemoveKey(ctx: CallContext, request: { fid: bigint; key: Hex }): Promise<void> {
  await removeOwn(unpaid(ctx, await custodyOf(ctx.state, request.fid)), request.key);
}

/** As StorageRegistry.rent by the operator (`ctx.sender`, the `Rent` log's payer). */
export async function operatorRent(ctx: CallContext, request: { fid: bigint; units: bigint }): Promise<void> {
  await rent(unpaid(ctx, ctx.sender), request.fid, request.units);
}

/** As IdRegistry.transfer by the fid's custody to `to`: `Transfer`; the recovery address stays. */
export async function operatorTransfer(
  ctx: CallContext,
  request: { fid: bigint; to: Address },
): Promise<void> {
  const { to } = request;
  const custody = await custodyOf(ctx.state, request.fid);
  const call = unpaid(ctx, custody);
  const fid = await validateTransfer(call, custody, to);
  grantSignature(to);
  await moveFid(call, fid, custody, to);
}

/** As IdRegistry.changeRecoveryAddress by the fid's custody. */
export async function operatorChangeRecovery(
  ctx: CallContext,
  request: { fid: bigint; recovery: Address },
): Promise<void> {
  const custody = await custodyOf(ctx.state, request.fid);
  const call = unpaid(ctx, custody);
  setRecovery(call, await requireFid(call, custody), request.recovery);
}

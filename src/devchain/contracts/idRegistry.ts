/**
 * IdRegistry (docs/reference/contracts.md §3): who holds each fid, its recovery address, transfers
 * and recoveries signed by the receiving address. Only the IdGateway registers.
 */
import type { Address, Hex } from "viem";
import { idRegistryAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { isValidSignatureNow, useNonce, verifySignedMessage } from "./eip712.js";
import { contractModel, emit, revert, sameAddress } from "./execution.js";
import { custodyOf, idCounter, idOf, recoveryOf, signatureNonce } from "./reads.js";
import { stateKey, type CallContext } from "./state.js";

const ADDRESS = CONTRACT_ADDRESSES.idRegistry;

/** `register(to, recovery)`: the next fid for `to`; the caller must be the IdGateway. */
export async function register(ctx: CallContext, to: Address, recovery: Address): Promise<bigint> {
  if (!sameAddress(ctx.sender, CONTRACT_ADDRESSES.idGateway)) throw revert(idRegistryAbi, "Unauthorized");
  if ((await idOf(ctx.state, to)) !== 0n) throw revert(idRegistryAbi, "HasId");
  const fid = (await idCounter(ctx.state)) + 1n;
  ctx.state.setBigInt(stateKey.idCounter(), fid);
  ctx.state.setBigInt(stateKey.idOf(to), fid);
  ctx.state.set(stateKey.custodyOf(fid), to.toLowerCase());
  ctx.state.set(stateKey.recoveryOf(fid), recovery.toLowerCase());
  emit(ctx, ADDRESS, idRegistryAbi, "Register", { to, id: fid, recovery });
  return fid;
}

/** A transfer's preconditions: `from` holds a fid (`HasNoId`), `to` none (`HasId`). Returns the fid. */
export async function validateTransfer(ctx: CallContext, from: Address, to: Address): Promise<bigint> {
  const fid = await idOf(ctx.state, from);
  if (fid === 0n) throw revert(idRegistryAbi, "HasNoId");
  if ((await idOf(ctx.state, to)) !== 0n) throw revert(idRegistryAbi, "HasId");
  return fid;
}

/** Moves a fid's custody; its recovery address stays. */
export async function moveFid(ctx: CallContext, fid: bigint, from: Address, to: Address): Promise<void> {
  ctx.state.setBigInt(stateKey.idOf(from), 0n);
  ctx.state.setBigInt(stateKey.idOf(to), fid);
  ctx.state.set(stateKey.custodyOf(fid), to.toLowerCase());
  emit(ctx, ADDRESS, idRegistryAbi, "Transfer", { from, to, id: fid });
}

export function setRecovery(ctx: CallContext, fid: bigint, recovery: Address): void {
  ctx.state.set(stateKey.recoveryOf(fid), recovery.toLowerCase());
  emit(ctx, ADDRESS, idRegistryAbi, "ChangeRecoveryAddress", { id: fid, recovery });
}

/** The fid `owner` holds, or `HasNoId`. */
export async function requireFid(ctx: CallContext, owner: Address): Promise<bigint> {
  const fid = await idOf(ctx.state, owner);
  if (fid === 0n) throw revert(idRegistryAbi, "HasNoId");
  return fid;
}

/** `verifyFidSignature`: `custody` holds `fid` and signed `digest`. */
export async function verifyFidSignature(
  ctx: CallContext,
  custody: Address,
  fid: bigint,
  digest: Hex,
  sig: Hex,
): Promise<boolean> {
  return (await idOf(ctx.state, custody)) === fid && isValidSignatureNow(custody, digest, sig);
}

interface TransferSignature {
  fid: bigint;
  to: Address;
  /** Set for a TransferAndChangeRecovery signature. */
  recovery?: Address;
  signer: Address;
  deadline: bigint;
  sig: Hex;
}

/** A Transfer (or TransferAndChangeRecovery) signature by `signer`, with its IdRegistry nonce. */
function verifyTransferSig(ctx: CallContext, signature: TransferSignature): Promise<void> {
  const { fid, to, recovery, signer, deadline, sig } = signature;
  return verifySignedMessage(ctx, {
    contract: "idRegistry",
    ...(recovery === undefined
      ? { primaryType: "Transfer", message: { fid, to } }
      : { primaryType: "TransferAndChangeRecovery", message: { fid, to, recovery } }),
    signer,
    deadline,
    sig,
  });
}

/** `recover` and `recoverFor` after their signatures: `Recover` then `Transfer`. */
async function recoverFid(ctx: CallContext, fid: bigint, from: Address, to: Address): Promise<void> {
  emit(ctx, ADDRESS, idRegistryAbi, "Recover", { from, to, id: fid });
  await moveFid(ctx, fid, from, to);
}

export const idRegistry = contractModel({
  address: ADDRESS,
  abi: idRegistryAbi,
  async run(ctx, call) {
    const { state, sender } = ctx;
    switch (call.functionName) {
      case "idOf":
        return idOf(state, call.args[0]);
      case "custodyOf":
        return custodyOf(state, call.args[0]);
      case "recoveryOf":
        return recoveryOf(state, call.args[0]);
      case "idCounter":
        return idCounter(state);
      case "nonces":
        return signatureNonce(state, ADDRESS, call.args[0]);
      case "verifyFidSignature":
        return verifyFidSignature(ctx, ...call.args);
      case "useNonce":
        return useNonce(ctx, ADDRESS, sender);
      case "register":
        return register(ctx, ...call.args);
      case "transfer": {
        const [to, deadline, sig] = call.args;
        const fid = await validateTransfer(ctx, sender, to);
        await verifyTransferSig(ctx, { fid, to, signer: to, deadline, sig });
        return moveFid(ctx, fid, sender, to);
      }
      case "transferFor": {
        const [from, to, fromDeadline, fromSig, toDeadline, toSig] = call.args;
        const fid = await validateTransfer(ctx, from, to);
        await verifyTransferSig(ctx, { fid, to, signer: from, deadline: fromDeadline, sig: fromSig });
        await verifyTransferSig(ctx, { fid, to, signer: to, deadline: toDeadline, sig: toSig });
        return moveFid(ctx, fid, from, to);
      }
      case "transferAndChangeRecovery": {
        const [to, recovery, deadline, sig] = call.args;
        const fid = await validateTransfer(ctx, sender, to);
        await verifyTransferSig(ctx, { fid, to, recovery, signer: to, deadline, sig });
        await moveFid(ctx, fid, sender, to);
        return setRecovery(ctx, fid, recovery);
      }
      case "transferAndChangeRecoveryFor": {
        const [from, to, recovery, fromDeadline, fromSig, toDeadline, toSig] = call.args;
        const fid = await validateTransfer(ctx, from, to);
        await verifyTransferSig(ctx, {
          fid,
          to,
          recovery,
          signer: from,
          deadline: fromDeadline,
          sig: fromSig,
        });
        await verifyTransferSig(ctx, { fid, to, recovery, signer: to, deadline: toDeadline, sig: toSig });
        await moveFid(ctx, fid, from, to);
        return setRecovery(ctx, fid, recovery);
      }
      case "changeRecoveryAddress":
        return setRecovery(ctx, await requireFid(ctx, sender), call.args[0]);
      case "changeRecoveryAddressFor": {
        const [owner, recovery, deadline, sig] = call.args;
        const fid = await requireFid(ctx, owner);
        const message = { fid, from: await recoveryOf(state, fid), to: recovery };
        await verifySignedMessage(ctx, {
          contract: "idRegistry",
          primaryType: "ChangeRecoveryAddress",
          message,
          signer: owner,
          deadline,
          sig,
        });
        return setRecovery(ctx, fid, recovery);
      }
      case "recover": {
        const [from, to, deadline, sig] = call.args;
        const fid = await requireFid(ctx, from);
        if (!sameAddress(sender, await recoveryOf(state, fid))) throw revert(idRegistryAbi, "Unauthorized");
        if ((await idOf(state, to)) !== 0n) throw revert(idRegistryAbi, "HasId");
        await verifyTransferSig(ctx, { fid, to, signer: to, deadline, sig });
        return recoverFid(ctx, fid, from, to);
      }
      case "recoverFor": {
        const [from, to, recoveryDeadline, recoverySig, toDeadline, toSig] = call.args;
        const fid = await validateTransfer(ctx, from, to);
        const recovery = await recoveryOf(state, fid);
        await verifyTransferSig(ctx, {
          fid,
          to,
          signer: recovery,
          deadline: recoveryDeadline,
          sig: recoverySig,
        });
        await verifyTransferSig(ctx, { fid, to, signer: to, deadline: toDeadline, sig: toSig });
        return recoverFid(ctx, fid, from, to);
      }
    }
  },
});

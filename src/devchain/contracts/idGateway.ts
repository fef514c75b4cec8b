/**
 * IdGateway (docs/reference/contracts.md §4): registers a fid in the IdRegistry and rents its first
 * 1 + extra storage units from the StorageRegistry in the same call, paid with the value sent;
 * the overpayment goes back to the caller. `registerFor` needs the new custody's Register signature.
 */
import type { Address, Hex } from "viem";
import { idGatewayAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { useNonce, verifySignedMessage } from "./eip712.js";
import { contractModel, innerCall, moveEther, revert, sameAddress, uint256 } from "./execution.js";
import { register as registerId } from "./idRegistry.js";
import { signatureNonce } from "./reads.js";
import type { CallContext } from "./state.js";
import { price as storagePrice, rent } from "./storageRegistry.js";

const ADDRESS = CONTRACT_ADDRESSES.idGateway;

/** `price(extraStorage)`: the rent of the 1 + extra units a registration rents. */
export function price(ctx: CallContext, extraStorage: bigint): bigint {
  return storagePrice(ctx, uint256(1n + extraStorage));
}

export interface Registration {
  to: Address;
  recovery: Address;
  extraStorage: bigint;
}

/** IdRegistry.register, then rent paid with all the value sent, whose refund this gateway passes on
 * to its caller. Returns the fid and the overpayment. `register(…)` is this for `to` = the caller. */
export async function register(ctx: CallContext, registration: Registration): Promise<[bigint, bigint]> {
  const { to, recovery, extraStorage } = registration;
  const fid = await registerId(innerCall(ctx, ADDRESS), to, recovery);
  const units = uint256(1n + extraStorage);
  await moveEther(ctx, ADDRESS, CONTRACT_ADDRESSES.storageRegistry, ctx.value);
  const overpayment = await rent(innerCall(ctx, ADDRESS, ctx.value), fid, units);
  await moveEther(ctx, ADDRESS, ctx.sender, overpayment);
  return [fid, overpayment];
}

/** `registerFor`: `to`'s Register signature (its IdGateway nonce) first; the caller pays. */
export async function registerFor(
  ctx: CallContext,
  registration: Registration,
  deadline: bigint,
  sig: Hex,
): Promise<[bigint, bigint]> {
  const { to, recovery } = registration;
  await verifySignedMessage(ctx, {
    contract: "idGateway",
    primaryType: "Register",
    message: { to, recovery },
    signer: to,
    deadline,
    sig,
  });
  return register(ctx, registration);
}

export const idGateway = contractModel({
  address: ADDRESS,
  abi: idGatewayAbi,
  async run(ctx, call) {
    switch (call.functionName) {
      case "price":
        return price(ctx, call.args[0] ?? 0n);
      case "nonces":
        return signatureNonce(ctx.state, ADDRESS, call.args[0]);
      case "useNonce":
        return useNonce(ctx, ADDRESS, ctx.sender);
      case "register": {
        const [recovery, extraStorage = 0n] = call.args;
        return register(ctx, { to: ctx.sender, recovery, extraStorage });
      }
      case "registerFor": {
        const [to, recovery, deadline, sig, extraStorage = 0n] = call.args;
        return registerFor(ctx, { to, recovery, extraStorage }, deadline, sig);
      }
    }
  },
  /** Ether comes in only as the StorageRegistry's refund. */
  receive(ctx) {
    if (!sameAddress(ctx.sender, CONTRACT_ADDRESSES.storageRegistry))
      throw revert(idGatewayAbi, "Unauthorized");
  },
});

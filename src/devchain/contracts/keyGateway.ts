/**
 * KeyGateway (docs/reference/contracts.md §5.3): the way keys enter the KeyRegistry, for the
 * caller's own fid or, with the owner's EIP-712 Add signature, for anyone's.
 */
import type { Hex } from "viem";
import { keyGatewayAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { useNonce, verifySignedMessage } from "./eip712.js";
import { contractModel, innerCall } from "./execution.js";
import { add, type KeyAdd } from "./keyRegistry.js";
import { signatureNonce } from "./reads.js";
import type { CallContext } from "./state.js";

const ADDRESS = CONTRACT_ADDRESSES.keyGateway;

/** KeyRegistry.add called by this gateway. */
function registryAdd(ctx: CallContext, request: KeyAdd): Promise<void> {
  return add(innerCall(ctx, ADDRESS), request);
}

/** `addFor`: the owner's Add signature (its KeyGateway nonce), then KeyRegistry.add. */
export async function addFor(ctx: CallContext, request: KeyAdd, deadline: bigint, sig: Hex): Promise<void> {
  const { fidOwner, keyType, key, metadataType, metadata } = request;
  await verifySignedMessage(ctx, {
    contract: "keyGateway",
    primaryType: "Add",
    message: { owner: fidOwner, keyType, key, metadataType, metadata },
    signer: fidOwner,
    deadline,
    sig,
  });
  await registryAdd(ctx, request);
}

/** `add(…)`: a key for the caller's own fid. */
export function addOwn(ctx: CallContext, request: Omit<KeyAdd, "fidOwner">): Promise<void> {
  return registryAdd(ctx, { fidOwner: ctx.sender, ...request });
}

export const keyGateway = contractModel({
  address: ADDRESS,
  abi: keyGatewayAbi,
  async run(ctx, call) {
    switch (call.functionName) {
      case "nonces":
        return signatureNonce(ctx.state, ADDRESS, call.args[0]);
      case "useNonce":
        return useNonce(ctx, ADDRESS, ctx.sender);
      case "add": {
        const [keyType, key, metadataType, metadata] = call.args;
        return addOwn(ctx, { keyType, key, metadataType, metadata });
      }
      case "addFor": {
        const [fidOwner, keyType, key, metadataType, metadata, deadline, sig] = call.args;
        return addFor(ctx, { fidOwner, keyType, key, metadataType, metadata }, deadline, sig);
      }
    }
  },
});

/**
 * Bundler (docs/reference/contracts.md §8): a fid, its storage and its first keys in one call:
 * IdGateway.registerFor with all the value, then KeyGateway.addFor per signer, then the refund.
 */
import { bundlerAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { contractModel, innerCall, moveEther, revert, sameAddress } from "./execution.js";
import { price, registerFor } from "./idGateway.js";
import { addFor } from "./keyGateway.js";

const ADDRESS = CONTRACT_ADDRESSES.bundler;

export const bundler = contractModel({
  address: ADDRESS,
  abi: bundlerAbi,
  async run(ctx, call) {
    switch (call.functionName) {
      case "price":
        return price(ctx, call.args[0]);
      case "register": {
        const [{ to, recovery, deadline, sig }, signers, extraStorage] = call.args;
        await moveEther(ctx, ADDRESS, CONTRACT_ADDRESSES.idGateway, ctx.value);
        const [fid, overpayment] = await registerFor(
          innerCall(ctx, ADDRESS, ctx.value),
          { to, recovery, extraStorage },
          deadline,
          sig,
        );
        for (const signer of signers) {
          const { keyType, key, metadataType, metadata } = signer;
          await addFor(
            innerCall(ctx, ADDRESS),
            { fidOwner: to, keyType, key, metadataType, metadata },
            signer.deadline,
            signer.sig,
          );
        }
        await moveEther(ctx, ADDRESS, ctx.sender, overpayment);
        return fid;
      }
    }
  },
  /** Ether comes in only as the IdGateway's refund. */
  receive(ctx) {
    if (!sameAddress(ctx.sender, CONTRACT_ADDRESSES.idGateway)) throw revert(bundlerAbi, "Unauthorized");
  },
});

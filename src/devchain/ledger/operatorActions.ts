/** The REST routes' operator writes, run as transactions of the chain (src/devchain/contracts/operator.ts). */
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { innerCall } from "../contracts/execution.js";
import { register } from "../contracts/idRegistry.js";
import { operatorAddKey, operatorRemoveKey, operatorRent } from "../contracts/operator.js";
import { custodyOf } from "../contracts/reads.js";
import { type CallContext, stateKey } from "../contracts/state.js";
import type { OperatorAction } from "./txStore.js";

export async function runOperatorAction(ctx: CallContext, action: OperatorAction): Promise<void> {
  switch (action.action) {
    case "register":
      // The REST route registers without renting (docs/devchain.md): IdRegistry.register as the
      // IdGateway calls it, a Register log and no Rent; storage is a write of its own.
      await register(innerCall(ctx, CONTRACT_ADDRESSES.idGateway), action.to, action.recovery);
      return;
    case "addKey":
      await operatorAddKey(ctx, { ...action, fid: BigInt(action.fid) });
      return;
    case "removeKey":
      await operatorRemoveKey(ctx, { fid: BigInt(action.fid), key: action.key });
      return;
    case "rent":
      // Paid by the fid's custody, as the REST route has always said.
      await operatorRent(
        { ...ctx, sender: await custodyOf(ctx.state, BigInt(action.fid)) },
        { fid: BigInt(action.fid), units: BigInt(action.units) },
      );
      return;
    case "setBalance":
      ctx.state.set(stateKey.balance(action.address), action.balance);
      return;
  }
}

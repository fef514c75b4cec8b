/** castnet's own methods beside Ethereum's: what a developer needs of a chain of their own. */
import type { Ledger } from "../../ledger/index.js";
import { encodeQuantity, parseAddress, parseQuantity, positionalParams } from "../params.js";
import { RpcError } from "../errors.js";
import type { RpcContext, RpcMethods } from "../server.js";

/** castnet's methods are the operator's, as the REST routes' writes are. */
function requireOperator(method: string, context: RpcContext): void {
  const refusal = context.operatorRefusal();
  if (refusal !== undefined) throw RpcError.serverError(`${method} is an operator method: ${refusal}`);
}

export function castnetMethods(ledger: Ledger): RpcMethods {
  return {
    /** Sets an address's balance in wei, mined like any transaction; answers its hash. */
    async castnet_setBalance(params, context) {
      requireOperator("castnet_setBalance", context);
      const [address, balance] = positionalParams(params, ["address", "balance"]);
      return ledger.setBalance(parseAddress(address, "address"), parseQuantity(balance, "balance"));
    },
    /** Mines a block now, empty or not; answers its number. */
    async castnet_mine(params, context) {
      requireOperator("castnet_mine", context);
      positionalParams(params, []);
      return encodeQuantity((await ledger.mine(true))!.number);
    },
  };
}

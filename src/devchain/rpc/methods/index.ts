/** Every Ethereum JSON-RPC method the devchain answers, over its ledger. */
import type { Ledger } from "../../ledger/index.js";
import type { RpcMethods } from "../server.js";
import { castnetMethods } from "./castnet.js";
import { chainMethods } from "./chain.js";
import { logMethods } from "./logs.js";
import { stateMethods } from "./state.js";
import { transactionMethods } from "./transactions.js";

export function ethMethods(ledger: Ledger, clientVersion: string): RpcMethods {
  return {
    ...chainMethods(ledger, clientVersion),
    ...stateMethods(ledger),
    ...transactionMethods(ledger),
    ...logMethods(ledger),
    ...castnetMethods(ledger),
  };
}

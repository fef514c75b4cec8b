/**
 * The devchain's Ethereum JSON-RPC, as the `castnet chain` commands call it: each call's result, or
 * one CliError in the words every client command uses (a devchain that cannot be reached, a method
 * refused with the node's own message). Operator methods (castnet_*) carry the admin token.
 */
import { JsonRpcCallError, JsonRpcUnavailable, jsonRpcCall } from "../../interfaces/jsonRpcHttp.js";
import { CliError, unreachable } from "./request.js";

export type ChainRpc = ReturnType<typeof chainRpcClient>;

export function chainRpcClient(base: string, adminToken: string | undefined) {
  return {
    base,
    async call(method: string, params: readonly unknown[] = []): Promise<unknown> {
      try {
        return await jsonRpcCall(base, method, params, { adminToken });
      } catch (error) {
        if (error instanceof JsonRpcUnavailable)
          throw error.reachable
            ? new CliError(`${error.message}: is it castnet's devchain?`)
            : unreachable("devchain", base);
        if (error instanceof JsonRpcCallError)
          throw new CliError(`the devchain refused ${method}: ${error.message}`);
        throw error;
      }
    },
  };
}

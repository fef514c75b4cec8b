/**
 * `castnet chain …`: the devchain as a developer looks at it over Ethereum JSON-RPC (a balance, a
 * block, a transaction with its receipt) and the operator's hands on it (set a balance, mine).
 * What they read and print is src/cli/chainViews.ts.
 */
import type { Command } from "commander";
import { type CommonOptions, type Context, contextOf, report, wholeNumber, withOptions } from "../context.js";
import type { View } from "../chainViews.js";

/** What the actions need, loaded when one runs (viem is heavy for `--help`). */
async function views() {
  const [chainViews, { chainRpcClient }] = await Promise.all([
    import("../chainViews.js"),
    import("../http/chainRpc.js"),
  ]);
  return {
    ...chainViews,
    rpcOf: (context: Context) => chainRpcClient(context.chainBase, context.options.adminToken),
  };
}

const print = (options: CommonOptions, view: View) => report(options, view.json, view.human);

export function registerChain(program: Command): void {
  const chain = program
    .command("chain")
    .description("the devchain over Ethereum JSON-RPC: balances, blocks, transactions");

  withOptions(
    chain
      .command("balance <address|account>")
      .description("the ether an address or a keystore account holds"),
    { parts: ["chain"], keystore: true },
  ).action(async (who: string, options: CommonOptions) => {
    const { balanceView, rpcOf } = await views();
    const context = contextOf(options);
    print(options, await balanceView(context, rpcOf(context), who));
  });

  withOptions(
    chain
      .command("fund <address|account> <ether>")
      .description("set the ether an address or a keystore account holds (operator: castnet_setBalance)"),
    { parts: ["chain"], keystore: true },
  ).action(async (who: string, amount: string, options: CommonOptions) => {
    const { fundView, rpcOf } = await views();
    const context = contextOf(options);
    print(options, await fundView(context, rpcOf(context), who, amount));
  });

  withOptions(
    chain.command("mine [blocks]").description("mine blocks now, empty or not (operator: castnet_mine)"),
    {
      parts: ["chain"],
    },
  ).action(async (given: string | undefined, options: CommonOptions) => {
    const blocks = wholeNumber("blocks", given ?? "1", 1, 100);
    const { mineView, rpcOf } = await views();
    print(options, await mineView(rpcOf(contextOf(options)), blocks));
  });

  withOptions(
    chain.command("block [number]").description("a block: its hash, time and transactions (default latest)"),
    {
      parts: ["chain"],
    },
  ).action(async (given: string | undefined, options: CommonOptions) => {
    const { blockView, parseBlock, rpcOf } = await views();
    const which = parseBlock(given);
    print(options, await blockView(rpcOf(contextOf(options)), which));
  });

  withOptions(chain.command("tx <hash>").description("a transaction and its receipt: status, fee, logs"), {
    parts: ["chain"],
  }).action(async (hash: string, options: CommonOptions) => {
    const { transactionView, rpcOf } = await views();
    print(options, await transactionView(rpcOf(contextOf(options)), hash));
  });
}

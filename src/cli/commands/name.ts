/** `castnet name …`: fnames at the registry, and the USERNAME that makes one a user's name. */
import type { Command } from "commander";
import { type CommonOptions, contextOf, reportNaming, withOptions } from "../context.js";
import { CliError } from "../http/request.js";
import { resolveFid } from "../targets.js";

export function registerNameCommands(program: Command): void {
  const name = program.command("name").description("names at the registry");

  withOptions(
    name.command("register <name>").description("claim a name at the registry and make it the username"),
    { parts: ["registry", "hub"], account: true },
  ).action(async (wanted: string, options: CommonOptions) => {
    const { registerName } = await import("../writes.js");
    const context = contextOf(options);
    const actor = context.actor();
    const { transfer, message } = await registerName(context, actor, wanted);
    await reportNaming(
      options,
      { name: wanted, fid: actor.account.fid, transferId: transfer.id, hash: message.hash },
      async () =>
        `registered ${wanted} for ${await context.people.full(actor.account.fid)} (transfer ${transfer.id}); username set by ${message.hash}`,
    );
  });

  withOptions(
    name
      .command("transfer <name>")
      .description("move a name to another fid (the registry lets only its admins do this)")
      .requiredOption("--to <name|fid>", "the fid that gets the name"),
    // The hub names the fids.
    { parts: ["registry", "chain", "hub"], account: true },
  ).action(async (moved: string, options: CommonOptions & { to: string }) => {
    const { privateKeyToAccount } = await import("viem/accounts");
    const { signAdminTransfer } = await import("../../protocol/eip712/index.js");
    const context = contextOf(options);
    const actor = context.actor();
    const to = await resolveFid(context, options.to);
    const owner = await context.chain.custodyOf(to);
    if (owner === undefined) throw new CliError(`fid ${to} is not registered on the devchain`);
    const admin = privateKeyToAccount(actor.account.custodyPrivateKey);
    const request = { name: moved, from: actor.account.fid, to, fid: actor.account.fid, owner };
    const timestamp = await context.registry.currentTime();
    const signature = await signAdminTransfer(admin, { ...request, timestamp });
    const transfer = await context.registry.transfer({ ...request, timestamp, signature }).catch((error) => {
      if (error instanceof CliError && /UNAUTHORIZED/.test(error.message))
        throw new CliError(
          `the registry refused: only its admins move a name between fids (castnet start --registry-admin ${actor.account.fid}=${admin.address} makes this account one)`,
        );
      throw error;
    });
    await reportNaming(
      options,
      { name: moved, from: transfer.from, to: transfer.to, transferId: transfer.id },
      async () => {
        const [from, to] = await context.people.fullEach([transfer.from, transfer.to]);
        return `moved ${moved} from ${from} to ${to} (transfer ${transfer.id})`;
      },
    );
  });

  withOptions(name.command("show <name>").description("who holds a name"), {
    // The hub names the fid.
    parts: ["registry", "hub"],
  }).action(async (shown: string, options: CommonOptions) => {
    const context = contextOf(options);
    const transfer = await context.registry.current(shown);
    if (transfer === undefined) throw new CliError(`${shown} is not registered`);
    await reportNaming(
      options,
      {
        name: shown,
        fid: transfer.to,
        owner: transfer.owner,
        transferId: transfer.id,
        timestamp: transfer.timestamp,
      },
      async () =>
        `${shown}: ${await context.people.full(transfer.to)}, owner ${transfer.owner}, since ${new Date(transfer.timestamp * 1000).toISOString()} (transfer ${transfer.id})`,
    );
  });
}

/** `castnet cast "<text>"` and `castnet cast remove <hash|fid:hash>`. */
import { type Command, Option } from "commander";
import { MessageType } from "../../protocol/generated/message.js";
import { fromHex } from "../../protocol/hex.js";
import { type CommonOptions, contextOf, reportNaming, withOptions } from "../context.js";
import { CliError } from "../http/request.js";
import { UsageError } from "../../usageError.js";
import { signingActor } from "../signingActor.js";
import { parseCastId, parseOwnCast, resolveChannel } from "../targets.js";

interface CastOptions extends CommonOptions {
  replyTo?: string;
  channel?: string;
  embed: string[];
  mention: string[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerCast(program: Command): void {
  const cast = withOptions(
    program
      .command("cast")
      .description("post a cast; @name in the text marks where each --mention goes")
      .argument("<text>", "what the cast says")
      .addOption(new Option("--reply-to <fid:hash>", "the cast this one answers"))
      .addOption(
        new Option("--channel <id|url>", "the channel: its id, as channel list shows it, or its URL"),
      )
      .addOption(new Option("--embed <url>", "a URL to embed (repeatable)").argParser(collect).default([]))
      .addOption(
        new Option("--mention <name|fid>", "a user the text mentions as @<name|fid> (repeatable)")
          .argParser(collect)
          .default([]),
      ),
    // The client API knows each channel's URL by its id, and who approved a requested key (--as <token>).
    { parts: ["hub", "registry", "api"], account: true },
  ).action(async (text: string, options: CastOptions) => {
    const { postCast } = await import("../writes.js");
    if (options.replyTo !== undefined && options.channel !== undefined)
      throw new UsageError(
        "a cast answers a cast or goes to a channel, not both: give --reply-to or --channel",
      );
    const context = contextOf(options);
    const actor = await signingActor(context);
    const replyTo = options.replyTo === undefined ? undefined : parseCastId(options.replyTo);
    const { message, body } = await postCast(context, actor, {
      text,
      mentions: options.mention,
      replyTo,
      channel: options.channel === undefined ? undefined : await resolveChannel(context, options.channel),
      embeds: options.embed,
    });
    const id = `${actor.account.fid}:${message.hash}`;
    await reportNaming(
      options,
      { fid: actor.account.fid, hash: message.hash, castId: id, text: body.text },
      async () => {
        const { people } = context;
        await people.read([actor.account.fid, ...(replyTo ? [replyTo.fid] : []), ...body.mentions]);
        const lines = [`cast ${id} by ${await people.full(actor.account.fid)}`];
        if (replyTo)
          lines.push(`  in reply to ${replyTo.fid}:${replyTo.hash} by ${await people.full(replyTo.fid)}`);
        if (body.mentions.length > 0)
          lines.push(`  mentioning ${(await people.fullEach(body.mentions)).join(", ")}`);
        return lines;
      },
    );
  });

  withOptions(
    cast
      .command("remove")
      .description("remove one of your casts")
      .argument(
        "<hash|fid:hash>",
        "the cast's hash (0x and 40 hex digits), or its id as feed --ids prints it",
      ),
    { parts: ["hub", "api"], account: true },
  ).action(async (given: string, options: CommonOptions) => {
    const { submit } = await import("../messages.js");
    const { fid, hash: target } = parseOwnCast(given);
    const context = contextOf(options);
    const actor = await signingActor(context);
    const own = actor.account.fid;
    if (fid !== undefined && fid !== own)
      throw new CliError(
        `cast ${given} is fid ${fid}'s: ${actor.name} (fid ${own}) removes only its own casts`,
      );
    // The hub would keep a remove of a cast it does not hold, as a tombstone: say so instead.
    if ((await context.hub.castById(own, target)) === undefined)
      throw new CliError(
        `${actor.name} (fid ${own}) has no cast ${target}: it was removed already, never cast, or is another user's`,
      );
    const message = await submit(context, actor, MessageType.CAST_REMOVE, {
      castRemoveBody: { targetHash: fromHex(target) },
    });
    await reportNaming(
      options,
      { fid: actor.account.fid, removed: target, hash: message.hash },
      async () =>
        `removed cast ${own}:${target} by ${await context.people.full(own)} (message ${message.hash})`,
    );
  });
}

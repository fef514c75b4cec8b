/** `castnet cast "<text>"` and `castnet cast remove <hash>`. */
import { type Command, Option } from "commander";
import { MessageType } from "../../protocol/generated/message.js";
import { fromHex } from "../../protocol/hex.js";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";
import { UsageError } from "../../usageError.js";
import { parseCastId, parseHash } from "../targets.js";

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
      .addOption(new Option("--channel <url>", "the channel's URL (its parent URL)"))
      .addOption(new Option("--embed <url>", "a URL to embed (repeatable)").argParser(collect).default([]))
      .addOption(
        new Option("--mention <name|fid>", "a user the text mentions as @<name|fid> (repeatable)")
          .argParser(collect)
          .default([]),
      ),
    { parts: ["hub", "registry"], account: true },
  ).action(async (text: string, options: CastOptions) => {
    const { postCast } = await import("../writes.js");
    if (options.replyTo !== undefined && options.channel !== undefined)
      throw new UsageError(
        "a cast answers a cast or goes to a channel, not both: give --reply-to or --channel",
      );
    const context = contextOf(options);
    const actor = context.actor();
    const { message, body } = await postCast(context, actor, {
      text,
      mentions: options.mention,
      replyTo: options.replyTo === undefined ? undefined : parseCastId(options.replyTo),
      channel: options.channel,
      embeds: options.embed,
    });
    const id = `${actor.account.fid}:${message.hash}`;
    report(
      options,
      { fid: actor.account.fid, hash: message.hash, castId: id, text: body.text },
      `cast ${id}`,
    );
  });

  withOptions(
    cast
      .command("remove")
      .description("remove one of your casts")
      .argument("<hash>", "the cast's hash (0x and 40 hex digits)"),
    { parts: ["hub"], account: true },
  ).action(async (hash: string, options: CommonOptions) => {
    const { submit } = await import("../messages.js");
    const target = parseHash(hash);
    const context = contextOf(options);
    const actor = context.actor();
    const message = await submit(context, actor, MessageType.CAST_REMOVE, {
      castRemoveBody: { targetHash: fromHex(target) },
    });
    report(
      options,
      { fid: actor.account.fid, removed: target, hash: message.hash },
      `removed cast ${actor.account.fid}:${target} (message ${message.hash})`,
    );
  });
}

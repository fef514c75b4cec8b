/** `castnet react like|recast <fid>:<hash>` and `castnet unreact …`. */
import type { Command } from "commander";
import { MessageType, ReactionType } from "../../protocol/generated/message.js";
import { fromHex } from "../../protocol/hex.js";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";
import { submit } from "../messages.js";
import { UsageError } from "../options.js";
import { parseCastId } from "../targets.js";

const TYPES = { like: ReactionType.LIKE, recast: ReactionType.RECAST } as const;

export function registerReact(program: Command): void {
  for (const [verb, type, done] of [
    ["react", MessageType.REACTION_ADD, "reacted"],
    ["unreact", MessageType.REACTION_REMOVE, "took back"],
  ] as const) {
    withOptions(
      program
        .command(`${verb} <like|recast> <fid:hash>`)
        .description(verb === "react" ? "like or recast a cast" : "take back a like or recast"),
      { parts: ["hub"], account: true },
    ).action(async (kind: string, castId: string, options: CommonOptions) => {
      if (kind !== "like" && kind !== "recast")
        throw new UsageError(`${verb} takes like or recast, got "${kind}"`);
      const target = parseCastId(castId);
      const context = contextOf(options);
      const actor = context.actor();
      const message = await submit(context, actor, type, {
        reactionBody: { type: TYPES[kind], targetCastId: { fid: target.fid, hash: fromHex(target.hash) } },
      });
      report(
        options,
        {
          fid: actor.account.fid,
          reaction: kind,
          target: `${target.fid}:${target.hash}`,
          hash: message.hash,
        },
        `${done} ${kind} on ${target.fid}:${target.hash} (message ${message.hash})`,
      );
    });
  }
}

/** `castnet react like|recast <fid>:<hash>` and `castnet unreact …`. */
import type { Command } from "commander";
import { type CommonOptions, contextOf, reportNaming, withOptions } from "../context.js";
import { UsageError } from "../../usageError.js";
import { signingActor } from "../signingActor.js";
import { assertCastExists, parseCastId } from "../targets.js";

export function registerReact(program: Command): void {
  for (const [verb, done] of [
    ["react", "reacted"],
    ["unreact", "took back"],
  ] as const) {
    withOptions(
      program
        .command(`${verb} <like|recast> <fid:hash>`)
        .description(verb === "react" ? "like or recast a cast" : "take back a like or recast"),
      // The client API says who approved a requested key (--as <token>).
      { parts: ["hub", "api"], account: true },
    ).action(async (kind: string, castId: string, options: CommonOptions) => {
      const { react } = await import("../writes.js");
      if (kind !== "like" && kind !== "recast")
        throw new UsageError(`${verb} takes like or recast, got "${kind}"`);
      const target = parseCastId(castId);
      const context = contextOf(options);
      const actor = await signingActor(context);
      // Taking back a reaction to a cast removed since is fine; reacting to a cast that is not there is a slip.
      if (verb === "react") await assertCastExists(context, target);
      const message = await react(context, actor, kind, target, verb === "unreact");
      await reportNaming(
        options,
        {
          fid: actor.account.fid,
          reaction: kind,
          target: `${target.fid}:${target.hash}`,
          hash: message.hash,
        },
        async () => {
          const [who, author] = await context.people.fullEach([actor.account.fid, target.fid]);
          return `${who} ${done} ${kind} on ${target.fid}:${target.hash} by ${author} (message ${message.hash})`;
        },
      );
    });
  }
}

/** `castnet follow <name|fid>` and `castnet unfollow …`: "follow" links. */
import type { Command } from "commander";
import { type CommonOptions, contextOf, reportNaming, withOptions } from "../context.js";
import { UsageError } from "../../usageError.js";
import { signingActor } from "../signingActor.js";
import { resolveFid } from "../targets.js";

export function registerFollow(program: Command): void {
  for (const verb of ["follow", "unfollow"] as const) {
    withOptions(program.command(`${verb} <name|fid>`).description(`${verb} a user`), {
      // The client API says who approved a requested key (--as <token>).
      parts: ["hub", "registry", "api"],
      account: true,
    }).action(async (who: string, options: CommonOptions) => {
      const { follow } = await import("../writes.js");
      const context = contextOf(options);
      const actor = await signingActor(context);
      const targetFid = await resolveFid(context, who);
      if (targetFid === actor.account.fid) throw new UsageError(`${actor.name} cannot ${verb} itself`);
      const message = await follow(context, actor, targetFid, verb === "unfollow");
      await reportNaming(
        options,
        {
          fid: actor.account.fid,
          [verb === "follow" ? "followed" : "unfollowed"]: targetFid,
          hash: message.hash,
        },
        async () => {
          const [who, whom] = await context.people.fullEach([actor.account.fid, targetFid]);
          return `${who} ${verb === "follow" ? "follows" : "no longer follows"} ${whom} (message ${message.hash})`;
        },
      );
    });
  }
}

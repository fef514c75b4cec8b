/** `castnet channel create|follow|unfollow|list`, through the client API's operator and read routes. */
import { type Command, Option } from "commander";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";
import { castnetCommand } from "../invocation.js";
import { resolveFid } from "../targets.js";

interface CreateOptions extends CommonOptions {
  name?: string;
  url?: string;
  image?: string;
  description?: string;
  lead?: string;
}

export function registerChannel(program: Command): void {
  const channel = program.command("channel").description("channels of the client API");

  withOptions(
    channel
      .command("create <id>")
      .description("create a channel (an operator write)")
      .addOption(new Option("--name <name>", "its name (default: the id)"))
      .addOption(new Option("--url <url>", "the parent URL its casts carry"))
      .addOption(new Option("--image <url>", "its image URL"))
      .addOption(new Option("--description <text>", "what it is about"))
      .addOption(new Option("--lead <name|fid>", "its lead")),
    { parts: ["api", "registry"], keystore: true },
  ).action(async (id: string, options: CreateOptions) => {
    const context = contextOf(options);
    const url = options.url ?? `https://castnet.example/channel/${id}`;
    const { channel: created } = await context.api.createChannel({
      id,
      url,
      name: options.name ?? id,
      imageUrl: options.image ?? `https://castnet.example/channel/${id}.png`,
      ...(options.description === undefined ? {} : { description: options.description }),
      ...(options.lead === undefined ? {} : { leadFid: await resolveFid(context, options.lead) }),
    });
    report(
      options,
      created,
      `created channel ${created.id}: cast into it with ${castnetCommand(`cast "…" --channel ${created.id}`)}`,
    );
  });

  for (const verb of ["follow", "unfollow"] as const) {
    withOptions(channel.command(`${verb} <id>`).description(`${verb} a channel (an operator write)`), {
      parts: ["api"],
      account: true,
    }).action(async (id: string, options: CommonOptions) => {
      const context = contextOf(options);
      const actor = context.actor();
      if (verb === "follow") await context.api.follow(id, actor.account.fid);
      else await context.api.unfollow(id, actor.account.fid);
      report(
        options,
        { channel: id, fid: actor.account.fid, following: verb === "follow" },
        `${actor.name} ${verb === "follow" ? "follows" : "no longer follows"} channel ${id}`,
      );
    });
  }

  withOptions(channel.command("list").description("every channel, oldest first"), { parts: ["api"] }).action(
    async (options: CommonOptions) => {
      const { channels } = await contextOf(options).api.channels();
      report(
        options,
        { channels },
        channels.length === 0
          ? "no channels yet: castnet channel create <id>"
          : channels.map(
              (c) => `${c.id.padEnd(20)} ${String(c.followerCount).padStart(5)} followers  ${c.url}`,
            ),
      );
    },
  );
}

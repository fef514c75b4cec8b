/** `castnet feed <name|fid>`: a fid's casts, newest first, readable in a terminal. */
import { type Command, Option } from "commander";
import { fromProtocolTime } from "../../protocol/time.js";
import { type CommonOptions, type Context, contextOf, report, wholeNumber, withOptions } from "../context.js";
import type { HubMessage } from "../http/hub.js";
import { resolveFid } from "../targets.js";

/** The text as its author wrote it: each mention put back as @<fid> at its byte position. */
function withMentions(text: string, mentions: number[], positions: number[]): string {
  const bytes = Buffer.from(text, "utf8");
  let out = "";
  let from = 0;
  mentions.forEach((fid, i) => {
    const at = positions[i] ?? bytes.length;
    out += `${bytes.subarray(from, at).toString("utf8")}@${fid}`;
    from = at;
  });
  return out + bytes.subarray(from).toString("utf8");
}

/**
 * The fid's newest `limit` casts that stand. The hub lists a removal in the cast's place (a remove
 * message with no text), so removals are skipped and the pages read on until `limit` casts are found.
 */
async function standingCasts(context: Context, fid: number, limit: number): Promise<HubMessage[]> {
  const casts: HubMessage[] = [];
  let pageToken: string | undefined;
  do {
    const page = await context.hub.castsByFid(fid, limit, pageToken);
    casts.push(...page.messages.filter((m) => m.data.type === "MESSAGE_TYPE_CAST_ADD"));
    pageToken = page.nextPageToken;
  } while (casts.length < limit && pageToken);
  return casts.slice(0, limit);
}

export function registerFeed(program: Command): void {
  withOptions(
    program
      .command("feed <name|fid>")
      .description("a user's casts, newest first")
      .addOption(new Option("--limit <n>", "how many casts").default("20"))
      .addOption(new Option("--ids", "only each cast's <fid>:<hash>, one a line (for scripts)")),
    { parts: ["hub", "registry"], keystore: true },
  ).action(async (who: string, options: CommonOptions & { limit: string; ids?: boolean }) => {
    const limit = wholeNumber("--limit", options.limit, 1, 1000);
    const context = contextOf(options);
    const fid = await resolveFid(context, who);
    const casts = (await standingCasts(context, fid, limit)).map((m) => ({
      castId: `${fid}:${m.hash}`,
      time: new Date(fromProtocolTime(m.data.timestamp)).toISOString(),
      text: m.data.castAddBody?.text ?? "",
      ...(m.data.castAddBody?.parentCastId
        ? { replyTo: `${m.data.castAddBody.parentCastId.fid}:${m.data.castAddBody.parentCastId.hash}` }
        : {}),
      ...(m.data.castAddBody?.parentUrl ? { channel: m.data.castAddBody.parentUrl } : {}),
      embeds: (m.data.castAddBody?.embeds ?? []).flatMap((e) => (e.url ? [e.url] : [])),
      mentions: m.data.castAddBody?.mentions ?? [],
      mentionsPositions: m.data.castAddBody?.mentionsPositions ?? [],
    }));
    if (options.ids) return void casts.forEach((c) => console.log(c.castId));
    report(
      options,
      { fid, casts },
      casts.length === 0
        ? `fid ${fid} has no casts`
        : casts.flatMap((c) => [
            `${c.time.replace("T", " ").slice(0, 19)}  ${c.castId}${c.replyTo ? `  ↳ ${c.replyTo}` : ""}${c.channel ? `  in ${c.channel}` : ""}`,
            ...withMentions(c.text, c.mentions, c.mentionsPositions)
              .split("\n")
              .map((line) => `  ${line}`),
            ...c.embeds.map((url) => `  [${url}]`),
          ]),
    );
  });
}

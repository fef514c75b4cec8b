/** `castnet feed <name|fid>`: a fid's casts, newest first, readable in a terminal. */
import { type Command, Option } from "commander";
import { fromProtocolTime } from "../../protocol/time.js";
import {
  type CommonOptions,
  type Context,
  contextOf,
  reportNaming,
  wholeNumber,
  withOptions,
} from "../context.js";
import type { HubMessage } from "../http/hub.js";
import type { People } from "../people.js";
import { resolveFid } from "../targets.js";

/**
 * The text as its author wrote it: each mention put back at its byte position, as the explorer shows
 * it ("@ana", or "fid 5" for a fid with no username).
 */
async function withMentions(
  people: People,
  text: string,
  mentions: number[],
  positions: number[],
): Promise<string> {
  const bytes = Buffer.from(text, "utf8");
  let out = "";
  let from = 0;
  for (const [i, fid] of mentions.entries()) {
    const at = positions[i] ?? bytes.length;
    out += `${bytes.subarray(from, at).toString("utf8")}${await people.short(fid)}`;
    from = at;
  }
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
    await reportNaming(options, { fid, casts }, async () => {
      const { people } = context;
      // A reply's author is the fid of its parent's id, `<fid>:<hash>`.
      const authorOf = (castId: string) => Number(castId.split(":")[0]);
      await people.read([
        fid,
        ...casts.flatMap((c) => [...c.mentions, ...(c.replyTo ? [authorOf(c.replyTo)] : [])]),
      ]);
      const owner = await people.full(fid);
      if (casts.length === 0) return `${owner} has no casts`;
      const lines = [`casts of ${owner}, newest first`];
      for (const c of casts) {
        const replyTo = c.replyTo ? `  ↳ ${c.replyTo} by ${await people.full(authorOf(c.replyTo))}` : "";
        lines.push(
          `${c.time.replace("T", " ").slice(0, 19)}  ${c.castId}${replyTo}${c.channel ? `  in ${c.channel}` : ""}`,
          ...(await withMentions(people, c.text, c.mentions, c.mentionsPositions))
            .split("\n")
            .map((line) => `  ${line}`),
          ...c.embeds.map((url) => `  [${url}]`),
        );
      }
      return lines;
    });
  });
}

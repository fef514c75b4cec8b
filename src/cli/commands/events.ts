/** `castnet events tail`: the hub's event stream (SSE), followed until Ctrl+C or --count events. */
import { type Command, Option } from "commander";
import { type CommonOptions, contextOf, wholeNumber, withOptions } from "../context.js";
import { unreachable } from "../http/request.js";
import { CliError } from "../http/request.js";
import type { People } from "../people.js";

interface HubEventJson {
  id: number;
  type: string;
  mergeMessageBody?: {
    message: {
      hash: string;
      data: { type: string; fid: number; userDataBody?: { type: string; value: string } };
    };
  };
  mergeOnChainEventBody?: { onChainEvent: { type: string; fid: number } };
  mergeUsernameProofBody?: { usernameProof?: { name: string; fid: number } };
}

const PREFIX = "HUB_EVENT_TYPE_";

/** Who the event is of, and what it says of them. */
function subject(event: HubEventJson): { fid: number; what: string } | undefined {
  const message = event.mergeMessageBody?.message;
  if (message) return { fid: message.data.fid, what: `${message.data.type} ${message.hash}` };
  const onChain = event.mergeOnChainEventBody?.onChainEvent;
  if (onChain) return { fid: onChain.fid, what: onChain.type };
  const proof = event.mergeUsernameProofBody?.usernameProof;
  if (proof) return { fid: proof.fid, what: proof.name };
  return undefined;
}

/** One line for a terminal: id, type, and who did what, named as the hub names them. */
async function line(event: HubEventJson, people: People): Promise<string> {
  // A name set as the stream runs names its fid from this event on, with no read of the hub.
  const data = event.mergeMessageBody?.message?.data;
  if (data?.userDataBody) people.learn(data.fid, data.userDataBody.type, data.userDataBody.value);
  const of = subject(event);
  const who = of && `${await people.full(of.fid)} ${of.what}`;
  return `${event.id}  ${event.type.replace(PREFIX, "")}  ${who ?? ""}`.trimEnd();
}

export function registerEvents(program: Command): void {
  const events = program.command("events").description("the hub's event log");
  withOptions(
    events
      .command("tail")
      .description("follow the hub's events as they come (Ctrl+C stops)")
      .addOption(new Option("--type <types>", "only these types, comma-separated (MERGE_MESSAGE, …)"))
      .addOption(new Option("--from <id>", "start at this event id (default: the next event)"))
      .addOption(new Option("--count <n>", "stop after this many events")),
    { parts: ["hub"] },
  ).action(async (options: CommonOptions & { type?: string; from?: string; count?: string }) => {
    const types = options.type?.split(",").map((t) => PREFIX + t.trim().toUpperCase().replace(PREFIX, ""));
    const from =
      options.from === undefined
        ? undefined
        : wholeNumber("--from", options.from, 0, Number.MAX_SAFE_INTEGER);
    const count =
      options.count === undefined ? undefined : wholeNumber("--count", options.count, 1, 1_000_000);
    const { hub, people } = contextOf(options);
    const stop = new AbortController();
    process.once("SIGINT", () => stop.abort());
    let response: Response;
    try {
      response = await fetch(hub.eventStreamUrl(from), { signal: stop.signal });
    } catch {
      throw unreachable("hub", hub.base);
    }
    if (!response.ok || !response.body)
      throw new CliError(`the hub refused the event stream: status ${response.status}`);
    let seen = 0;
    let buffer = "";
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          if (data === "") continue;
          const event = JSON.parse(data) as HubEventJson;
          if (types && !types.includes(event.type)) continue;
          console.log(options.json ? JSON.stringify(event) : await line(event, people));
          if (count !== undefined && ++seen >= count) return stop.abort();
        }
      }
    } catch (error) {
      if (!stop.signal.aborted) throw error;
    }
  });
}

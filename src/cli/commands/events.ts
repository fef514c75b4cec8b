/** `castnet events tail`: the hub's event stream (SSE), followed until Ctrl+C or --count events. */
import { type Command, Option } from "commander";
import { type CommonOptions, contextOf, wholeNumber, withOptions } from "../context.js";
import { unreachable } from "../http/request.js";
import { CliError } from "../http/request.js";

interface HubEventJson {
  id: number;
  type: string;
  mergeMessageBody?: { message: { hash: string; data: { type: string; fid: number } } };
  mergeOnChainEventBody?: { onChainEvent: { type: string; fid: number } };
  mergeUsernameProofBody?: { usernameProof?: { name: string; fid: number } };
}

const PREFIX = "HUB_EVENT_TYPE_";

/** One line for a terminal: id, type, and who did what. */
function line(event: HubEventJson): string {
  const what =
    event.mergeMessageBody?.message &&
    `fid ${event.mergeMessageBody.message.data.fid} ${event.mergeMessageBody.message.data.type} ${event.mergeMessageBody.message.hash}`;
  const onChain =
    event.mergeOnChainEventBody?.onChainEvent &&
    `fid ${event.mergeOnChainEventBody.onChainEvent.fid} ${event.mergeOnChainEventBody.onChainEvent.type}`;
  const proof =
    event.mergeUsernameProofBody?.usernameProof &&
    `fid ${event.mergeUsernameProofBody.usernameProof.fid} ${event.mergeUsernameProofBody.usernameProof.name}`;
  return `${event.id}  ${event.type.replace(PREFIX, "")}  ${what ?? onChain ?? proof ?? ""}`.trimEnd();
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
    const { hub } = contextOf(options);
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
          console.log(options.json ? JSON.stringify(event) : line(event));
          if (count !== undefined && ++seen >= count) return stop.abort();
        }
      }
    } catch (error) {
      if (!stop.signal.aborted) throw error;
    }
  });
}

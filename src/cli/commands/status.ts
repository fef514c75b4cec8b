/** `castnet status`: which parts answer where, their versions, and what they hold, over public reads. */
import type { Command } from "commander";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";
import { CliError, type PartLabel, request } from "../http/request.js";

interface PartStatus {
  url: string;
  running: boolean;
  version?: string;
  [detail: string]: unknown;
}

/** The part's API version (from its OpenAPI document), or undefined when it does not answer. */
async function versionOf(part: PartLabel, base: string): Promise<string | undefined> {
  try {
    return (await request<{ info: { version: string } }>(part, base, "/openapi.json")).info.version;
  } catch (error) {
    if (error instanceof CliError) return undefined;
    throw error;
  }
}

/** The hub's newest event id: its event log read page by page from the oldest event it keeps. */
async function latestEventId(base: string): Promise<number | null> {
  let latest: number | null = null;
  for (;;) {
    const page: { events: { id: number }[] } = await request(
      "hub",
      base,
      `/v1/events?from_event_id=${latest === null ? 0 : latest + 1}&pageSize=1000`,
    );
    if (page.events.length === 0) return latest;
    latest = page.events.at(-1)!.id;
  }
}

export function registerStatus(program: Command): void {
  withOptions(program.command("status").description("which parts run where, their versions and counts"), {
    parts: ["registry", "hub", "api", "chain"],
  }).action(async (options: CommonOptions) => {
    const context = contextOf(options);
    const parts: Record<string, PartStatus> = {};
    const check = async (name: string, label: PartLabel, base: string, details: () => Promise<object>) => {
      const version = await versionOf(label, base);
      parts[name] =
        version === undefined
          ? { url: base, running: false }
          : { url: base, running: true, version, ...(await details()) };
    };
    await check("registry", "registry", context.registry.base, async () => ({
      transfers: (await request<{ transfers: unknown[] }>("registry", context.registry.base, "/transfers"))
        .transfers.length,
    }));
    await check("hub", "hub", context.hub.base, async () => {
      const info = await request<{
        version: string;
        dbStats: { numMessages: number; numFidEvents: number; numFnameEvents: number };
      }>("hub", context.hub.base, "/v1/info?dbstats=true");
      return {
        hubVersion: info.version,
        latestEventId: await latestEventId(context.hub.base),
        messages: info.dbStats.numMessages,
        onChainEvents: info.dbStats.numFidEvents,
        nameProofs: info.dbStats.numFnameEvents,
      };
    });
    await check("api", "client API", context.api.base, async () => ({
      channels: (await context.api.channels()).channels.length,
    }));
    await check("chain", "devchain", context.chainBase, async () => ({
      block: await context.chain.latestBlockNumber(),
    }));
    const running = Object.values(parts).filter((p) => p.running).length;
    const lines = Object.entries(parts).map(([name, p]) => {
      if (!p.running) return `${name.padEnd(9)} ${p.url}  not running`;
      const { url, running: _, version, ...details } = p;
      const shown = Object.entries(details).map(([k, v]) => `${k} ${String(v)}`);
      return `${name.padEnd(9)} ${url}  v${version}  ${shown.join(", ")}`;
    });
    report(options, { running: running === 4, parts }, lines);
    // A script can tell a whole stack from a partial one by the exit status.
    if (running < 4) process.exitCode = 1;
  });
}

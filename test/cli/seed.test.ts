/**
 * `castnet start --seed demo` and `castnet seed demo`: the whole stack filled through the parts'
 * public APIs, every read answering with data, exact counts, and a second run that changes nothing.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Keystore } from "../../src/wallet/keystore.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { seedOnStart } from "../../src/cli/seedOnStart.js";
import { createLogger } from "../../src/http/index.js";
import { testEngines } from "../support/databases.js";
import { FREE_PORTS } from "../support/ports.js";
import { castnet, json } from "./run.js";

type Part = "registry" | "hub" | "api" | "chain";
const quiet = { update() {}, finish() {} };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parts' JSON, read field by field
async function get(base: string, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(base + path);
  return { status: response.status, body: await response.json() };
}

/** Everything the demo wrote, as the parts' public reads show it. */
async function snapshot(url: Record<Part, string>) {
  const hub: Record<string, unknown[]> = {};
  for (let fid = 1; fid <= 12; fid++)
    for (const read of ["castsByFid", "reactionsByFid", "linksByFid", "userDataByFid", "verificationsByFid"])
      hub[`${read} ${fid}`] = (await get(url.hub, `/v1/${read}?fid=${fid}&pageSize=1000`)).body.messages;
  const api = async (path: string) => (await get(url.api, path)).body.result;
  const channels = (await api("/v2/all-channels")).channels as { id: string }[];
  const followers: Record<string, number[]> = {};
  for (const { id } of channels) followers[id] = (await api(`/v1/channel-followers?channelId=${id}`)).fids;
  return {
    hub,
    events: (await get(url.hub, "/v1/events?from_event_id=0&pageSize=1000")).body.events.length,
    transfers: (await get(url.registry, "/transfers")).body.transfers,
    block: (await get(url.chain, "/v1/blocks/latest")).body.number,
    channels,
    followers,
    blocks: (await api("/v1/blocked-users")).blockedUsers,
    actions: (await api("/v1/admin/actions")).actions,
    badges: (await api("/v2/power-badge-users")).fids,
    badgeState: (({ lastRun: _, ...state }) => state)(await api("/v1/admin/power-badges")),
    sponsor: (await api("/v1/admin/sponsors/12")).sponsor,
    // lou (fid 12) lends jun (fid 10) storage.
    loan: await Promise.all(
      [12, 10].map(
        async (fid) => (await get(url.hub, `/v1/storageLimitsByFid?fid=${fid}`)).body.unitDetails[1],
      ),
    ),
  };
}

const total = (s: Awaited<ReturnType<typeof snapshot>>, read: string) =>
  Object.entries(s.hub)
    .filter(([key]) => key.startsWith(`${read} `))
    .reduce((n, [, messages]) => n + messages.length, 0);

for (const engine of await testEngines()) {
  describe(`the demo seed on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: RunningStack;
    let dir: string;
    let drop: () => Promise<void>;
    let url: Record<Part, string>;
    let first: Awaited<ReturnType<typeof snapshot>>;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), "castnet-seed-"));
      const created = await engine.create();
      drop = created.drop;
      const env = created.config.engine === "postgres" ? { DATABASE_URL: created.config.url } : {};
      const config = parseStartOptions(
        ["--data-dir", dir, "--block-time", "0", "--seed", "demo", ...FREE_PORTS],
        env,
      );
      stack = await startStack(config, createLogger("silent"), { afterListen: seedOnStart(config, quiet) });
      url = stack.urls as Record<Part, string>;
      first = await snapshot(url);
    });

    after(async () => {
      await stack?.close();
      await drop?.();
      rmSync(dir, { recursive: true, force: true });
    });

    it("fills every part with the demo world, the accounts kept in the keystore", () => {
      assert.equal(total(first, "castsByFid"), 18);
      assert.equal(total(first, "reactionsByFid"), 54);
      assert.equal(total(first, "linksByFid"), 34);
      assert.equal(total(first, "userDataByFid"), 60);
      assert.equal(total(first, "verificationsByFid"), 2);
      assert.equal(first.transfers.length, 12);
      assert.deepEqual(
        first.channels.map((c) => c.id),
        ["welcome", "dev", "music", "photography", "books", "onchain-art"],
      );
      assert.deepEqual(
        Object.values(first.followers).map((fids) => fids.length),
        [12, 7, 4, 3, 2, 2],
      );
      assert.equal(first.blocks.length, 3);
      assert.deepEqual(
        first.actions.map((a: { name: string; installCount: number }) => [a.name, a.installCount]),
        [
          ["Upthumb", 9],
          ["Save for later", 4],
          ["Check author", 2],
          ["Poll", 7],
          ["Schedule", 3],
          ["Image search", 1],
        ],
      );
      // ana, ben and cleo have five or more distinct reactors: the rule's first run grants them; the
      // operator grants lou one and takes cleo's back.
      assert.deepEqual(first.badgeState.computed, [1, 2, 3]);
      assert.deepEqual(first.badges, [1, 2, 12]);
      assert.deepEqual(first.sponsor, { fid: 12, credits: 1000 });
      assert.deepEqual(first.loan, [
        {
          unitType: "UNIT_TYPE_2024",
          unitSize: 999,
          purchasedUnitSize: 1001,
          lentUnitSize: 2,
          borrowedUnitSize: 0,
        },
        {
          unitType: "UNIT_TYPE_2024",
          unitSize: 3,
          purchasedUnitSize: 1,
          lentUnitSize: 0,
          borrowedUnitSize: 2,
        },
      ]);
      const keystore = new Keystore(dir);
      assert.deepEqual(keystore.names(), [
        "ana",
        "ben",
        "cleo",
        "dax",
        "eli",
        "fay",
        "gus",
        "hana",
        "ivo",
        "jun",
        "kai",
        "lou",
      ]);
      assert.deepEqual(
        keystore.names().map((name) => keystore.get(name).fid),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      );
    });

    it("gives every demo account the dev balance on the first start, which funded an empty keystore", async () => {
      const balances: string[] = [];
      const keystore = new Keystore(dir);
      for (const name of keystore.names()) {
        const response = await fetch(url.chain, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "eth_getBalance",
            params: [keystore.get(name).custodyAddress, "latest"],
          }),
        });
        balances.push(((await response.json()) as { result: string }).result);
      }
      // 100 ETH, the default --dev-balance, in wei.
      assert.deepEqual(balances, Array(12).fill(`0x${(100n * 10n ** 18n).toString(16)}`));
    });

    it("answers every read route of every part with data", async () => {
      const custody = new Keystore(dir).get("ana").custodyAddress;
      const cast = (await get(url.hub, "/v1/castsByFid?fid=1&pageSize=1")).body.messages[0].hash;
      const event = (await get(url.chain, "/v1/events?from_block=0&limit=1")).body.events[0];
      const hubEvent = (await get(url.hub, "/v1/events?from_event_id=0&pageSize=1")).body.events[0].id;
      const token = Object.keys(new Keystore(dir).requestedKeys())[0];
      const kai = new Keystore(dir).get("kai").fid;
      const gasless = (await get(url.hub, `/v1/signersByFid?fid=${kai}`)).body.signers.find(
        (s: { source: string }) => s.source === "SIGNER_SOURCE_OFFCHAIN",
      ).key;
      const reads: Record<Part, string[]> = {
        chain: [
          `/v1/addresses/${custody}`,
          "/v1/fids/1",
          "/v1/events?from_block=0",
          `/v1/transactions/${event.transactionHash}`,
          "/v1/blocks/latest",
        ],
        registry: ["/transfers", "/transfers/current?name=ana", "/signer", "/current-time"],
        hub: [
          "/v1/info?dbstats=true",
          `/v1/activity/reactorsByAuthor?since=${Math.floor(Date.now() / 1000) - 86_400}`,
          `/v1/castById?fid=1&hash=${cast}`,
          `/v1/castByHash?hash=${cast}`,
          "/v1/castsByFid?fid=1",
          `/v1/castsByParent?fid=1&hash=${cast}`,
          "/v1/castsByMention?fid=1",
          `/v1/reactionById?fid=2&reaction_type=1&target_fid=1&target_hash=${cast}`,
          "/v1/reactionsByFid?fid=2",
          `/v1/reactionsByCast?target_fid=1&target_hash=${cast}`,
          "/v1/reactionsByTarget?url=https://demo.example/apps/first",
          "/v1/linkById?fid=1&target_fid=2&link_type=follow",
          "/v1/linksByFid?fid=1",
          "/v1/linksByTargetFid?target_fid=1",
          "/v1/userDataByFid?fid=1",
          "/v1/verificationsByFid?fid=1",
          "/v1/onChainSignersByFid?fid=1",
          `/v1/signersByFid?fid=${kai}`,
          `/v1/signer?fid=${kai}&signer=${gasless}`,
          `/v1/fidAddressType?fid=1&address=${custody}`,
          "/v1/onChainEventsByFid?fid=1&event_type=EVENT_TYPE_SIGNER",
          `/v1/onChainIdRegistryEventByAddress?address=${custody}`,
          "/v1/fids",
          "/v1/storageLimitsByFid?fid=1",
          "/v1/userNameProofByName?name=ana",
          "/v1/userNameProofsByFid?fid=1",
          "/v1/events?from_event_id=0",
          `/v1/eventById?event_id=${hubEvent}`,
        ],
        api: [
          "/v2/all-channels",
          "/v1/channel?channelId=welcome",
          "/v1/channel-followers?channelId=welcome",
          "/v1/user-following-channels?fid=1",
          "/v1/user-channel?fid=1&channelId=welcome",
          "/v2/power-badge-users",
          "/v1/admin/power-badges",
          "/v2/discover-actions?list=top",
          "/v2/discover-composer-actions?list=featured",
          "/v1/admin/actions",
          "/v1/blocked-users",
          "/fc/blocked-users",
          `/v2/signed-key-request?token=${token}`,
          `/v2/signed-key-request/approval?token=${token}&fid=1`,
          "/v1/admin/sponsors/12",
        ],
      };
      // Reads that are not of the demo's data: documents, health, metrics, streams, a resolver's calls,
      // the client API's HTML pages (test/pages/explorer.test.ts reads them on a seeded stack), and
      // sign-in's, whose channels, nonces and tokens each sign-in makes (test/clientapi/signIn.test.ts,
      // quickAuth.test.ts and test/pages/signIn.test.ts read them), and the peers a single node never has.
      const notData =
        /^\/(openapi\.json|docs|_health|_ready|metrics|ccip\/|v1\/events\/stream|$|fid\/|cast\/|name\/|channel\/|channels$|events$|search$|approve$|assets\/|avatars\/|v1\/channel\/status$|sign-in|verify-jwt$|\.well-known\/|v1\/currentPeers$)/;
      for (const part of Object.keys(reads) as Part[]) {
        const routes = stack.routes[part]!.filter((r) => r.method === "GET" && !notData.test(r.url));
        const paths = reads[part].map((path) => path.split("?")[0]!);
        for (const route of routes) {
          const pattern = new RegExp(`^${route.url.replace(/:\w+/g, "[^/]+")}$`);
          assert.ok(
            paths.some((path) => pattern.test(path)),
            `${part} GET ${route.url} is read by this test`,
          );
        }
        for (const path of reads[part]) {
          const { status, body } = await get(url[part], path);
          assert.equal(status, 200, `${part} ${path}: ${JSON.stringify(body)}`);
          const data = body.result ?? body;
          const empty = Object.entries(data).filter(([, v]) => Array.isArray(v) && v.length === 0);
          assert.deepEqual(empty, [], `${part} ${path} answers with data`);
        }
      }
    });

    it("changes nothing when it runs again, as castnet seed demo against the running stack", async () => {
      const run = await castnet(
        {
          CASTNET_DATA_DIR: dir,
          CASTNET_HUB_URL: url.hub,
          CASTNET_REGISTRY_URL: url.registry,
          CASTNET_API_URL: url.api,
          CASTNET_CHAIN_URL: url.chain,
        },
        "seed",
        "demo",
        "--json",
      );
      const summary = json<Record<string, { total: number; made: number }>>(run);
      assert.deepEqual(
        Object.fromEntries(Object.entries(summary).map(([kind, { total: n, made }]) => [kind, [n, made]])),
        {
          accounts: [12, 0],
          names: [12, 0],
          profiles: [12, 0],
          casts: [18, 0],
          reactions: [54, 0],
          follows: [34, 0],
          verifications: [2, 0],
          loans: [1, 0],
          "gasless signers": [1, 0],
          channels: [6, 0],
          "channel follows": [30, 0],
          blocks: [3, 0],
          actions: [6, 0],
          installs: [26, 0],
          sponsors: [1, 0],
          "key requests": [1, 0],
          "power badges": [3, 0],
          "badge overrides": [2, 0],
        },
      );
      assert.deepEqual(await snapshot(url), first);
    });
  });
}

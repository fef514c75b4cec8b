/**
 * The hostile-input sweep: the whole stack as `castnet start` composes it, and every route of every
 * part sent a deterministic, seeded set of bad requests over HTTP on 127.0.0.1. Every route each
 * part's Fastify instance records as it is registered (`routeInventory`, collected in
 * src/http/server.ts and handed out by startStack) is swept: as hostile/routes.ts lists it by hand
 * (baselines from the fixtures, what it must refuse), or else from its own schemas
 * (hostile/derived.ts). The promise under test: every bad input gets a 4xx in that API's own error
 * shape with a sentence a person understands (or a 2xx where the input is in fact acceptable), never
 * a 5xx, never a crash, never a partial write.
 *
 * Writes are watched below HTTP as well as through it (hostile/watchers.ts): a refused request that
 * changed a table is a partial write.
 *
 * The pieces, in test/e2e/hostile/: derived.ts (a route the list does not name, swept from its
 * schemas), generator.ts (the seeded generator every random byte comes
 * from), client.ts (node:http, to send any bytes), judge.ts (what an answer must look like),
 * watchers.ts, protobuf.ts (messages by hand), values.ts (hostile parameter and field values),
 * routes.ts (the route list), cases.ts and protoCases.ts (the requests sent a route), fixtures.ts
 * (the state made before the sweep), nulCases.ts and errorLogs.ts.
 *
 * Findings (5xx, out-of-shape errors, writes on refused requests) are kept as failing assertions on
 * purpose; each failure lists the exact request and the answer. HOSTILE_LOG=1 prints every request
 * and its answer.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import pino from "pino";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { seedOnStart } from "../../src/cli/seedOnStart.js";
import { testEngines } from "../support/databases.js";
import { FREE_PORTS } from "../support/ports.js";
import { MALFORMED_HTTP, routeCases, unknownRouteCases } from "./hostile/cases.js";
import { type Reply, type Req, closeAgents, requestsSent, send, sendRaw } from "./hostile/client.js";
import { errorLogCollector } from "./hostile/errorLogs.js";
import { makeFixtures, readJson, until } from "./hostile/fixtures.js";
import { type Case, describeReq, judge, short } from "./hostile/judge.js";
import { nulLinkMessage, nulStringCases } from "./hostile/nulCases.js";
import { PARTS, type Part, type Shape } from "./hostile/parts.js";
import { OCTET, pbBytes } from "./hostile/protobuf.js";
import { DERIVED_ON_PURPOSE, type Fixtures, placeholderFixtures, routes } from "./hostile/routes.js";
import { routeFromSchema } from "./hostile/derived.js";
import { type WriteWatch, postgresWatch, sqliteWatch } from "./hostile/watchers.js";

const engines = await testEngines();
const crashes: string[] = [];
process.on("uncaughtException", (error) =>
  crashes.push(`uncaught exception: ${error.stack ?? String(error)}`),
);
process.on("unhandledRejection", (error) =>
  crashes.push(`unhandled rejection: ${String((error as Error)?.stack ?? error)}`),
);

for (const engine of engines) {
  // The sweep's input handling does not depend on the engine; PostgreSQL runs it again for the writes.
  describe(`hostile input to the whole stack on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: RunningStack;
    let dataDir: string;
    let drop: () => Promise<void>;
    let watch: WriteWatch;
    let fx: Fixtures;
    const { stream: logStream, lines: errorLogs } = errorLogCollector();

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      dataDir = mkdtempSync(join(tmpdir(), "castnet-hostile-"));
      const env: NodeJS.ProcessEnv =
        created.config.engine === "postgres" ? { DATABASE_URL: created.config.url } : {};
      const config = parseStartOptions(
        [...["--data-dir", dataDir, "--block-time", "0", "--seed", "demo"], ...FREE_PORTS],
        env,
      );
      stack = await startStack(config, pino({ level: "error" }, logStream), {
        afterListen: seedOnStart(config),
      });
      const urls = stack.urls as Record<Part, string>;
      fx = await makeFixtures(urls);

      watch =
        created.config.engine === "sqlite" ? sqliteWatch(dataDir) : await postgresWatch(created.config.url);
      // Quiet: nothing commits any more before the sweep starts.
      await until(
        "the stack to go quiet",
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return (await watch.changes()).length === 0 ? true : undefined;
        },
        10_000,
      );
      // The watch must see a write when there is one: an operator write that is accepted.
      const accepted = await fetch(`${urls.api}/v1/admin/sponsors/4244`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: '{"credits":1}',
      });
      assert.equal(accepted.status, 200, await accepted.text());
      assert.deepEqual(await watch.changes(["api"]), ["api_sponsors"]);
    });

    after(async () => {
      await watch?.close();
      await stack?.close();
      closeAgents();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function healthProblems(): Promise<string[]> {
      const problems: string[] = [];
      for (const part of PARTS) {
        try {
          const reply = await send(fx.urls[part], { method: "GET", path: "/_health" });
          if (reply.status !== 200 || reply.text !== '{"status":"ok"}')
            problems.push(`${part} stopped serving: GET /_health → ${reply.status} ${short(reply.text)}`);
        } catch (error) {
          problems.push(`${part} stopped serving: GET /_health → ${(error as Error).message}`);
        }
      }
      return problems;
    }

    /** Sends each case, judges the answer and watches for writes; returns every problem found. */
    async function sweep(
      part: Part,
      cases: readonly Case[],
      options: { shapes?: readonly Shape[]; write?: boolean } = {},
    ) {
      const problems: string[] = [];
      const shapes = options.shapes ?? [part];
      const perCase = watch.cheap || options.write === true;
      await watch.changes();
      for (const c of cases) {
        let reply: Reply;
        try {
          reply = await send(fx.urls[part], c.req);
        } catch (error) {
          problems.push(`${describeReq(part, c.req)} {${c.label}} → no answer: ${(error as Error).message}`);
          continue;
        }
        if (process.env.HOSTILE_LOG === "1")
          console.log(`${describeReq(part, c.req)} {${c.label}} → ${reply.status} ${short(reply.text, 200)}`);
        problems.push(...judge(part, c, reply, c.shapes ?? shapes));
        if (!perCase) continue;
        const changed = await watch.changes(watch.cheap ? PARTS : [part]);
        if (changed.length > 0 && !(reply.status >= 200 && reply.status < 300)) {
          problems.push(
            `${describeReq(part, c.req)} {${c.label}} → ${reply.status} ${short(reply.text)}: refused, yet wrote to ${changed.join(", ")}`,
          );
        }
      }
      if (!perCase) {
        const changed = await watch.changes();
        if (changed.length > 0)
          problems.push(`${part}: the route's hostile requests wrote to ${changed.join(", ")}`);
      }
      problems.push(...(await healthProblems()));
      return problems;
    }

    function report(problems: readonly string[]) {
      const logs = errorLogs.splice(0);
      const all = [...problems, ...logs.map((l) => `error logged: ${l}`), ...crashes.splice(0)];
      if (all.length > 0) assert.fail(`${all.length} problem(s):\n${all.join("\n")}`);
    }

    // One test per route, so that each finding names its route. Route definitions need the fixtures,
    // so the list is built here from a placeholder and read again inside each test.
    const placeholder = routes(placeholderFixtures());

    // The hand-kept list knows what the fixtures made and what each route must refuse; a route it
    // does not name is swept from its own schemas (hostile/derived.ts), so no route goes unswept.
    const key = (part: Part, method: string, path: string) => `${part} ${method} ${path}`;
    const listed = new Set(placeholder.map((route) => key(route.part, route.method, route.path)));
    const unlisted = () =>
      PARTS.flatMap((part) =>
        (stack.routes[part] ?? [])
          .filter(({ method, url }) => !listed.has(key(part, method, url)))
          .map((entry) => routeFromSchema(part, entry)),
      );

    it("every route in the hand-kept list is one a part registers", () => {
      const registered = new Set(
        PARTS.flatMap((part) => (stack.routes[part] ?? []).map(({ method, url }) => key(part, method, url))),
      );
      const problems = [...listed]
        .filter((route) => !registered.has(route))
        .map((route) => `${route}: in routes() in test/e2e/hostile/routes.ts, but no part registers it`);
      if (problems.length > 0) assert.fail(`${problems.length} problem(s):\n${problems.join("\n")}`);
    });

    it("routes the hand-kept list does not name, swept from their schemas", async () => {
      const derived = unlisted();
      // The hand-kept list leaves these to their schemas; were none derived, this test would sweep nothing.
      assert.deepEqual(
        derived
          .map((route) => key(route.part, route.method, route.path))
          .filter((k) => DERIVED_ON_PURPOSE.includes(k))
          .sort(),
        [...DERIVED_ON_PURPOSE].sort(),
      );
      const all = [...routes(fx), ...derived];
      const problems: string[] = [];
      for (const route of derived) {
        const sent = await routeCases(route, all, fx);
        problems.push(...(await sweep(route.part, sent, { shapes: route.shapes, write: route.write })));
      }
      report(problems);
    });

    placeholder.forEach((shape, index) => {
      it(`${shape.part} ${shape.method} ${shape.path}`, async () => {
        const all = routes(fx);
        const route = all[index]!;
        const sent = await routeCases(route, all, fx);
        report(await sweep(route.part, sent, { shapes: route.shapes, write: route.write }));
      });
    });

    for (const part of PARTS) {
      it(`${part}: unknown routes, odd methods and malformed HTTP`, async () => {
        const problems = await sweep(part, unknownRouteCases());
        for (const [label, raw] of MALFORMED_HTTP) {
          const reply = await sendRaw(fx.urls[part], Buffer.from(raw, "latin1"));
          problems.push(
            ...judge(part, { label, req: { method: "RAW", path: short(raw, 40) }, expect: "refuse" }, reply, [
              part,
            ]),
          );
        }
        problems.push(...(await healthProblems()));
        report(problems);
      });
    }

    it("numbers in query strings and paths are plain decimal integers, not hex, exponents or padded", async () => {
      const forms = ["0x10", "1e1", "%201", "%2B1", "1.0"];
      const probes: [Part, (n: string) => string][] = [
        ["registry", (n) => `/transfers?fid=${n}`],
        ["hub", (n) => `/v1/castsByFid?fid=${n}`],
        ["api", (n) => `/v1/user-following-channels?fid=3&limit=${n}`],
        ["chain", (n) => `/v1/events?limit=${n}`],
        ["chain", (n) => `/v1/fids/${n}`],
      ];
      const problems: string[] = [];
      for (const [part, path] of probes) {
        const cases = forms.map((n): Case => ({
          label: `number written ${n}`,
          req: { method: "GET", path: path(n) },
          expect: "refuse",
        }));
        problems.push(...(await sweep(part, cases)));
      }
      // The same leniency on an operator write: PUT /v1/admin/power-badges/1e1 would grant fid 10.
      const before = (await readJson(fx.urls.api, "/v1/admin/power-badges")).body as {
        result: { grants: number[] };
      };
      const granted = await send(fx.urls.api, {
        method: "PUT",
        path: "/v1/admin/power-badges/1e1",
        body: '{"badge":"grant"}',
        contentType: "application/json",
      });
      const afterGrant = (await readJson(fx.urls.api, "/v1/admin/power-badges")).body as {
        result: { grants: number[] };
      };
      if (granted.status < 400 || afterGrant.result.grants.length !== before.result.grants.length)
        problems.push(
          `api: PUT /v1/admin/power-badges/1e1 body {"badge":"grant"} → ${granted.status} ${short(granted.text, 200)}: ` +
            `"1e1" read as fid 10 (grants ${JSON.stringify(before.result.grants)} → ${JSON.stringify(afterGrant.result.grants)})`,
        );
      report(problems);
    });

    it("strings with NUL characters that reach a write are stored or refused, never a failure", async () => {
      const cases = await nulStringCases(fx);
      const problems = [
        ...(await sweep("api", cases.api, { write: true })),
        ...(await sweep("hub", cases.hub, { write: true })),
      ];
      report(problems);
    });

    it("one hostile message does not fail the valid messages merged with it", async () => {
      // Submits are committed in groups; a message the database cannot take must fail alone.
      const seed = Buffer.from(fx.alice.signerPrivateKey.slice(2), "hex");
      const signer = new core.NobleEd25519Signer(seed);
      const cast = async (text: string): Promise<Uint8Array> =>
        core.Message.encode(
          (
            await core.makeCastAdd(
              { text, embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
              { fid: fx.alice.fid, network: core.FarcasterNetwork.MAINNET },
              signer,
            )
          )._unsafeUnwrap(),
        ).finish();
      const nulLink = (type: string) => nulLinkMessage(fx, type);
      const submit = (body: Uint8Array, path = "/v1/submitMessage"): Req => ({
        method: "POST",
        path,
        body,
        contentType: OCTET,
      });
      const problems: string[] = [];
      const neighbours = await Promise.all(Array.from({ length: 8 }, (_, i) => cast(`neighbour ${i}`)));
      const hostile = submit(await nulLink("g\u0000"));
      const replies = await Promise.all([
        ...neighbours.map((c) => send(fx.urls.hub, submit(c))),
        send(fx.urls.hub, hostile),
      ]);
      replies.slice(0, -1).forEach((reply, i) => {
        if (reply.status !== 200)
          problems.push(
            `hub: a valid cast submitted beside a NUL link → ${reply.status} ${short(reply.text, 300)}: its neighbour failed it`,
          );
        else if (
          (JSON.parse(reply.text) as { data?: { castAddBody?: { text?: string } } }).data?.castAddBody
            ?.text !== `neighbour ${i}`
        )
          problems.push(
            `hub: a valid cast submitted beside a NUL link → 200 but not the cast: ${short(reply.text)}`,
          );
      });
      problems.push(
        ...judge(
          "hub",
          { label: "a NUL link among valid casts", req: hostile, expect: "either" },
          replies.at(-1)!,
          ["hub"],
        ),
      );

      const bulkCasts = [await cast("bulk neighbour 1"), await cast("bulk neighbour 2")];
      const bulk = submit(
        Uint8Array.from([
          ...pbBytes(1, bulkCasts[0]!),
          ...pbBytes(1, await nulLink("h\u0000")),
          ...pbBytes(1, bulkCasts[1]!),
        ]),
        "/v1/submitBulkMessages",
      );
      const bulkReply = await send(fx.urls.hub, bulk);
      if (bulkReply.status !== 200) {
        problems.push(
          `${describeReq("hub", bulk)} {two valid casts and a NUL link} → ${bulkReply.status} ${short(bulkReply.text, 300)}: the valid casts were not merged`,
        );
      } else {
        const outcomes = (JSON.parse(bulkReply.text) as { messages: Record<string, unknown>[] }).messages;
        for (const i of [0, 2]) {
          if (outcomes[i]?.errCode !== undefined)
            problems.push(
              `hub: bulk of two valid casts and a NUL link → 200, but valid cast #${i} failed: ${JSON.stringify(outcomes[i])}`,
            );
        }
      }
      problems.push(...errorLogs.splice(0).map((l) => `error logged: ${l}`));
      problems.push(...(await healthProblems()));
      await watch.changes();
      report(problems);
    });

    it("keeps serving after the sweep, with no crash and no error logged", async (t) => {
      t.diagnostic(`${requestsSent()} requests sent so far`);
      report(await healthProblems());
    });
  });
}

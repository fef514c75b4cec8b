/**
 * Finding 4: what the explorer's pages cost the hub. A search for a cast hash, and a cast's page,
 * read the hub's event log a page of 100 events at a time (up to twenty pages), so a flood of
 * searches kept the hub, and every part in its process, busy. Now a search is one indexed hub read
 * (GET /v1/castByHash), a cast's page reads no events, and pages are limited per client address
 * (429 with Retry-After and a page saying so).
 */
import assert from "node:assert/strict";
import http from "node:http";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { PartUrls } from "../../src/explorer/index.js";
import { testEngines } from "../support/databases.js";
import { startTestStack, type TestStack } from "../support/stack.js";
import { castAdd, encode, hex, newAccount, protocolNow, type Account } from "../hub/support.js";

/** Casts beyond the first: the log then holds more than two pages of 100 events. */
const MORE_CASTS = 240;
const BURST = 20;
/** Page routes a client loads over and over. */
const ROUTES = ["/", "/events", "/search?q=1"];

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** GET over a connection of its own from `from` (any 127.0.0.0/8 address reaches the loopback server). */
function get(url: string, from: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress: from, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
      response.on("error", reject);
    });
    request.setTimeout(10_000, () => request.destroy(new Error(`GET ${url} took over 10 s`)));
    request.on("error", reject);
  });
}

for (const engine of await testEngines()) {
  describe(`4: what the explorer costs the hub, on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: TestStack<"registry" | "hub" | "clientapi">;
    const urls: PartUrls = {};
    let author: Account;
    let castHash: string;

    /** Requests the hub has answered, from its own metrics (its /metrics reads left out). */
    async function hubRequests(): Promise<number> {
      const text = await (await fetch(`${stack.urls.hub}/metrics`)).text();
      let total = 0;
      for (const line of text.split("\n")) {
        const match = /^castnet_http_request_duration_seconds_count\{([^}]*)\} (\d+)$/.exec(line);
        if (match && !match[1]!.includes('route="/metrics"')) total += Number(match[2]);
      }
      return total;
    }

    /** What one page costs the hub, in requests; `from` is the client address. */
    async function cost(path: string, from = "127.0.0.1"): Promise<{ answer: Answer; requests: number }> {
      const before = await hubRequests();
      const answer = await get(`${urls.api}${path}`, from);
      return { answer, requests: (await hubRequests()) - before };
    }

    before(async () => {
      stack = await startTestStack(engine, {
        parts: ["registry", "hub", "clientapi"],
        listen: ["devchain", "registry", "hub", "clientapi"],
        explorer: {
          urls: () => urls,
          pageLimits: { perClientPerHour: 60, burst: BURST },
        },
      });
      Object.assign(urls, {
        chain: stack.urls.devchain,
        registry: stack.urls.registry,
        hub: stack.urls.hub,
        api: stack.urls.clientapi,
      });
      author = await newAccount(stack);
      const first = await castAdd(author, "the cast searched for", {}, protocolNow() - 300);
      castHash = hex(first.hash);
      const casts = [first];
      for (let i = 0; i < MORE_CASTS; i++)
        casts.push(await castAdd(author, `filler ${i}`, {}, protocolNow() - 299 + i));
      await Promise.all(casts.map((cast) => stack.hub.service.submitMessage(encode(cast))));
      const log = await stack.hub.service.events.page(0, 1000);
      assert.ok(log.events.length > 200, "the log holds more than two pages of events");
    });
    after(async () => stack?.close());

    it("a search for a hash the hub does not hold costs the hub one read", async () => {
      const { answer, requests } = await cost(`/search?q=0x${randomBytes(8).toString("hex")}`);
      assert.equal(answer.status, 404);
      assert.equal(requests, 1);
    });

    it("a search by the first digits of a cast's hash finds it with one hub read", async () => {
      const { answer, requests } = await cost(`/search?q=${castHash.slice(0, 12)}`);
      assert.equal(answer.status, 303);
      assert.equal(answer.headers.location, `/cast/${author.fid}/${castHash}`);
      assert.equal(requests, 1);
    });

    it("a cast's page costs the hub four reads, however long its log, and links to its events", async () => {
      const { answer, requests } = await cost(`/cast/${author.fid}/${castHash}`);
      assert.equal(answer.status, 200);
      // castById, castsByParent, reactionsByCast (the cast has no parent, no reactions) and the
      // author's profile (userDataByFid), which names the author.
      assert.equal(requests, 4);
      assert.match(answer.body, new RegExp(`<a href="/events\\?fid=${author.fid}&amp;from=\\d+"`));
    });

    it("answers a client past its burst of pages 429, with Retry-After and a page, while others are served", async () => {
      const flood = "127.0.0.3";
      const answers: Answer[] = [];
      for (let i = 0; i < BURST + 5; i++)
        answers.push(await get(`${urls.api}${ROUTES[i % ROUTES.length]}`, flood));
      assert.deepEqual(
        answers.map((a) => a.status === 429),
        answers.map((_, i) => i >= BURST),
      );
      const refused = answers[BURST]!;
      // 60 an hour: a page a minute comes back.
      assert.ok(Number(refused.headers["retry-after"]) > 0 && Number(refused.headers["retry-after"]) <= 60);
      assert.match(refused.headers["content-type"] ?? "", /^text\/html/);
      assert.match(refused.body, /<title>Too many requests · castnet<\/title>/);
      assert.match(refused.body, new RegExp(`try again in ${refused.headers["retry-after"]}\\s+s`));
      // The page's assets are not pages: the refused client still gets them.
      assert.equal((await get(`${urls.api}/assets/style.css`, flood)).status, 200);

      const before = await hubRequests();
      assert.equal((await get(`${urls.api}/search?q=0x${"ab".repeat(8)}`, flood)).status, 429);
      assert.equal(await hubRequests(), before, "a refused page reads nothing");

      assert.equal((await get(`${urls.api}/`, "127.0.0.4")).status, 200);
      assert.equal((await get(`${urls.api}/events`, "127.0.0.1")).status, 200);
    });

    it("counts an IPv6 client by its /64", async () => {
      const api = stack.clientapi.app;
      const from = (remoteAddress: string) => api.inject({ method: "GET", url: "/events", remoteAddress });
      for (let i = 0; i < BURST; i++)
        assert.equal((await from(`2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode, 200);
      assert.equal((await from("2001:db8:1:2:ffff:ffff:ffff:ffff")).statusCode, 429);
      assert.equal((await from("2001:db8:1:3::1")).statusCode, 200);
    });
  });
}

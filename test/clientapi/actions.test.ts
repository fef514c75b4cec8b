/** Cast and composer actions (docs/clientapi.md): the operator's registry, installs and featured list, and discovery. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { type Api, errorOf, sharedApi, withApi } from "./support.js";

const action = (type: string, name: string, extra: object = {}) => ({
  type,
  name,
  icon: "zap",
  description: `${name} does a thing`,
  aboutUrl: `https://demo.example/${name}`,
  actionUrl: `https://demo.example/${name}/meta`,
  ...extra,
});

/** Cast action alpha (with a postUrl) as the discovery lists answer it. */
const ALPHA_LISTED = {
  name: "alpha",
  icon: "zap",
  description: "alpha does a thing",
  aboutUrl: "https://demo.example/alpha",
  actionUrl: "https://demo.example/alpha/meta",
  action: { actionType: "post", postUrl: "https://demo.example/p" },
};

/** Registers cast actions alpha (with a postUrl), beta and gamma and composer actions poll, schedule and images; their ids by name. */
async function registerActions(api: Api): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  const register = async (body: ReturnType<typeof action>) => {
    const made = await api.send("POST", "/v1/admin/actions", body);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    ids[body.name] = made.body.result.action.id;
  };
  await register(action("cast", "alpha", { postUrl: "https://demo.example/p" }));
  for (const name of ["beta", "gamma"]) await register(action("cast", name));
  for (const name of ["poll", "schedule", "images"])
    await register(action("composer", name, { imageUrl: `https://demo.example/${name}.png` }));
  return ids;
}

for (const engine of await testEngines()) {
  describe(`actions on ${engine.engine}`, { skip: engine.skip }, () => {
    const api = sharedApi(engine);

    it("registers cast and composer actions", async () => {
      const made = await api.send(
        "POST",
        "/v1/admin/actions",
        action("cast", "alpha", { postUrl: "https://demo.example/p" }),
      );
      assert.equal(made.status, 201);
      assert.deepEqual(made.body.result.action, {
        id: made.body.result.action.id,
        type: "cast",
        ...ALPHA_LISTED,
        installCount: 0,
      });
      const composer = await api.send(
        "POST",
        "/v1/admin/actions",
        action("composer", "poll", { imageUrl: "https://demo.example/poll.png" }),
      );
      assert.equal(composer.status, 201);
      assert.equal(composer.body.result.action.type, "composer");
      assert.equal(composer.body.result.action.imageUrl, "https://demo.example/poll.png");
    });

    it("refuses bad actions", async () => {
      assert.equal((await api.send("POST", "/v1/admin/actions", action("cast", "taken"))).status, 201);
      assert.deepEqual(
        await api.send("POST", "/v1/admin/actions", action("cast", "delta", { icon: "banana" })),
        {
          status: 400,
          body: errorOf('icon "banana" is not one of the allowed Octicon names (see docs/clientapi.md)'),
        },
      );
      assert.deepEqual(await api.send("POST", "/v1/admin/actions", action("composer", "delta")), {
        status: 400,
        body: errorOf("a composer action needs an imageUrl"),
      });
      assert.deepEqual(await api.send("POST", "/v1/admin/actions", action("cast", "taken")), {
        status: 409,
        body: errorOf("a cast action with actionUrl https://demo.example/taken/meta is already registered"),
      });
      assert.deepEqual(await api.send("POST", "/v1/admin/actions", action("cast", "x".repeat(31))), {
        status: 400,
        body: errorOf('field "name" must NOT have more than 30 characters'),
      });
      assert.deepEqual(await api.send("PUT", "/v1/admin/actions/9999/installs/1"), {
        status: 404,
        body: errorOf("No action found with id 9999"),
      });
    });

    it("orders top actions by total users, ties newest first, and pages them", async () => {
      await withApi(engine, async (own) => {
        const ids = await registerActions(own);
        const installs: Record<string, number> = {
          alpha: 2,
          beta: 3,
          gamma: 2,
          poll: 1,
          schedule: 4,
          images: 0,
        };
        for (const [name, n] of Object.entries(installs))
          for (let fid = 1; fid <= n; fid++)
            await own.send("PUT", `/v1/admin/actions/${ids[name]}/installs/${fid}`);
        // Installing twice counts once.
        await own.send("PUT", `/v1/admin/actions/${ids.alpha}/installs/1`);
        const first = await own.get("/v2/discover-actions?list=top&limit=2");
        assert.deepEqual(
          first.body.result.actions.map((a: { name: string }) => a.name),
          ["beta", "gamma"],
        );
        const rest = await own.get(`/v2/discover-actions?list=top&cursor=${first.body.next.cursor}`);
        assert.deepEqual(rest.body, {
          result: {
            actions: [ALPHA_LISTED],
          },
        });
        const composer = await own.get("/v2/discover-composer-actions?list=top");
        assert.deepEqual(
          composer.body.result.actions.map((a: { name: string; imageUrl: string }) => [a.name, a.imageUrl]),
          [
            ["schedule", "https://demo.example/schedule.png"],
            ["poll", "https://demo.example/poll.png"],
            ["images", "https://demo.example/images.png"],
          ],
        );
        const uninstalled = await own.send("DELETE", `/v1/admin/actions/${ids.schedule}/installs/1`);
        assert.equal(uninstalled.body.result.action.installCount, 3);
      });
    });

    it("serves the curated featured list in its own order", async () => {
      await withApi(engine, async (own) => {
        const ids = await registerActions(own);
        await own.send("PUT", `/v1/admin/actions/${ids.images}/featured`, { rank: 2 });
        await own.send("PUT", `/v1/admin/actions/${ids.poll}/featured`, { rank: 1 });
        const last = await own.send("PUT", `/v1/admin/actions/${ids.schedule}/featured`, {});
        assert.equal(last.body.result.action.featuredRank, 3);
        const first = await own.get("/v2/discover-composer-actions?list=featured&limit=2");
        assert.deepEqual(
          first.body.result.actions.map((a: { name: string }) => a.name),
          ["poll", "images"],
        );
        const rest = await own.get(
          `/v2/discover-composer-actions?list=featured&cursor=${first.body.next.cursor}`,
        );
        assert.deepEqual(
          rest.body.result.actions.map((a: { name: string }) => a.name),
          ["schedule"],
        );
        await own.send("DELETE", `/v1/admin/actions/${ids.images}/featured`);
        const after = await own.get("/v2/discover-composer-actions?list=featured");
        assert.deepEqual(
          after.body.result.actions.map((a: { name: string }) => a.name),
          ["poll", "schedule"],
        );
        assert.deepEqual(await own.send("PUT", `/v1/admin/actions/${ids.alpha}/featured`, {}), {
          status: 409,
          body: errorOf(`action ${ids.alpha} is a cast action; only composer actions are featured`),
        });
      });
    });

    it("refuses an unknown or missing list", async () => {
      assert.deepEqual(await api.get("/v2/discover-actions?list=featured"), {
        status: 400,
        body: errorOf('query parameter "list" must be equal to one of the allowed values'),
      });
      assert.deepEqual(await api.get("/v2/discover-composer-actions"), {
        status: 400,
        body: errorOf('query parameter "list" is required'),
      });
    });
  });
}

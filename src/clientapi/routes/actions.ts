import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { operatorRoute, params } from "./operator.js";
import type { ClientApiRoutesOptions } from "./options.js";
import { paged } from "./paged.js";
import * as s from "./schemas.js";

const actionList = s.envelope(s.result({ actions: { type: "array", items: s.action } }), true);
const actionParams = params({ actionId: s.fid });
const installParams = params({ actionId: s.fid, fid: s.fid });
const actionReply = s.envelope(s.result({ action: s.actionRecord }));

/** Cast and composer actions: the discover lists and the operator's writes. */
export const actionRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (
  fastify,
  { service: { actions }, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const operator = operatorRoute(adminToken);

  app.get(
    "/v2/discover-actions",
    {
      schema: {
        summary: "Discover cast actions",
        description: "The top cast actions.",
        "x-spec": "SPEC B. Client API",
        tags: ["Actions"],
        querystring: s.object({ list: { type: "string", enum: ["top"] }, ...s.paging }, ["list"]),
        response: actionList,
      },
    },
    async (request) => {
      const { list: _list, ...page } = request.query;
      return paged(await actions.top("cast", page), (items) => ({ actions: items }));
    },
  );

  app.get(
    "/v2/discover-composer-actions",
    {
      schema: {
        summary: "Discover composer actions",
        description: "The top or featured composer actions.",
        "x-spec": "SPEC B. Client API",
        tags: ["Actions"],
        querystring: s.object({ list: { type: "string", enum: ["top", "featured"] }, ...s.paging }, ["list"]),
        response: actionList,
      },
    },
    async (request) => {
      const { list, ...page } = request.query;
      const found = list === "featured" ? await actions.featured(page) : await actions.top("composer", page);
      return paged(found, (items) => ({ actions: items }));
    },
  );

  app.get(
    "/v1/admin/actions",
    operator({
      summary: "All actions",
      description: "Operator: every action with its installs and rank.",
      tags: ["Actions"],
      response: s.envelope(s.result({ actions: { type: "array", items: s.actionRecord } })),
    }),
    async () => ({ result: { actions: await actions.list() } }),
  );

  app.post(
    "/v1/admin/actions",
    operator({
      summary: "Add an action",
      description: "Operator: adds a cast or composer action.",
      tags: ["Actions"],
      body: s.object(
        {
          type: { type: "string", enum: ["cast", "composer"] },
          name: s.text(30),
          icon: { type: "string", maxLength: 40 },
          description: s.text(80),
          aboutUrl: s.url,
          actionUrl: s.url,
          postUrl: s.url,
          imageUrl: s.url,
        },
        ["type", "name", "icon", "description", "aboutUrl", "actionUrl"],
      ),
      response: s.envelope(s.result({ action: s.actionRecord }), false, 201),
    }),
    async (request, reply) =>
      reply.code(201).send({ result: { action: await actions.register(request.body) } }),
  );

  app.put(
    "/v1/admin/actions/:actionId/installs/:fid",
    operator({
      summary: "Install an action for a fid",
      description: "Operator: counts toward the action's rank.",
      tags: ["Actions"],
      params: installParams,
      response: actionReply,
    }),
    async (request) => ({
      result: { action: await actions.install(request.params.actionId, request.params.fid) },
    }),
  );

  app.delete(
    "/v1/admin/actions/:actionId/installs/:fid",
    operator({
      summary: "Uninstall an action for a fid",
      description: "Operator: removes an install.",
      tags: ["Actions"],
      params: installParams,
      response: actionReply,
    }),
    async (request) => ({
      result: { action: await actions.uninstall(request.params.actionId, request.params.fid) },
    }),
  );

  app.put(
    "/v1/admin/actions/:actionId/featured",
    operator({
      summary: "Feature a composer action",
      description: "Operator: lists the action among the featured, at a rank.",
      tags: ["Actions"],
      params: actionParams,
      body: s.object({ rank: { type: "integer", minimum: 1, maximum: 1_000_000 } }),
      response: actionReply,
    }),
    async (request) => ({
      result: { action: await actions.feature(request.params.actionId, request.body.rank) },
    }),
  );

  app.delete(
    "/v1/admin/actions/:actionId/featured",
    operator({
      summary: "Stop featuring an action",
      description: "Operator: removes the action from the featured list.",
      tags: ["Actions"],
      params: actionParams,
      response: actionReply,
    }),
    async (request) => ({ result: { action: await actions.unfeature(request.params.actionId) } }),
  );
};

/**
 * GET /assets/:file: the pages' script, style sheet and icon, read once from the assets folder beside this
 * module (src/ under tsx; dist/ after the build, where scripts/copyAssets.mjs puts them).
 */
import { readFileSync, readdirSync } from "node:fs";
import { extname, join } from "node:path";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../http/routeTypes.js";
import type { ExplorerHost } from "./host.js";

const TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

const ASSETS_DIR = join(import.meta.dirname, "assets");

export const assetRoutes: FastifyPluginAsync<Pick<ExplorerHost, "notFound">> = async (
  fastify,
  { notFound },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const files = new Map<string, { type: string; body: Buffer }>();
  for (const name of readdirSync(ASSETS_DIR)) {
    const type = TYPES[extname(name)];
    if (type !== undefined) files.set(name, { type, body: readFileSync(join(ASSETS_DIR, name)) });
  }
  app.get(
    "/assets/:file",
    {
      schema: {
        summary: "A file of the pages",
        description: "The pages' one script (live updates, wallet approval), one style sheet and their icon.",
        tags: ["Explorer"],
        querystring: { type: "object", properties: {}, additionalProperties: false },
        params: {
          type: "object",
          properties: { file: { type: "string", maxLength: 64 } },
          required: ["file"],
          additionalProperties: false,
        },
        response: {
          200: {
            description: "The file.",
            content: Object.fromEntries(
              Object.values(TYPES).map((type) => [type.split(";")[0], { schema: { type: "string" } }]),
            ),
          },
        },
      },
    },
    async (request, reply) => {
      const file = files.get(request.params.file);
      if (file === undefined)
        throw notFound(`There is no file ${request.params.file} among the pages' assets`);
      return reply.type(file.type).header("cache-control", "no-cache").send(file.body);
    },
  );
};

/**
 * Each part's OpenAPI 3.1 document, made by @fastify/swagger from the route schemas that validate its
 * requests, served at GET /openapi.json, with Swagger UI at GET /docs. The UI's script, styles and
 * icons are files of the @fastify/swagger-ui package, served by the part itself: the page works
 * without a network. The statuses every route may answer whatever it does (refused input, a host the
 * part does not serve, a fault, shutting down) are added to each operation here, in the part's error
 * shape, for the document only: the route schemas stay what Fastify validates and serialises with.
 */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, RouteOptions } from "fastify";
import { LOGO_SVG, brandDocsPage } from "./docsBrand.js";
import { isOperatorGuard } from "./operator.js";

/** What a part's document says about the part as a whole. */
export interface ApiDescription {
  title: string;
  description: string;
  /** Operation groups, in the order the docs page lists them. */
  tags: readonly { name: string; description: string }[];
  /** Schemas the routes share by `$ref: "<$id>#"`; the error schema among them. */
  schemas: readonly ({ $id: string } & Record<string, unknown>)[];
  /** `$id` of the part's error body schema (src/<part>/errors.ts). */
  errorSchema: string;
  /** Statuses the part's typed errors may answer on any of its routes, with what each means. */
  refusals: Readonly<Record<number, string>>;
  /** Security schemes besides the admin token, which routes name in their schema's `security`. */
  securitySchemes?: Record<string, Record<string, unknown>>;
}

declare module "fastify" {
  interface FastifySchema {
    /**
     * The SPEC rules a route follows ("SPEC C. Hub"), kept beside its description, which is written
     * for the API's users; the operation carries it as `x-spec`.
     */
    "x-spec"?: string;
  }
  interface FastifyContextConfig {
    /** Statuses only this route refuses with, for its OpenAPI operation. */
    refusals?: Readonly<Record<number, string>>;
    /** `$id` of the route's error body schema when it is not the part's (ApiDescription.errorSchema). */
    errorSchema?: string;
    /**
     * The route answers its refusals in its own 200 bodies (JSON-RPC's error objects) and reads any
     * content type: only what the HTTP layer answers, and 413, are listed for it.
     */
    refusesInBody?: boolean;
  }
}

type Schema = Record<string, unknown>;

const OPENAPI_PATH = "/openapi.json";
const DOCS_PATH = "/docs";
const JSON_TYPE = "application/json; charset=utf-8";

/** Statuses the HTTP layer itself may answer on any route (src/http/server.ts, hosts.ts). */
const ANY_ROUTE: Record<number, string> = {
  400: "The request is malformed or fails the route's schema.",
  421: "The request's Host is a name this part does not serve (--allowed-hosts).",
  500: "A fault in the part.",
  503: "The part is shutting down.",
};
const WITH_BODY: Record<number, string> = {
  413: "The request body is over the route's limit.",
  415: "The request body's content type is not one the route reads.",
};
const WITH_PATH_PARAMETERS: Record<number, string> = { 414: "A path parameter is too long." };
const OPERATOR: Record<number, string> = {
  401: "The admin token is missing or wrong.",
  403: "A web page of another origin sent the request, or no admin token is configured and the caller is not on loopback.",
};

/** Registers the document, its route and the docs page; call before the part registers its routes. */
export async function registerOpenApi(app: FastifyInstance, api: ApiDescription): Promise<void> {
  for (const schema of api.schemas) app.addSchema(schema);
  const errorRef = { $ref: `${api.errorSchema}#` };
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: api.title, description: api.description, version: "0.1.0" },
      tags: [...api.tags, { name: "Service", description: "Health, this document and its docs page." }],
      components: {
        securitySchemes: {
          ...api.securitySchemes,
          adminToken: {
            type: "http",
            scheme: "bearer",
            description:
              "The operator's --admin-token. Without one configured, operator routes take no token and answer loopback callers only.",
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => ({
      url,
      schema: url.startsWith(DOCS_PATH)
        ? documented(docsFile(url), route, errorRef, url.endsWith("*") ? { 404: "No such file." } : {})
        : documented((schema ?? {}) as Schema, route, errorRef, api.refusals),
    }),
  });
  app.get(
    OPENAPI_PATH,
    {
      schema: {
        summary: "This part's OpenAPI 3.1 document",
        description: "Generated from the schemas that validate every route's requests and shape its answers.",
        tags: ["Service"],
        response: { 200: { description: "An OpenAPI 3.1 document.", type: "object" } },
      },
    },
    async (_request, reply) => reply.type(JSON_TYPE).send(JSON.stringify(app.swagger())),
  );
  // In a context of its own, so that only the docs page's routes run the hook that brands the page.
  await app.register(async (docs) => {
    // The docs page as castnet's: a viewport for phones and castnet's icon (docsBrand.ts).
    docs.addHook("onSend", (request, _reply, payload, done) => {
      const page = request.routeOptions.url === DOCS_PATH || request.routeOptions.url === `${DOCS_PATH}/`;
      done(null, page && typeof payload === "string" ? brandDocsPage(payload) : payload);
    });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      theme: { title: `${api.title} · API docs` },
      logo: { type: "image/svg+xml", content: Buffer.from(LOGO_SVG) },
      // The validator badge would fetch a picture from another host.
      validatorUrl: false,
      uiConfig: { url: OPENAPI_PATH, deepLinking: true, defaultModelsExpandDepth: 0 },
      // Swagger UI's own files only; it sets style attributes as it renders, hence inline styles. Its
      // "Try it out" calls this origin (connect-src 'self') and it submits no forms.
      staticCSP: {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self' 'unsafe-inline'",
        "img-src": "'self' data:",
        "connect-src": "'self'",
        "frame-ancestors": "'none'",
        "form-action": "'none'",
        "base-uri": "'none'",
        "object-src": "'none'",
      },
    });
  });
}

const PAGE_FILE_TYPES = [
  "application/javascript",
  "text/css",
  "text/html",
  "image/png",
  "image/svg+xml",
  "application/json",
];

/** The docs page and its files, which @fastify/swagger-ui registers without a schema of their own. */
function docsFile(url: string): Schema {
  const file = url.slice(DOCS_PATH.length);
  const answer = (types: readonly string[], description: string) => ({
    200: {
      description,
      content: Object.fromEntries(types.map((type) => [type, { schema: { type: "string" } }])),
    },
  });
  const response =
    file === "" || file === "/"
      ? answer(["text/html"], "The docs page: Swagger UI over this document.")
      : file === "/static/index.html"
        ? { 302: { description: "Redirects to the docs page.", type: "null" } }
        : file === "/json"
          ? { 200: { description: "This document, as the page reads it.", type: "object" } }
          : file === "/yaml"
            ? answer(["application/x-yaml"], "This document in YAML.")
            : file === "/static/swagger-initializer.js"
              ? answer(["application/javascript"], "The script that starts Swagger UI on this document.")
              : answer(PAGE_FILE_TYPES, "A script, style sheet, picture or page of Swagger UI.");
  return { summary: file === "" ? "Docs page" : `Docs page file ${file}`, tags: ["Service"], response };
}

/**
 * A route with an error handler of its own still gets the part's shape from what runs before it:
 * the Host check (421) and the router, which refuses URLs it cannot read (400, 414).
 */
function ownShape(status: string, own: string, errorRef: Schema): Schema {
  if (status === "421" || status === "414") return errorRef;
  return status === "400" ? { anyOf: [{ $ref: `${own}#` }, errorRef] } : { $ref: `${own}#` };
}

function documented(
  schema: Schema,
  route: RouteOptions,
  errorRef: Schema,
  refusals: Readonly<Record<number, string>>,
): Schema {
  const operator = [route.onRequest ?? []].flat().some(isOperatorGuard);
  const methods = [route.method].flat();
  const hasBody = methods.some((method) => ["POST", "PUT", "PATCH", "DELETE"].includes(method));
  const inBody = route.config?.refusesInBody === true;
  const statuses = {
    ...ANY_ROUTE,
    ...(inBody ? {} : refusals),
    ...(/[:*]/.test(route.url) ? WITH_PATH_PARAMETERS : {}),
    ...(hasBody ? (inBody ? { 413: WITH_BODY[413]! } : WITH_BODY) : {}),
    ...(operator ? OPERATOR : {}),
    ...route.config?.refusals,
  };
  const response: Schema = { ...(schema.response as Schema | undefined) };
  const own = route.config?.errorSchema;
  for (const [status, description] of Object.entries(statuses))
    response[status] ??= { description, ...(own === undefined ? errorRef : ownShape(status, own, errorRef)) };
  const out: Schema = { ...schema, response };
  if (operator) out.security = [{ adminToken: [] }, {}];
  return out;
}

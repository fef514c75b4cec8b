/**
 * Ethereum JSON-RPC 2.0 over HTTP at `POST /`, as a local node serves it (docs/devchain.md,
 * "JSON-RPC"): single requests and batches, notifications, and every refusal as a JSON-RPC error
 * object, never as an HTTP error, except a body over the server's limit (413, still with a JSON-RPC
 * body). The methods are a table handed in; this module knows none of them.
 *
 * The route is a public one: the server's CORS (src/http/server.ts) answers its preflight and
 * marks its answers readable by any origin, as wallets and web pages call nodes from their own
 * origins; the Host rule runs before it as before every route.
 */
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyPluginAsync,
  FastifyReply,
  onRequestHookHandler,
} from "fastify";
import { clientAddressKey, operatorRefusal, sendJson } from "../../http/index.js";
import { RpcError, type RpcErrorObject } from "./errors.js";

/** What a method knows of the HTTP request it answers. */

/** A result already rendered as JSON (stored logs), spliced into the answer as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}
export interface RpcContext {
  /** The key per-client limits count under: the caller's address, an IPv6 caller by its /64. */
  clientAddress: string;
  /** The request's logger. */
  log: FastifyBaseLogger;
  /** Why this caller may not call an operator method (src/http/operator.ts's rule), or undefined. */
  operatorRefusal(): string | undefined;
}

/**
 * A method: its positional parameters (an empty array when the request sent none) to its result,
 * any JSON value whose quantities are already strings (params.ts encodes them). It refuses with an
 * RpcError; anything else it throws is answered -32603 and logged.
 */
export type RpcMethod = (params: unknown[], context: RpcContext) => Promise<unknown>;
export type RpcMethods = Readonly<Record<string, RpcMethod>>;

export interface RpcLimits {
  /** Requests one batch may hold; default 100. */
  maxBatch?: number;
}

export interface JsonRpcRoutesOptions {
  methods: RpcMethods;
  /** The part's admin token: operator methods (castnet_*) need it as the operator routes do. */
  adminToken?: string;
  limits?: RpcLimits;
}

export const DEFAULT_MAX_BATCH = 100;

type Id = string | number | null;

/** A request object that passed the envelope's checks. */
interface Call {
  id: Id;
  /** No `id` member: executed, never answered. */
  notification: boolean;
  method: string;
  params: unknown;
}

const errorObject = {
  type: "object",
  required: ["code", "message"],
  additionalProperties: false,
  properties: {
    code: { type: "integer" },
    message: { type: "string" },
    data: { description: "Any JSON value; a revert's bytes for code 3." },
  },
} as const;
const id = { type: ["string", "number", "null"] } as const;

/** A JSON-RPC answer that is an error, as a shared schema of the part's OpenAPI document. */
export const jsonRpcErrorResponseSchema = {
  $id: "JsonRpcErrorResponse",
  description: "A JSON-RPC 2.0 error response; `id` is null when the request's own could not be read.",
  type: "object",
  required: ["jsonrpc", "id", "error"],
  additionalProperties: false,
  properties: { jsonrpc: { const: "2.0" }, id, error: errorObject },
} as const;

const response = {
  type: "object",
  required: ["jsonrpc", "id"],
  additionalProperties: false,
  properties: { jsonrpc: { const: "2.0" }, id, result: {}, error: errorObject },
  oneOf: [{ required: ["result"] }, { required: ["error"] }],
} as const;

export const jsonRpcRoutes: FastifyPluginAsync<JsonRpcRoutesOptions> = async (app, options) => {
  const methods = new Map(Object.entries(options.methods));
  const refusalOf = operatorRefusal(options.adminToken);
  const maxBatch = options.limits?.maxBatch ?? DEFAULT_MAX_BATCH;
  if (!Number.isSafeInteger(maxBatch) || maxBatch < 1) throw new RangeError("maxBatch must be 1 or more");
  const bodyLimit = app.initialConfig.bodyLimit;

  // Clients send JSON-RPC with any content type or none (curl's form type, text/plain from pages
  // avoiding a preflight): this route reads every body as text and judges it itself. Fastify would
  // refuse a content type it cannot parse (415) before any parser runs, so the route drops the
  // header before Fastify looks at it; a body without one goes to the catch-all parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
  const anyContentType: onRequestHookHandler = (request, _reply, done) => {
    delete request.headers["content-type"];
    done();
  };

  // Only refusals of Fastify's own reach here (a body over the limit, a body that stops short):
  // the handler answers everything else.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail =
        error.code === "FST_ERR_CTP_BODY_TOO_LARGE"
          ? `the request body is over the limit of ${bodyLimit} bytes`
          : "the request body could not be read";
      return sendJson(reply.code(status), renderError(null, RpcError.invalidRequest(detail)));
    }
    request.log.error({ err: error }, "unhandled error");
    return sendJson(reply.code(500), renderError(null, RpcError.internalError()));
  });

  /** The answer to one element, as JSON text; undefined for a notification. */
  async function answer(element: unknown, context: RpcContext): Promise<string | undefined> {
    const call = readCall(element);
    if (call instanceof RpcError) return renderError(idOf(element), call);
    let outcome: { result: unknown } | { error: RpcErrorObject };
    try {
      outcome = { result: (await dispatch(call, context)) ?? null };
    } catch (error) {
      outcome = { error: refusal(error, call, context) };
    }
    if (call.notification) return undefined;
    try {
      return render(call.id, outcome);
    } catch (error) {
      // A result or error data JSON cannot carry (a bigint, a cycle): the method's fault.
      context.log.error({ err: error, method: call.method }, "JSON-RPC answer could not be serialized");
      return renderError(call.id, RpcError.internalError());
    }
  }

  function dispatch(call: Call, context: RpcContext): Promise<unknown> {
    const method = methods.get(call.method);
    if (method === undefined) throw RpcError.methodNotFound(call.method);
    // `null` as none, as geth reads it.
    if (call.params === undefined || call.params === null) return method([], context);
    if (Array.isArray(call.params)) return method(call.params, context);
    throw RpcError.invalidParams("params must be an array: these methods take their parameters by position");
  }

  app.post(
    "/",
    {
      onRequest: anyContentType,
      config: { errorSchema: jsonRpcErrorResponseSchema.$id, refusesInBody: true },
      schema: {
        summary: "Ethereum JSON-RPC",
        description:
          "JSON-RPC 2.0, as an Ethereum node serves it: one request object or a batch array of them (at most " +
          `${maxBatch}), read whatever the content type. Every refusal is a JSON-RPC error object in a 200 ` +
          "answer (a body over the size limit excepted: 413). The methods and error codes are listed in " +
          'docs/devchain.md, "JSON-RPC".',
        tags: ["JSON-RPC"],
        response: {
          200: {
            description: "The response object, or an array of them for a batch (notifications get none).",
            anyOf: [response, { type: "array", minItems: 1, items: response }],
          },
          204: { description: "Every request was a notification: there is nothing to answer.", type: "null" },
        },
      },
    },
    async (request, reply) => {
      const context: RpcContext = {
        clientAddress: clientAddressKey(request.ip),
        log: request.log,
        operatorRefusal: () => refusalOf(request)?.message,
      };
      const parsed = parse(request.body as string | undefined);
      if (parsed instanceof RpcError) return sendJson(reply, renderError(null, parsed));
      if (!Array.isArray(parsed)) return send(reply, await answer(parsed, context));
      if (parsed.length === 0)
        return sendJson(reply, renderError(null, RpcError.invalidRequest("the batch is empty")));
      if (parsed.length > maxBatch) {
        const refused = RpcError.invalidRequest(
          `a batch holds at most ${maxBatch} requests; this one holds ${parsed.length}`,
        );
        return sendJson(reply, renderError(null, refused));
      }
      // One after another, in order: a batch's writes (transactions with consecutive nonces) depend on it.
      const answers: string[] = [];
      for (const element of parsed) {
        const text = await answer(element, context);
        if (text !== undefined) answers.push(text);
      }
      return send(reply, answers.length === 0 ? undefined : `[${answers.join(",")}]`);
    },
  );
};

function send(reply: FastifyReply, json: string | undefined): FastifyReply {
  return json === undefined ? reply.code(204).send() : sendJson(reply, json);
}

function parse(body: string | undefined): unknown {
  if (body === undefined || body.trim() === "") return RpcError.parseError("the request body is empty");
  try {
    return JSON.parse(body);
  } catch {
    return RpcError.parseError("the request body is not valid JSON");
  }
}

function isId(value: unknown): value is Id {
  return value === null || typeof value === "string" || typeof value === "number";
}

/** The id an answer to a refused element carries: its own when it has a valid one, else null. */
function idOf(element: unknown): Id {
  if (typeof element !== "object" || element === null || Array.isArray(element)) return null;
  const id = (element as Record<string, unknown>).id;
  return isId(id) ? id : null;
}

/** The element as a call, or the -32600 it gets; refused elements are always answered. */
function readCall(element: unknown): Call | RpcError {
  if (typeof element !== "object" || element === null || Array.isArray(element))
    return RpcError.invalidRequest("a request must be a JSON object");
  const fields = element as Record<string, unknown>;
  const notification = !Object.hasOwn(fields, "id");
  if (!notification && !isId(fields.id))
    return RpcError.invalidRequest('"id" must be a string, a number or null');
  if (fields.jsonrpc !== "2.0") return RpcError.invalidRequest('"jsonrpc" must be "2.0"');
  if (typeof fields.method !== "string") return RpcError.invalidRequest('"method" must be a string');
  const params = fields.params;
  if (params !== undefined && typeof params !== "object")
    return RpcError.invalidRequest('"params" must be an array or an object');
  return { id: notification ? null : (fields.id as Id), notification, method: fields.method, params };
}

/** The error object a failed call answers; faults are logged with the call, and answered without details. */
function refusal(error: unknown, call: Call, context: RpcContext): RpcErrorObject {
  if (error instanceof RpcError) return error.toErrorObject();
  context.log.error({ err: error, method: call.method }, "JSON-RPC method failed");
  return RpcError.internalError().toErrorObject();
}

/** Throws when the result or error data is not JSON (a bigint, a cycle). */
function render(id: Id, outcome: { result: unknown } | { error: RpcErrorObject }): string {
  if ("result" in outcome && outcome.result instanceof JsonText)
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${outcome.result.text}}`;
  return JSON.stringify({ jsonrpc: "2.0", id, ...outcome });
}

/** An error of the transport's own: it carries no data, so it always renders. */
function renderError(id: Id, error: RpcError): string {
  return render(id, { error: error.toErrorObject() });
}

/**
 * Records every HTTP answer any server in this process sends, and judges it against the OpenAPI
 * document that server serves. Importing this module starts the recording, so import it before the
 * suites whose traffic is to be judged. Each server's document is fetched from the server itself the
 * first time it answers, while it is surely still listening.
 */
import http from "node:http";
import type { Server } from "node:net";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface Answer {
  server: Server;
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string | undefined;
}

const answers: Answer[] = [];
const documents = new WeakMap<Server, Promise<OpenApiDocument | undefined>>();
/** One document of each part (by title): the parts of every stack serve the same documents. */
const titles = new Map<string, OpenApiDocument>();

export function documentsSeen(): OpenApiDocument[] {
  return [...titles.values()];
}

function documentOf(server: Server): Promise<OpenApiDocument | undefined> {
  let document = documents.get(server);
  if (document === undefined) {
    const address = server.address();
    document =
      address === null || typeof address === "string"
        ? Promise.resolve(undefined)
        : fetch(`http://127.0.0.1:${address.port}/openapi.json`)
            .then(async (res) => (res.ok ? ((await res.json()) as OpenApiDocument) : undefined))
            .catch(() => undefined);
    documents.set(server, document);
  }
  return document;
}

// Fastify hands its headers to writeHead, where getHeader no longer sees them.
const contentTypes = new WeakMap<http.ServerResponse, string>();
const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
  const headers = args.find((arg) => typeof arg === "object" && arg !== null && !Array.isArray(arg));
  const type = Object.entries((headers ?? {}) as Record<string, unknown>).find(
    ([name]) => name.toLowerCase() === "content-type",
  )?.[1];
  if (type !== undefined) contentTypes.set(this, String(type));
  return writeHead.apply(this, args as Parameters<typeof writeHead>);
} as typeof writeHead;

const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (this: http.ServerResponse, ...args: unknown[]) {
  const server = (this.socket as (typeof this.socket & { server?: Server }) | null)?.server;
  const [chunk] = args;
  if (server !== undefined && this.req !== undefined) {
    const path = (this.req.url ?? "/").split("?")[0]!;
    if (path !== "/openapi.json") void documentOf(server);
    answers.push({
      server,
      method: this.req.method ?? "GET",
      path,
      status: this.statusCode,
      contentType: contentTypes.get(this) ?? String(this.getHeader("content-type") ?? ""),
      body:
        typeof chunk === "string"
          ? chunk
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk).toString()
            : undefined,
    });
  }
  return end.apply(this, args as Parameters<typeof end>);
} as typeof end;

/** The path template of `document` with a `method` operation that `path` falls under, if any. */
export function templateOf(document: OpenApiDocument, path: string, method: string): string | undefined {
  const templates = Object.keys(document.paths).filter((template) => method in document.paths[template]!);
  const exact = templates.find((template) => normal(template) === normal(path));
  if (exact !== undefined) return exact;
  return templates.find((template) => {
    const pattern = normal(template)
      .split("/")
      .map((segment) =>
        segment === "{*}"
          ? ".*"
          : segment.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]*"),
      )
      .join("/");
    // A parameter may be empty, as Fastify routes it (`/fid/` is `/fid/{fid}` with an empty fid).
    const matches = new RegExp(`^${pattern}$`);
    return matches.test(decodeSafely(path)) || matches.test(normal(decodeSafely(path)));
  });
}

function normal(path: string): string {
  return path.length > 1 ? path.replace(/\/$/, "") : path;
}

function decodeSafely(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** What judging the recorded answers found. */
export interface Judgement {
  problems: string[];
  /** "<title> <METHOD> <template>" of every operation that answered at least once. */
  answered: Set<string>;
  judged: number;
}

/** Judges every answer recorded so far: its status declared for its operation, its body matching. */
export async function judgeAnswers(): Promise<Judgement> {
  const problems: string[] = [];
  const answered = new Set<string>();
  const validators = new Map<OpenApiDocument, (pointer: string) => ValidateFunction>();
  let judged = 0;
  for (const answer of answers.splice(0)) {
    const document = await documentOf(answer.server);
    if (document === undefined) continue;
    titles.set(document.info.title, document);
    let validate = validators.get(document);
    if (validate === undefined) {
      validate = validatorsFor(document);
      validators.set(document, validate);
    }
    judged += 1;
    const where = `${document.info.title}: ${answer.method} ${answer.path} → ${answer.status}`;
    const problem = judgeOne(document, validate, answer, answered);
    if (problem !== undefined) problems.push(`${where}: ${problem}`);
  }
  return { problems, answered, judged };
}

function judgeOne(
  document: OpenApiDocument,
  validate: (pointer: string) => ValidateFunction,
  answer: Answer,
  answered: Set<string>,
): string | undefined {
  // Fastify answers HEAD for every GET route, and routes a static path before a wildcard: a HEAD
  // is the GET of its path unless only a listed HEAD route (a wildcard's) takes it.
  let method = answer.method.toLowerCase();
  let template = templateOf(document, answer.path, method);
  if (method === "head") {
    const get = templateOf(document, answer.path, "get");
    if (get !== undefined && (template === undefined || !/[{]/.test(get))) {
      method = "get";
      template = get;
    }
  }
  const operation = template === undefined ? undefined : document.paths[template]![method];
  // Unknown routes and methods are answered by the part's not-found handler, in its error shape.
  const pointerBase =
    operation === undefined
      ? "/paths/~1_health/get/responses"
      : `/paths/${escape(template!)}/${method}/responses`;
  const responses: Record<string, { content?: Record<string, { schema?: unknown }> }> =
    operation === undefined
      ? { [answer.status]: document.paths["/_health"]!.get!.responses!["400"]! }
      : (operation.responses ?? {});
  if (operation !== undefined) answered.add(`${document.info.title} ${method.toUpperCase()} ${template}`);
  const declared = responses[String(answer.status)];
  if (
    operation === undefined &&
    !(answer.status >= 400 && answer.status < 500) &&
    answer.method !== "OPTIONS"
  )
    return "answered a route the document does not list";
  if (declared === undefined) return `status ${answer.status} is not in the document`;
  if (answer.method === "HEAD" || answer.body === undefined || answer.body === "") return undefined;
  const type = answer.contentType.split(";")[0]!.trim();
  const content = declared.content ?? {};
  if (!(type in content)) return `content type ${type || "(none)"} is not declared for this status`;
  if (type !== "application/json" || content[type]!.schema === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return "the body is not JSON";
  }
  const status = operation === undefined ? "400" : String(answer.status);
  const check = validate(`${pointerBase}/${status}/content/${escape(type)}/schema`);
  if (check(body)) return undefined;
  return `the body does not match: ${JSON.stringify(check.errors?.slice(0, 3))} in ${answer.body.slice(0, 300)}`;
}

function escape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function validatorsFor(document: OpenApiDocument): (pointer: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: false });
  addFormats.default(ajv);
  ajv.addSchema(document as object, "doc");
  const compiled = new Map<string, ValidateFunction>();
  return (pointer) => {
    const known = compiled.get(pointer);
    if (known !== undefined) return known;
    const validate = ajv.compile({ $ref: `doc#${pointer}` });
    compiled.set(pointer, validate);
    return validate;
  };
}

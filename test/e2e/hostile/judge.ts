/**
 * What an answer must look like: a 4xx in the part's own error shape with a sentence a person
 * understands (or a 2xx where the input is acceptable), never a 5xx.
 */
import type { Reply, Req } from "./client.js";
import type { Expect, Part, Shape } from "./parts.js";

export function short(text: string, max = 160): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length <= max ? flat : `${flat.slice(0, max)}…(${text.length} chars)`;
}

function describeBody(body: string | Uint8Array | undefined): string {
  if (body === undefined) return "";
  const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
  const text = bytes.toString("utf8");
  const printable = !text.includes("\ufffd") && /^[\t\n\r\x20-\x7e]*$/.test(text.slice(0, 200));
  return printable
    ? ` body(${bytes.length} B)=${short(text, 120)}`
    : ` body(${bytes.length} B, hex)=${bytes.subarray(0, 48).toString("hex")}${bytes.length > 48 ? "…" : ""}`;
}

export function describeReq(part: Part, req: Req): string {
  const type = req.contentType === undefined ? "" : ` [content-type: ${req.contentType}]`;
  return `${part}: ${req.method} ${short(req.path)}${type}${describeBody(req.body)}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A sentence a person understands: words, not a code, a stack frame or an internal value. */
export function sentenceProblem(text: unknown): string | undefined {
  if (typeof text !== "string") return "the message is not a string";
  const t = text.trim();
  if (t.length < 8 || !/[A-Za-z]{3}/.test(t) || !/\s/.test(t))
    return `message "${short(t)}" is not a sentence`;
  if (/\bundefined\b|\[object \w+\]|FST_ERR|SQLITE_|\bat \S+ \(|Cannot read prop|is not a function/i.test(t))
    return `message "${short(t)}" leaks an internal value`;
  return undefined;
}

const keysOf = (body: Record<string, unknown>) => Object.keys(body).sort().join(",");

function shapeProblem(shape: Shape, body: unknown): string | undefined {
  if (!isObject(body)) return "the error body is not a JSON object";
  switch (shape) {
    case "registry": {
      if ("code" in body) {
        if (
          keysOf(body) !== "code,error" ||
          body.error !== "Validation failure" ||
          !/^[A-Z_]+$/.test(String(body.code))
        )
          return `registry validation failures are {"error":"Validation failure","code":"<CODE>"}, not {${keysOf(body)}}`;
        return undefined;
      }
      if (keysOf(body) !== "error") return `registry errors are {"error": <sentence>}, not {${keysOf(body)}}`;
      return sentenceProblem(body.error);
    }
    case "ccip":
      if (keysOf(body) !== "message") return `CCIP gateway errors are {"message"}, not {${keysOf(body)}}`;
      return sentenceProblem(body.message);
    case "hub": {
      if (keysOf(body) !== "code,details,errCode,metadata,name,presentable")
        return `hub errors are {errCode, presentable, name, code, details, metadata}, not {${keysOf(body)}}`;
      if (body.name !== "HubError" || typeof body.presentable !== "boolean" || typeof body.code !== "number")
        return "hub error fields have the wrong types";
      if (typeof body.errCode !== "string" || !/^[a-z_.]+$/.test(body.errCode))
        return "hub errCode is not a code";
      const meta = body.metadata;
      if (!isObject(meta) || !Array.isArray(meta.errcode) || meta.errcode[0] !== body.errCode)
        return "hub metadata is not {errcode: [errCode]}";
      return sentenceProblem(body.details);
    }
    case "api": {
      const errors = body.errors;
      if (keysOf(body) !== "errors" || !Array.isArray(errors) || errors.length === 0)
        return `client API errors are {"errors":[{"message"}]}, not {${keysOf(body)}}`;
      for (const entry of errors) {
        if (!isObject(entry) || keysOf(entry) !== "message")
          return "a client API error entry is not {message}";
        const problem = sentenceProblem(entry.message);
        if (problem) return problem;
      }
      return undefined;
    }
    case "chain":
      if (keysOf(body) !== "error,message" || typeof body.error !== "string" || !/^[a-z_]+$/.test(body.error))
        return `devchain errors are {"error": <code>, "message"}, not ${short(JSON.stringify(body), 120)}`;
      return sentenceProblem(body.message);
    case "jsonrpc":
      return rpcErrorProblem(body);
  }
}

/** A JSON-RPC error response, `{jsonrpc: "2.0", id, error: {code, message, data?}}`, with a sentence. */
function rpcErrorProblem(body: unknown, code?: number): string | undefined {
  if (!isObject(body) || keysOf(body) !== "error,id,jsonrpc" || body.jsonrpc !== "2.0")
    return `JSON-RPC errors are {"jsonrpc": "2.0", "id", "error"}, not ${short(JSON.stringify(body), 120)}`;
  const error = body.error;
  if (!isObject(error) || !["code,message", "code,data,message"].includes(keysOf(error)))
    return "a JSON-RPC error object is not {code, message, data?}";
  if (!Number.isInteger(error.code)) return "a JSON-RPC error code is not an integer";
  if (code !== undefined && error.code !== code)
    return `JSON-RPC error ${String(error.code)}, expected ${code}`;
  return sentenceProblem(error.message);
}

/**
 * What a JSON-RPC answer must be (a 2xx: JSON-RPC refuses inside the answer): an error with this
 * code; a batch's errors with these codes, in order; or nothing (notifications alone).
 */
export function rpcAnswerProblem(
  body: unknown,
  expected: number | readonly number[] | null,
): string | undefined {
  if (expected === null)
    return body === undefined ? undefined : "notifications alone must get no answer (204)";
  if (typeof expected === "number") return rpcErrorProblem(body, expected);
  if (!Array.isArray(body) || body.length !== expected.length)
    return `a batch answer of ${expected.length} errors was expected, not ${short(JSON.stringify(body), 120)}`;
  return body.map((answer, i) => rpcErrorProblem(answer, expected[i])).find((p) => p !== undefined);
}

export interface Case {
  label: string;
  req: Req;
  expect: Expect;
  /** Shapes an error may take (the CCIP gateway answers in its own, unknown routes under it in the registry's). */
  shapes?: readonly Shape[];
  /** HEAD: no body to check. */
  noBody?: boolean;
  /** Sent to a page or a file of one (Route.page): a 2xx or a redirect need not be JSON, a refusal may be a page. */
  page?: boolean;
  /** Extra check of a 2xx answer. */
  accepted?: (body: unknown) => string | undefined;
  /** A 2xx answer is plain text, not JSON. */
  text?: boolean;
}

/** Every problem with one answer; empty when it keeps the promise. */
export function judge(part: Part, c: Case, reply: Reply, shapes: readonly Shape[]): string[] {
  const where = `${describeReq(part, c.req)} {${c.label}} → ${reply.status} ${short(reply.text, 300)}`;
  if (reply.status === 0) return [`${where}: no HTTP answer`];
  if (reply.status >= 500 || reply.status < 200) return [`${where}: a ${reply.status}, never acceptable`];
  const ok = reply.status >= 200 && reply.status < 300;
  if (ok && c.expect === "refuse") return [`${where}: accepted, but this input must be refused with a 4xx`];
  const redirect = reply.status >= 300 && reply.status < 400;
  if (redirect && !c.page) return [`${where}: a redirect is not an answer`];
  if (c.noBody || (c.page && (ok || redirect))) return [];
  // A page refuses with a page saying why, titled and with a main landmark, or in the part's JSON shape.
  if (c.page && /^text\/html/.test(reply.contentType))
    return /<h1>[^<]+<\/h1>/.test(reply.text) && /<main\b/.test(reply.text)
      ? []
      : [`${where}: an HTML refusal without a title and a main landmark`];
  if (ok && c.text)
    return /^text\/plain/.test(reply.contentType) ? [] : [`${where}: content-type is ${reply.contentType}`];
  let body: unknown;
  if (reply.text !== "" || !ok) {
    try {
      body = JSON.parse(reply.text);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    if (!/^application\/json/.test(reply.contentType))
      return [`${where}: content-type is ${reply.contentType}`];
  }
  if (ok) {
    const problem = c.accepted?.(body);
    return problem ? [`${where}: ${problem}`] : [];
  }
  const problems = shapes.map((shape) => shapeProblem(shape, body));
  if (problems.some((p) => p === undefined)) return [];
  return [`${where}: ${problems.join("; ")}`];
}

import { Ajv, type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";

const common: Options = { allErrors: false, strict: false, useDefaults: true };

// Query strings and path parameters are text, so "12" must become 12 there; a JSON body says what it
// means, so a string where a number belongs is an error, not something to coerce.
const forParameters = new Ajv({ ...common, coerceTypes: "array", removeAdditional: false });
const forBodies = new Ajv({ ...common, coerceTypes: false, removeAdditional: false });
addFormats.default(forParameters);
addFormats.default(forBodies);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === "body" ? forBodies : forParameters).compile(schema as object);

interface SchemaFailure {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** One sentence a person understands, e.g. `query parameter "fid" must be integer`. */
export function describeValidationFailure(context: string, failures: readonly SchemaFailure[]): string {
  const failure = failures[0];
  if (!failure) return `invalid ${context}`;
  const where =
    context === "querystring" ? "query parameter" : context === "params" ? "path parameter" : "field";
  const path = failure.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (failure.keyword === "required") {
    const missing = `${path ? `${path}.` : ""}${String(failure.params.missingProperty)}`;
    return `${where} "${missing}" is required`;
  }
  if (failure.keyword === "additionalProperties") {
    const extra = `${path ? `${path}.` : ""}${String(failure.params.additionalProperty)}`;
    return `${where} "${extra}" is not allowed`;
  }
  if (!path) return `${context === "body" ? "request body" : context} ${failure.message ?? "is invalid"}`;
  return `${where} "${path}" ${failure.message ?? "is invalid"}`;
}

import { Ajv, type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";
import { compiledOnFirstCall } from "./compileOnFirstUse.js";

const common: Options = { allErrors: false, strict: false, useDefaults: true };

// Query strings and path parameters are text, so "12" must become 12 there; a JSON body says what it
// means, so a string where a number belongs is an error, not something to coerce.
const forParameters = new Ajv({ ...common, coerceTypes: "array", removeAdditional: false });
const forBodies = new Ajv({ ...common, coerceTypes: false, removeAdditional: false });
addFormats.default(forParameters);
addFormats.default(forBodies);

/**
 * A schema keyword of castnet's own: a string property marked `"x-allow-nul": true` may contain
 * U+0000 (the registry strips NULs from zero-padded names). Everywhere else a NUL is refused, since
 * no protocol text carries one and PostgreSQL cannot store it.
 */
export const ALLOW_NUL = "x-allow-nul";

interface PropertySchema {
  type?: string | string[];
  [ALLOW_NUL]?: boolean;
}

type Validate = ((data: unknown) => boolean) & { errors?: SchemaFailure[] | null };

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;
const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function failure(path: string, message: string): SchemaFailure[] {
  return [{ instancePath: `/${path}`, schemaPath: "#", keyword: "format", message, params: {} }];
}

/**
 * What ajv's coercion lets through but a person would not call a number: "0x10", "1e1", " 1",
 * "1.0" for an integer. A repeated query parameter arrives as an array.
 */
function checkParameterText(raw: Record<string, unknown>, properties: Record<string, PropertySchema>) {
  for (const [name, value] of Object.entries(raw)) {
    const type = properties[name]?.type;
    const types = Array.isArray(type) ? type : type ? [type] : [];
    if (Array.isArray(value) && !types.includes("array")) return failure(name, "must be given once");
    if (typeof value !== "string") continue;
    if (types.includes("integer") && !INTEGER_TEXT.test(value)) return failure(name, "must be integer");
    if (types.includes("number") && !NUMBER_TEXT.test(value)) return failure(name, "must be number");
  }
  return undefined;
}

function findNul(value: unknown, schema: PropertySchema | undefined, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\0") && !schema?.[ALLOW_NUL] ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], undefined, `${path}/${i}`);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === "object") {
    const properties = (schema as { properties?: Record<string, PropertySchema> } | undefined)?.properties;
    for (const [key, item] of Object.entries(value)) {
      const found = findNul(item, properties?.[key], `${path}/${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A route part's validator; ajv compiles its schema at the first request that needs it (compileOnFirstUse.ts says why). */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const isBody = httpPart === "body";
  // What the schema finds wrong with `data`, if anything.
  const schemaErrors = compiledOnFirstCall(() => {
    const check = (isBody ? forBodies : forParameters).compile(schema as object);
    return (data: unknown) => (check(data) ? undefined : (check.errors as SchemaFailure[]));
  });
  const properties = ((schema as { properties?: Record<string, PropertySchema> }).properties ?? {}) as Record<
    string,
    PropertySchema
  >;
  const validate: Validate = (data) => {
    const textFailure =
      !isBody && data !== null && typeof data === "object"
        ? checkParameterText(data as Record<string, unknown>, properties)
        : undefined;
    if (textFailure) {
      validate.errors = textFailure;
      return false;
    }
    const schemaFailure = schemaErrors(data);
    if (schemaFailure) {
      validate.errors = schemaFailure;
      return false;
    }
    const nulAt = findNul(data, schema as PropertySchema, "");
    if (nulAt !== undefined) {
      validate.errors = failure(nulAt.slice(1), "must not contain the NUL character (U+0000)");
      return false;
    }
    validate.errors = null;
    return true;
  };
  return validate;
};

interface SchemaFailure {
  instancePath: string;
  schemaPath: string;
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

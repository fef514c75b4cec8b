/**
 * A route the hand-kept list (routes.ts) does not name is swept from what it declares: its params,
 * querystring and body schemas give each input's kind, whether it is required, and its baseline
 * value (the schema's first `examples` entry, or a neutral value of its type). Such a route's
 * baseline may be refused (it names nothing the fixtures made), so it expects a 2xx or a 4xx.
 */
import type { RouteEntry } from "../../../src/http/index.js";
import type { Part } from "./parts.js";
import type { Route } from "./routes.js";
import type { Field, FieldKind, Param, ParamKind } from "./values.js";

interface PropertySchema {
  type?: string | string[];
  items?: PropertySchema;
  maxItems?: number;
  enum?: readonly unknown[];
  examples?: readonly unknown[];
  maxLength?: number;
  pattern?: string;
}
interface ObjectSchema {
  type?: string;
  properties?: Record<string, PropertySchema>;
  required?: readonly string[];
}

function typeOf(property: PropertySchema): string {
  const types = [property.type ?? "string"].flat().filter((t) => t !== "null");
  return types[0] ?? "string";
}

function paramKind(property: PropertySchema): ParamKind {
  if (property.enum !== undefined) return "enum";
  // A list parameter: each value of it is swept as its items are.
  if (typeOf(property) === "array") return paramKind(property.items ?? {});
  switch (typeOf(property)) {
    case "integer":
    case "number":
      return "uint";
    case "boolean":
      return "bool";
    default:
      return "text";
  }
}

function neutralValue(property: PropertySchema): unknown {
  if (property.examples?.[0] !== undefined) return property.examples[0];
  if (property.enum?.[0] !== undefined) return property.enum[0];
  switch (typeOf(property)) {
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "object":
      return {};
    case "array":
      return [];
    default:
      return "castnet";
  }
}

function params(schema: unknown): {
  params: Record<string, Param>;
  enums: Record<string, readonly string[]>;
} {
  const object = (schema ?? {}) as ObjectSchema;
  const required = new Set(object.required ?? []);
  const out: Record<string, Param> = {};
  const enums: Record<string, readonly string[]> = {};
  for (const [name, property] of Object.entries(object.properties ?? {})) {
    const isRequired = required.has(name);
    out[name] = {
      kind: paramKind(property),
      required: isRequired,
      // Optional inputs stay out of the baseline unless the route gives an example of them.
      valid: isRequired || property.examples !== undefined ? String(neutralValue(property)) : undefined,
      ...(property.maxItems === undefined ? {} : { maxItems: property.maxItems }),
    };
    if (property.enum !== undefined) enums[name] = property.enum.map(String);
  }
  return { params: out, enums };
}

function fieldKind(property: PropertySchema): FieldKind {
  if (property.enum !== undefined) return "enum";
  switch (typeOf(property)) {
    case "integer":
      return "int";
    case "boolean":
      return "bool";
    case "object":
      return "object";
    case "array":
      return "array";
    default:
      return "text";
  }
}

function jsonBody(schema: unknown): Route["json"] {
  const object = schema as ObjectSchema | undefined;
  if (object?.type !== "object" || object.properties === undefined) return undefined;
  const required = new Set(object.required ?? []);
  const fields: Record<string, Field> = {};
  const valid: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(object.properties)) {
    fields[name] = {
      kind: fieldKind(property),
      required: required.has(name),
      nullable: [property.type].flat().includes("null"),
      max: property.maxLength,
    };
    if (required.has(name)) valid[name] = neutralValue(property);
  }
  return { valid, fields };
}

/** The sweep's description of a route, from the schemas it was registered with. */
export function routeFromSchema(part: Part, entry: RouteEntry): Route {
  const schema = (entry.schema ?? {}) as { params?: unknown; querystring?: unknown; body?: unknown };
  const path = params(schema.params);
  const query = params(schema.querystring);
  const json = jsonBody(schema.body);
  return {
    part,
    method: entry.method,
    path: entry.url,
    params: path.params,
    query: query.params,
    enums: { ...path.enums, ...query.enums },
    strictQuery:
      (schema.querystring as { additionalProperties?: unknown } | undefined)?.additionalProperties === false,
    ...(json === undefined ? {} : { json }),
    write: entry.method !== "GET",
    baseline: "either",
  };
}

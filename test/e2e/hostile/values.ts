/**
 * Hostile values: for parameters (query strings and path segments, already percent-encoded) and for
 * JSON body fields, each with what the part must answer to it.
 */
import { RANDOM } from "./generator.js";
import { isObject } from "./judge.js";
import type { Expect } from "./parts.js";

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export type ParamKind =
  | "uint"
  | "fid"
  | "limit"
  | "text"
  | "hex20"
  | "hashPrefix"
  | "hex32"
  | "address"
  | "enum"
  | "bool"
  | "pageToken"
  | "cursor";

export interface Param {
  kind: ParamKind;
  /** The baseline's value (raw); undefined: absent from the baseline, only sent hostile. */
  valid?: string;
  required?: boolean;
  /** A list parameter, given once per value, of at most this many. */
  maxItems?: number;
}

interface Hostile {
  value: string;
  expect: Expect;
}

const R = (value: string): Hostile => ({ value, expect: "refuse" });
const E = (value: string): Hostile => ({ value, expect: "either" });

const NOT_INTEGERS = [
  "abc",
  "-1",
  "1.5",
  "18446744073709551616",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "9007199254740992",
  "%FF%FE",
  "%00",
  "1%00",
  "%EF%BC%91",
  "true",
  "null",
  "%5B%5D",
  "%7B%7D",
  "9".repeat(400),
  "1%2C2",
  "%ZZ",
];

const ODD_TEXT = [
  "%FF%FE",
  "%00",
  "a".repeat(3000),
  "%ZZ",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "..%2F..%2Fetc%2Fpasswd",
  "%F0%9F%92%A9",
  "%ED%A0%80",
  "%27%3B%20drop%20table%20x%3B--",
  "%20",
  "%5B%5D",
];

function badHex(bytes: number): string[] {
  return [
    "zz",
    "0x",
    "0x1",
    `0x${"00".repeat(bytes - 1)}`,
    `0x${"00".repeat(bytes + 1)}`,
    `0x${"gg".repeat(bytes)}`,
    "%FF%FE",
    "0x%00",
    `0x${"ab".repeat(3000)}`,
    "-1",
    "%ZZ",
  ];
}

export function hostileParams(
  kind: ParamKind,
  required: boolean,
  enumValues: readonly string[] = [],
): Hostile[] {
  const empty = required ? R("") : E("");
  switch (kind) {
    case "uint":
      return [...NOT_INTEGERS.map(R), E("0"), E(String(MAX_SAFE)), empty];
    case "fid":
      return [...NOT_INTEGERS.map(R), R("0"), E(String(MAX_SAFE)), empty];
    case "limit":
      return [...NOT_INTEGERS.map(R), R("0"), R("101"), R(String(MAX_SAFE)), empty];
    case "text":
      return [...ODD_TEXT.map(E), empty];
    case "hex20":
      return [...badHex(20).map(R), empty];
    case "hashPrefix":
      // A hash or its first 8 hex digits or more: shorter, longer or not hex is refused.
      return [
        ...["0x1234567", ...badHex(20).filter((value) => value !== `0x${"00".repeat(19)}`)].map(R),
        E(`0x${"00".repeat(19)}`),
        E("0x12345678"),
        E("ABCDEF0123"),
        empty,
      ];
    case "hex32":
      return [...badHex(32).map(R), empty];
    case "address":
      return [...badHex(20).map(R), R("not-an-address"), empty];
    case "enum":
      return [
        ...["0", "99", "-1", "1.5", "NONE", "%FF%FE", "99999999999999999999", "%00", "a".repeat(3000)].map(R),
        ...enumValues.map((v) => R(`${encodeURIComponent(v)}%20`)),
        empty,
      ];
    case "bool":
      return [R("maybe"), R("2"), R("%FF%FE"), R("%00"), E("1"), E("0"), E("TRUE"), empty];
    case "pageToken":
      return [
        R("!!!"),
        R("AAAA"),
        R("%FF%FE"),
        R("===="),
        R("a".repeat(1025)),
        R("-_-_"),
        E(encodeURIComponent(Buffer.from(RANDOM.bytes(24)).toString("base64"))),
        E(""),
      ];
    case "cursor":
      return [
        R("garbage"),
        R("A".repeat(257)),
        R(Buffer.from(RANDOM.bytes(40)).toString("base64url")),
        R("%FF%FE"),
        R("%00"),
        R(""),
      ];
  }
}

// Hostile values for JSON body fields.

/** JSON text spliced into a body as it is (numbers JSON.stringify cannot write, invalid literals). */
export class Raw {
  constructor(readonly text: string) {}
}
/** Stands for two bytes that are not UTF-8 (0xff 0xfe) inside a JSON string. */
export const NOT_UTF8 = "\ue000";

export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

export function jsonBytes(value: unknown): Uint8Array {
  const parts = toJson(value).split(NOT_UTF8);
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) chunks.push(Buffer.from([0xff, 0xfe]));
    chunks.push(Buffer.from(part));
  });
  return Buffer.concat(chunks);
}

export type FieldKind =
  "uint" | "fid" | "int" | "text" | "hex" | "address" | "url" | "enum" | "bool" | "object" | "array";

export interface Field {
  kind: FieldKind;
  required?: boolean;
  nullable?: boolean;
  /** Longest accepted string, when the route says. */
  max?: number;
}

interface HostileValue {
  label: string;
  value: unknown;
  expect: Expect;
}

export function hostileFields(field: Field): HostileValue[] {
  const r = (label: string, value: unknown): HostileValue => ({ label, value, expect: "refuse" });
  const e = (label: string, value: unknown): HostileValue => ({ label, value, expect: "either" });
  const nullValue = field.nullable ? e("null", null) : r("null", null);
  const common = [nullValue, r("true", true), r("[]", []), r('["x"]', ["x"])];
  const numeric = field.kind === "uint" || field.kind === "fid" || field.kind === "int";
  if (numeric) {
    return [
      ...common,
      r("{}", {}),
      r('"1"', "1"),
      r('"abc"', "abc"),
      r("-1", -1),
      r("1.5", 1.5),
      r("2^64", new Raw("18446744073709551616")),
      r("1e309", new Raw("1e309")),
      r("-1e309", new Raw("-1e309")),
      r("1e400 written out", new Raw(`1${"0".repeat(400)}`)),
      r("2^53+1", new Raw("9007199254740993")),
      r("NaN", new Raw("NaN")),
      r("0x10", new Raw("0x10")),
      r("01", new Raw("01")),
      r("+1", new Raw("+1")),
      e("1e3", new Raw("1e3")),
      e("1.0", new Raw("1.0")),
      field.kind === "fid" ? r("-0", new Raw("-0")) : e("-0", new Raw("-0")),
      field.kind === "fid" ? r("0", 0) : e("0", 0),
    ];
  }
  if (field.kind === "bool")
    // true is a boolean's own value: the one common case such a field may accept.
    return [
      ...common.filter((h) => h.label !== "true"),
      e("true", true),
      r("{}", {}),
      r('"true"', "true"),
      r("1", 1),
      r("0", 0),
    ];
  if (field.kind === "object") return [...common, r('"x"', "x"), r("1", 1), r("{}", {})];
  if (field.kind === "array")
    return [
      ...common.filter((h) => h.label !== "[]"),
      r('"x"', "x"),
      r("{}", {}),
      r("[null]", [null]),
      r('["1"]', ["1"]),
      r("[-1]", [-1]),
      r("[1.5]", [1.5]),
      r("[[1]]", [[1]]),
      r(
        "1001 items",
        Array.from({ length: 1001 }, (_, i) => i + 1),
      ),
    ];
  // Strings of every kind.
  const loose = field.kind === "text" ? e : r;
  const values = [
    ...common,
    r("{}", {}),
    r("1", 1),
    loose('""', ""),
    loose("NUL", "\u0000"),
    loose("lone surrogate", new Raw('"\\ud800"')),
    loose("not UTF-8", `x${NOT_UTF8}y`),
    loose("script and emoji", "<script>alert(1)</script>𝕏🚀"),
    loose("SQL", "'; drop table x; --"),
    field.max === undefined
      ? loose("3000 chars", "a".repeat(3000))
      : r(`${field.max + 1} chars`, "a".repeat(field.max + 1)),
  ];
  if (field.kind === "hex" || field.kind === "address") {
    values.push(
      r("0xzz", "0xzz"),
      r("0x1 (odd)", "0x1"),
      r("no 0x", "ab".repeat(field.kind === "address" ? 20 : 32)),
      r("huge hex", `0x${"ab".repeat(4000)}`),
      r("fullwidth digits", "0x１２"),
    );
  }
  if (field.kind === "address")
    values.push(r("19 bytes", `0x${"11".repeat(19)}`), r("21 bytes", `0x${"11".repeat(21)}`));
  if (field.kind === "url")
    values.push(r("not a url", "not a url"), e("javascript:", "javascript:alert(1)"), e("ftp", "ftp://x"));
  if (field.kind === "enum") values.push(r("UPPER", "GRANT"), r("padded", " top "));
  return values;
}

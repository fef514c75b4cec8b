import type { BinaryWriter } from "@bufbuild/protobuf/wire";
import { CastId, Embed, MessageType, type CastAddBody } from "../generated/message.js";
import { renderCastId, writeCastId, type CastIdJson } from "../json/castId.js";
import { CAST_TYPE_NAMES, enumName } from "../json/enums.js";
import { enumJson, numbersJson } from "../json/jsonText.js";
import { validateCastAddBody } from "../validation/cast.js";
import type { BodyKind } from "./bodyKind.js";

export interface EmbedJson {
  url?: string;
  castId?: CastIdJson;
}

export interface CastAddBodyJson {
  embedsDeprecated: string[];
  mentions: number[];
  parentCastId?: CastIdJson;
  parentUrl?: string;
  text: string;
  mentionsPositions: number[];
  embeds: EmbedJson[];
  type: string | number;
}

function renderEmbed(embed: Embed): EmbedJson {
  const out: EmbedJson = {};
  if (embed.url !== undefined) out.url = embed.url;
  if (embed.castId !== undefined) out.castId = renderCastId(embed.castId);
  return out;
}

function renderCastAdd(body: CastAddBody): CastAddBodyJson {
  const out = {
    embedsDeprecated: body.embedsDeprecated.slice(),
    mentions: body.mentions.slice(),
  } as CastAddBodyJson;
  if (body.parentCastId !== undefined) out.parentCastId = renderCastId(body.parentCastId);
  if (body.parentUrl !== undefined) out.parentUrl = body.parentUrl;
  out.text = body.text;
  out.mentionsPositions = body.mentionsPositions.slice();
  const embeds = new Array<EmbedJson>(body.embeds.length);
  for (let i = 0; i < embeds.length; i++) embeds[i] = renderEmbed(body.embeds[i]!);
  out.embeds = embeds;
  out.type = enumName(CAST_TYPE_NAMES, body.type);
  return out;
}

function writeEmbed(embed: Embed): string {
  let out = "{";
  if (embed.url !== undefined) out += '"url":' + JSON.stringify(embed.url);
  if (embed.castId !== undefined)
    out += (embed.url !== undefined ? "," : "") + '"castId":' + writeCastId(embed.castId);
  return out + "}";
}

function writeCastAdd(body: CastAddBody): string {
  let out = '{"embedsDeprecated":';
  if (body.embedsDeprecated.length === 0) out += "[]";
  else out += "[" + body.embedsDeprecated.map((url) => JSON.stringify(url)).join(",") + "]";
  out += ',"mentions":' + numbersJson(body.mentions);
  if (body.parentCastId !== undefined) out += ',"parentCastId":' + writeCastId(body.parentCastId);
  if (body.parentUrl !== undefined) out += ',"parentUrl":' + JSON.stringify(body.parentUrl);
  out += ',"text":' + JSON.stringify(body.text);
  out += ',"mentionsPositions":' + numbersJson(body.mentionsPositions);
  out += ',"embeds":[';
  for (let i = 0; i < body.embeds.length; i++) out += (i === 0 ? "" : ",") + writeEmbed(body.embeds[i]!);
  return out + '],"type":' + enumJson(CAST_TYPE_NAMES, body.type) + "}";
}

/** The generated encoder's, except that `mentions` and `mentionsPositions` are written even when empty. */
function encodeCastAdd(body: CastAddBody, writer: BinaryWriter): void {
  for (const url of body.embedsDeprecated) writer.uint32(10).string(url);
  writer.uint32(18).fork();
  for (const fid of body.mentions) writer.uint64(fid);
  writer.join();
  if (body.parentCastId !== undefined) CastId.encode(body.parentCastId, writer.uint32(26).fork()).join();
  if (body.parentUrl !== undefined) writer.uint32(58).string(body.parentUrl);
  if (body.text !== "") writer.uint32(34).string(body.text);
  writer.uint32(42).fork();
  for (const position of body.mentionsPositions) writer.uint32(position);
  writer.join();
  for (const embed of body.embeds) Embed.encode(embed, writer.uint32(50).fork()).join();
  if (body.type !== 0) writer.uint32(64).int32(body.type);
}

export const castAdd = {
  field: "castAddBody",
  fieldNumber: 5,
  types: [MessageType.CAST_ADD],
  validate: (body, data) => validateCastAddBody(body, data.timestamp),
  render: renderCastAdd,
  write: writeCastAdd,
  encode: encodeCastAdd,
  writesEmptyPacked: (body) => body.mentions.length === 0 || body.mentionsPositions.length === 0,
} satisfies BodyKind<"castAddBody", CastAddBodyJson>;

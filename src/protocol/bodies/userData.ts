import { MessageType, UserDataBody } from "../generated/message.js";
import { USER_DATA_TYPE_NAMES, enumName } from "../json/enums.js";
import { enumJson } from "../json/jsonText.js";
import { validateUserDataBody } from "../validation/userData.js";
import type { BodyKind } from "./bodyKind.js";

export interface UserDataBodyJson {
  type: string | number;
  value: string;
}

export const userData = {
  field: "userDataBody",
  fieldNumber: 12,
  types: [MessageType.USER_DATA_ADD],
  validate: validateUserDataBody,
  render: (body) => ({ type: enumName(USER_DATA_TYPE_NAMES, body.type), value: body.value }),
  write: (body) =>
    '{"type":' + enumJson(USER_DATA_TYPE_NAMES, body.type) + ',"value":' + JSON.stringify(body.value) + "}",
  encode: UserDataBody.encode,
} satisfies BodyKind<"userDataBody", UserDataBodyJson>;

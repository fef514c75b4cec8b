import type { HubError } from "../errors.js";
import { UserDataType, type UserDataBody } from "../generated/message.js";
import { utf8Length } from "./common.js";
import { invalid } from "./errors.js";
import { validateEnsName, validateFname } from "./names.js";

const LOCATION = /^geo:(-?\d{1,2}\.\d{2}),(-?\d{1,3}\.\d{2})$/;
const TWITTER = /^[a-z0-9_]{0,15}$/;
const GITHUB = /^[a-z\d](?:[a-z\d]|-(?!-)){0,38}$/i;
// CAIP-19: chain namespace:reference / asset namespace:reference [/ token id].
const CAIP19 =
  /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}\/[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}(\/[-.%a-zA-Z0-9]{1,78})?$/;

function maxBytes(value: string, limit: number, label: string): HubError | undefined {
  return utf8Length(value) > limit ? invalid(`${label} value > ${limit}`) : undefined;
}

function validateUsername(value: string): HubError | undefined {
  if (value === "") return undefined;
  const fnameError = validateFname(value);
  if (fnameError === undefined) return undefined;
  // The reference reports the fname problem when the value is neither kind of name.
  return validateEnsName(value) === undefined ? undefined : fnameError;
}

function validateLocation(value: string): HubError | undefined {
  if (value === "") return undefined;
  const match = LOCATION.exec(value);
  if (match === null) return invalid("Invalid location string");
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (latitude < -90 || latitude > 90) return invalid("Latitude value outside valid range");
  if (longitude < -180 || longitude > 180) return invalid("Longitude value outside valid range");
  return undefined;
}

function validateHandle(value: string, maxLength: number, pattern: RegExp): HubError | undefined {
  if (value === "") return undefined;
  if (value.length > maxLength) return invalid(`username "${value}" > ${maxLength} characters`);
  if (!pattern.test(value)) return invalid(`username "${value}" doesn't match ${pattern}`);
  return undefined;
}

export function validateUserDataBody(body: UserDataBody): HubError | undefined {
  const value = body.value;
  switch (body.type) {
    case UserDataType.PFP:
      return maxBytes(value, 256, "pfp");
    case UserDataType.DISPLAY:
      return maxBytes(value, 32, "display");
    case UserDataType.BIO:
      return maxBytes(value, 256, "bio");
    case UserDataType.URL:
      return maxBytes(value, 256, "url");
    case UserDataType.USERNAME:
      return validateUsername(value);
    case UserDataType.LOCATION:
      return validateLocation(value);
    case UserDataType.TWITTER:
      return validateHandle(value, 15, TWITTER);
    case UserDataType.GITHUB:
      return validateHandle(value, 38, GITHUB);
    case UserDataType.BANNER:
      return maxBytes(value, 256, "banner");
    case UserDataType.USER_DATA_PRIMARY_ADDRESS_ETHEREUM:
      return utf8Length(value) > 42 ? invalid("invalid length for eth address") : undefined;
    case UserDataType.USER_DATA_PRIMARY_ADDRESS_SOLANA:
      return utf8Length(value) > 44 ? invalid("invalid length for sol address") : undefined;
    case UserDataType.PROFILE_TOKEN:
      if (value === "") return undefined;
      if (utf8Length(value) > 256 || !CAIP19.test(value)) {
        return invalid("profile token is not a valid CAIP-19 token");
      }
      return undefined;
    case UserDataType.LIVE_AT:
      return maxBytes(value, 256, "live_at");
    default:
      return invalid("invalid user data type");
  }
}

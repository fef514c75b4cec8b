/** `castnet profile set`: user data messages, one per field given; `castnet profile show`: a fid's. */
import { type Command, Option } from "commander";
import { UserDataType } from "../../protocol/generated/message.js";
import { USER_DATA_TYPE_NAMES } from "../../protocol/json/enums.js";
import { fullName, namesOf } from "../../explorer/personNames.js";
import { type CommonOptions, contextOf, report, reportNaming, withOptions } from "../context.js";
import { signingActor } from "../signingActor.js";
import { resolveFid } from "../targets.js";
import { UsageError } from "../../usageError.js";

const FIELDS = [
  ["display", UserDataType.DISPLAY, "display name"],
  ["bio", UserDataType.BIO, "bio"],
  ["pfp", UserDataType.PFP, "profile picture URL"],
  ["url", UserDataType.URL, "website URL"],
] as const;

type ProfileOptions = CommonOptions & Partial<Record<(typeof FIELDS)[number][0], string>>;

/** Where a type (its JSON name) comes in the protocol's list; the hub answers in the order they were set. */
function rank(type: string): number {
  const value = USER_DATA_TYPE_NAMES.indexOf(type);
  return value < 0 ? Infinity : value;
}

export function registerProfile(program: Command): void {
  const profile = program.command("profile").description("a user's profile");
  withOptions(
    profile.command("show <name|fid>").description("a user's profile fields, as the hub holds them"),
    {
      parts: ["hub", "registry"],
      keystore: true,
    },
  ).action(async (who: string, options: CommonOptions) => {
    const context = contextOf(options);
    const fid = await resolveFid(context, who);
    // A fid holds at most one message per user data type, far fewer than a page.
    const { messages } = await context.hub.userDataByFid(fid);
    const bodies = messages
      .flatMap((m) => (m.data.userDataBody ? [m.data.userDataBody] : []))
      .sort((a, b) => rank(a.type) - rank(b.type));
    const fields = Object.fromEntries(
      bodies.map((body) => [body.type.replace("USER_DATA_TYPE_", "").toLowerCase(), body.value]),
    );
    const width = Math.max(0, ...Object.keys(fields).map((name) => name.length));
    report(
      options,
      { fid, profile: fields },
      bodies.length === 0
        ? `fid ${fid} has no profile fields`
        : [
            fullName(namesOf(fid, messages)),
            ...Object.entries(fields).map(([name, value]) => `  ${name.padEnd(width)}  ${value}`),
          ],
    );
  });
  const set = profile.command("set").description("set profile fields (each is one user data message)");
  for (const [flag, , help] of FIELDS) set.addOption(new Option(`--${flag} <value>`, help));
  // The client API says who approved a requested key (--as <token>).
  withOptions(set, { parts: ["hub", "api"], account: true }).action(async (options: ProfileOptions) => {
    const { setUserData } = await import("../writes.js");
    const given = FIELDS.filter(([flag]) => options[flag] !== undefined);
    if (given.length === 0) throw new UsageError("give at least one of --display, --bio, --pfp, --url");
    const context = contextOf(options);
    const actor = await signingActor(context);
    const set: Record<string, { value: string; hash: string }> = {};
    for (const [flag, type] of given) {
      const value = options[flag]!;
      const message = await setUserData(context, actor, type, value);
      set[flag] = { value, hash: message.hash };
    }
    await reportNaming(options, { fid: actor.account.fid, set }, async () => {
      const who = await context.people.full(actor.account.fid);
      return Object.entries(set).map(([flag, { hash }]) => `set ${flag} of ${who} (message ${hash})`);
    });
  });
}

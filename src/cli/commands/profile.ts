/** `castnet profile set`: user data messages, one per field given. */
import { type Command, Option } from "commander";
import { UserDataType } from "../../protocol/generated/message.js";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";
import { UsageError } from "../usageError.js";

const FIELDS = [
  ["display", UserDataType.DISPLAY, "display name"],
  ["bio", UserDataType.BIO, "bio"],
  ["pfp", UserDataType.PFP, "profile picture URL"],
  ["url", UserDataType.URL, "website URL"],
] as const;

type ProfileOptions = CommonOptions & Partial<Record<(typeof FIELDS)[number][0], string>>;

export function registerProfile(program: Command): void {
  const profile = program.command("profile").description("a user's profile");
  const set = profile.command("set").description("set profile fields (each is one user data message)");
  for (const [flag, , help] of FIELDS) set.addOption(new Option(`--${flag} <value>`, help));
  withOptions(set, { parts: ["hub"], account: true }).action(async (options: ProfileOptions) => {
    const { setUserData } = await import("../writes.js");
    const given = FIELDS.filter(([flag]) => options[flag] !== undefined);
    if (given.length === 0) throw new UsageError("give at least one of --display, --bio, --pfp, --url");
    const context = contextOf(options);
    const actor = context.actor();
    const set: Record<string, { value: string; hash: string }> = {};
    for (const [flag, type] of given) {
      const value = options[flag]!;
      const message = await setUserData(context, actor, type, value);
      set[flag] = { value, hash: message.hash };
    }
    report(
      options,
      { fid: actor.account.fid, set },
      Object.entries(set).map(
        ([flag, { hash }]) => `set ${flag} of fid ${actor.account.fid} (message ${hash})`,
      ),
    );
  });
}

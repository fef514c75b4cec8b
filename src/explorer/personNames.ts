/**
 * How castnet names a person for people to read, the same on the pages and in the CLI's output:
 * "Ana Ruiz @ana (fid 5)" where the person is the subject, "@ana" inside a sentence, and "fid 5"
 * for a fid the hub knows neither a username nor a display name of. Nothing here reads anything:
 * the names come from the fid's user data messages, as the hub renders them in JSON.
 */

export interface PersonNames {
  fid: number;
  username?: string;
  display?: string;
}

/** A user data message as the hub renders it: the only fields read here. */
interface UserDataJson {
  data: { userDataBody?: { type: string; value: string } };
}

/** The names `fid`'s user data messages give it; an empty value (a field cleared) is none. */
export function namesOf(fid: number, messages: readonly UserDataJson[]): PersonNames {
  const fields = new Map(messages.map((m) => [m.data.userDataBody?.type, m.data.userDataBody?.value]));
  const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);
  return {
    fid,
    username: nonEmpty(fields.get("USER_DATA_TYPE_USERNAME")),
    display: nonEmpty(fields.get("USER_DATA_TYPE_DISPLAY")),
  };
}

/** "Ana Ruiz @ana (fid 5)", "@ana (fid 5)", "Ana Ruiz (fid 5)", or "fid 5". */
export function fullName({ fid, username, display }: PersonNames): string {
  if (display === undefined && username === undefined) return `fid ${fid}`;
  return [display, username === undefined ? undefined : `@${username}`, `(fid ${fid})`]
    .filter((part) => part !== undefined)
    .join(" ");
}

/** "@ana", or "fid 5" for a fid with no username: inside a sentence. */
export function shortName({ fid, username }: PersonNames): string {
  return username === undefined ? `fid ${fid}` : `@${username}`;
}

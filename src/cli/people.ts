/**
 * The people a command's human output names, in the explorer's words (src/explorer/personNames.ts):
 * "Ana Ruiz @ana (fid 5)", or "@ana" inside a sentence. A fid's user data is read from the hub once
 * per command, when the output first names it; `--json` output names no one, so it reads nothing.
 * A fid whose user data cannot be read is named by its fid: the command has done what it was for
 * (a write the hub took, a read of another part), and naming its people must not turn that into a
 * failure, nor need a hub where the command needs none.
 */
import { fullName, namesOf, type PersonNames, shortName } from "../explorer/personNames.js";
import type { HubClient } from "./http/hub.js";

const NAME_FIELDS: Record<string, "username" | "display"> = {
  USER_DATA_TYPE_USERNAME: "username",
  USER_DATA_TYPE_DISPLAY: "display",
};

export class People {
  readonly #names = new Map<number, Promise<PersonNames>>();

  constructor(private readonly hub: HubClient) {}

  /** "Ana Ruiz @ana (fid 5)", or "fid 5". */
  async full(fid: number): Promise<string> {
    return fullName(await this.names(fid));
  }

  /** The full name of each of `fids`, in their order, read at once. */
  async fullEach(fids: readonly number[]): Promise<string[]> {
    await this.read(fids);
    return Promise.all(fids.map((fid) => this.full(fid)));
  }

  /** "@ana", or "fid 5". */
  async short(fid: number): Promise<string> {
    return shortName(await this.names(fid));
  }

  /** Reads the names of all of `fids` at once, each fid once, before the lines that show them are made. */
  async read(fids: Iterable<number>): Promise<void> {
    await Promise.all([...new Set(fids)].map((fid) => this.names(fid)));
  }

  /**
   * A user data message of `fid` merged after the names were read (an event stream runs on while
   * names change): the names shown from now on are those it sets.
   */
  learn(fid: number, type: string, value: string): void {
    const field = NAME_FIELDS[type];
    const known = this.#names.get(fid);
    if (field === undefined || known === undefined) return;
    this.#names.set(
      fid,
      known.then((names) => ({ ...names, [field]: value === "" ? undefined : value })),
    );
  }

  names(fid: number): Promise<PersonNames> {
    let names = this.#names.get(fid);
    if (names === undefined) {
      // fid 0 is no one's: the on-chain events of no fid (a signer migration) carry it.
      names = fid > 0 ? this.#read(fid) : Promise.resolve({ fid });
      this.#names.set(fid, names);
    }
    return names;
  }

  async #read(fid: number): Promise<PersonNames> {
    try {
      return namesOf(fid, (await this.hub.userDataByFid(fid)).messages);
    } catch {
      return { fid };
    }
  }
}

import * as core from "@farcaster/core";
import { privateKeyToAccount } from "viem/accounts";

// The parts' URLs: `castnet start`'s unless the environment names others, as for the castnet command.
const registry = process.env.CASTNET_REGISTRY_URL ?? "http://127.0.0.1:2280";
const hub = process.env.CASTNET_HUB_URL ?? "http://127.0.0.1:2281";
// The JSON that `castnet account show <name> --reveal --json` printed: a fid with storage and a signer.
if (!process.env.ACCOUNT)
  throw new Error("set ACCOUNT to what castnet account show <name> --reveal --json prints");
const account = JSON.parse(process.env.ACCOUNT);
const name: string = account.name;
const hex = (s: string) => Buffer.from(s.slice(2), "hex");
const signer = new core.NobleEd25519Signer(hex(account.signerPrivateKey));
const custody = privateKeyToAccount(account.custodyPrivateKey);

/** A part's JSON answer; a refusal stops the program with what the part said. */
async function answer(request: Promise<Response>) {
  const response = await request;
  const body = await response.text();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${body}`);
  return JSON.parse(body);
}

// 1. The name at the registry, claimed with the custody address's EIP-712 signature.
const timestamp = Math.floor(Date.now() / 1000);
const claim = core.makeUserNameProofClaim({ name, owner: custody.address, timestamp });
const sig = (await new core.ViemLocalEip712Signer(custody).signUserNameProofClaim(claim))._unsafeUnwrap();
const registered = await answer(
  fetch(`${registry}/transfers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      name,
      from: 0,
      to: account.fid,
      fid: account.fid,
      owner: custody.address,
      timestamp,
      signature: `0x${Buffer.from(sig).toString("hex")}`,
    }),
  }),
);
console.log(`registry: ${name} is fid ${registered.transfer.to}'s (transfer ${registered.transfer.id})`);

// 2. The hub follows the registry: the username is accepted once the hub holds the name's proof.
for (let tries = 0; ; tries++) {
  const proof = await fetch(`${hub}/v1/userNameProofByName?name=${name}`);
  if (proof.ok && ((await proof.json()) as { fid: number }).fid === account.fid) break;
  if (tries === 100) throw new Error(`the hub at ${hub} has not seen ${name}'s registration`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
console.log(`hub: holds the proof that ${name} is fid ${account.fid}'s`);

// 3. Make it the username, then cast: each message signed with the signer, as protobuf bytes to the hub.
const submit = (message: core.Message) =>
  answer(
    fetch(`${hub}/v1/submitMessage`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: core.Message.encode(message).finish(),
    }),
  );
const data = { fid: account.fid, network: core.FarcasterNetwork.MAINNET };
const username = await submit(
  (
    await core.makeUserDataAdd({ type: core.UserDataType.USERNAME, value: name }, data, signer)
  )._unsafeUnwrap(),
);
console.log(`hub: username ${username.data.userDataBody.value} (message ${username.hash})`);
const cast = await submit(
  (
    await core.makeCastAdd(
      {
        text: "hello castnet",
        embeds: [],
        embedsDeprecated: [],
        mentions: [],
        mentionsPositions: [],
        type: core.CastType.CAST,
      },
      data,
      signer,
    )
  )._unsafeUnwrap(),
);
console.log(`hub: cast ${account.fid}:${cast.hash}`);

// 4. Read it back as any client does.
const casts = await answer(fetch(`${hub}/v1/castsByFid?fid=${account.fid}&reverse=true&pageSize=1`));
console.log(`hub: fid ${account.fid}'s newest cast says "${casts.messages[0].data.castAddBody.text}"`);

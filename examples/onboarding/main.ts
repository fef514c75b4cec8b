import * as core from "@farcaster/core";
import {
  bytesToHex,
  createPublicClient,
  createWalletClient,
  hexToBytes,
  http,
  parseEther,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { optimism } from "viem/chains";

// The one change from code written for OP mainnet: the RPC URL, the devchain's.
const rpc = process.env.RPC_URL ?? "http://127.0.0.1:2284";
const publicClient = createPublicClient({ chain: optimism, transport: http(rpc) });
const app = privateKeyToAccount(generatePrivateKey());
const user = privateKeyToAccount(generatePrivateKey());
const walletClient = (account: typeof app) =>
  createWalletClient({ chain: optimism, transport: http(rpc), account });

// The devchain's faucet (an operator method): on OP mainnet these accounts would bring their own ether.
for (const { address } of [app, user])
  await publicClient.request({
    method: "castnet_setBalance",
    params: [address, toHex(parseEther("1"))],
  } as never);

// 1. The app's fid: IdGateway.register at its price.
const price = await publicClient.readContract({
  address: core.ID_GATEWAY_ADDRESS,
  abi: core.idGatewayABI,
  functionName: "price",
});
const registered = await walletClient(app).writeContract({
  address: core.ID_GATEWAY_ADDRESS,
  abi: core.idGatewayABI,
  functionName: "register",
  args: [app.address],
  value: price,
});
await publicClient.waitForTransactionReceipt({ hash: registered });
const appFid = await publicClient.readContract({
  address: core.ID_REGISTRY_ADDRESS,
  abi: core.idRegistryABI,
  functionName: "idOf",
  args: [app.address],
});
console.log(`app fid ${appFid}`);

// 2. The user's fid, an app key and a unit of extra storage in one Bundler.register, signed by the
// user (Register, Add) with the app's signed key request as the key's metadata.
const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
const userSigner = new core.ViemLocalEip712Signer(user);
const appKey = new core.NobleEd25519Signer(hexToBytes(generatePrivateKey()));
const key = (await appKey.getSignerKey())._unsafeUnwrap();
const metadata = (
  await new core.ViemLocalEip712Signer(app).getSignedKeyRequestMetadata({ requestFid: appFid, key, deadline })
)._unsafeUnwrap();
const registerSig = (
  await userSigner.signRegister({ to: user.address, recovery: app.address, nonce: 0n, deadline })
)._unsafeUnwrap();
const addSig = (
  await userSigner.signAdd({
    owner: user.address,
    keyType: 1,
    key,
    metadataType: 1,
    metadata: bytesToHex(metadata),
    nonce: 0n,
    deadline,
  })
)._unsafeUnwrap();
const bundled = await walletClient(user).writeContract({
  address: core.BUNDLER_ADDRESS,
  abi: core.bundlerABI,
  functionName: "register",
  args: [
    { to: user.address, recovery: app.address, deadline, sig: bytesToHex(registerSig) },
    [
      {
        keyType: 1,
        key: bytesToHex(key),
        metadataType: 1,
        metadata: bytesToHex(metadata),
        deadline,
        sig: bytesToHex(addSig),
      },
    ],
    1n,
  ],
  value: await publicClient.readContract({
    address: core.BUNDLER_ADDRESS,
    abi: core.bundlerABI,
    functionName: "price",
    args: [1n],
  }),
});
const receipt = await publicClient.waitForTransactionReceipt({ hash: bundled });
const userFid = await publicClient.readContract({
  address: core.ID_REGISTRY_ADDRESS,
  abi: core.idRegistryABI,
  functionName: "idOf",
  args: [user.address],
});
console.log(`user fid ${userFid}: ${receipt.logs.length} logs, block ${receipt.blockNumber}`);

// 3. What the chain now says of the app key.
const keyData = await publicClient.readContract({
  address: core.KEY_REGISTRY_ADDRESS,
  abi: core.keyRegistryABI,
  functionName: "keyDataOf",
  args: [userFid, bytesToHex(key)],
});
console.log(`app key ${bytesToHex(key).slice(0, 10)}…: state ${keyData.state}, key type ${keyData.keyType}`);

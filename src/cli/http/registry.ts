/** The name registry's HTTP API as the CLI uses it (docs/registry.md), through the SDK's RegistryClient. */
import { RegistryClient as SdkRegistryClient, type Transfer, type TransferRequest } from "../../sdk/index.js";
import { sdkOptions, throughSdk } from "./request.js";

export function registryClient(base: string) {
  const sdk = new SdkRegistryClient(base, sdkOptions());
  return {
    base,
    /** The name's latest transfer, or undefined when it is not registered. */
    current: (name: string): Promise<Transfer | undefined> =>
      throughSdk("registry", base, () => sdk.current({ name }), true),
    currentTime: (): Promise<number> => throughSdk("registry", base, () => sdk.currentTime()),
    transfer: (body: TransferRequest): Promise<Transfer> =>
      throughSdk("registry", base, () => sdk.transfer(body)),
  };
}

export type RegistryClient = ReturnType<typeof registryClient>;

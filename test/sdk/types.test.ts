/** The SDK's committed types are what `npm run sdk:types` makes from the current route schemas. */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { GENERATED_DIR, SDK_PARTS, generateSdkTypes } from "../../scripts/sdkTypes.js";

it("src/sdk/generated holds the types the parts' OpenAPI documents generate", async () => {
  const generated = await generateSdkTypes();
  assert.deepEqual(
    readdirSync(GENERATED_DIR).sort(),
    Object.values(SDK_PARTS)
      .map((name) => `${name}.ts`)
      .sort(),
  );
  for (const [name, text] of Object.entries(generated))
    assert.ok(
      readFileSync(join(GENERATED_DIR, `${name}.ts`), "utf8") === text,
      `src/sdk/generated/${name}.ts is not what the schemas generate: run npm run sdk:types`,
    );
});

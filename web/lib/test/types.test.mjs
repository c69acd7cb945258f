// The TypeScript declarations: protocol.d.ts is what gen-types.mjs makes from the
// JSON Schemas today, and the protocol's examples and the client API type-check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generate } from "../tools/gen-types.mjs";

test("protocol.d.ts is generated from protocol/schemas/ and up to date", () => {
  const committed = readFileSync(new URL("../protocol.d.ts", import.meta.url), "utf8");
  assert.equal(committed, generate(), "run `npm run types` in web/");
  for (const name of ["HelloRequest", "OkHello", "SnapshotMessage", "CardPlayedEvent", "ClientMessage", "ServerMessage", "GameEvent"]) {
    assert.match(committed, new RegExp(`export type ${name} =`));
  }
});

test("PROTOCOL.md's examples and the client API type-check (tsc --strict)", () => {
  const out = execFileSync(process.execPath, [fileURLToPath(new URL("../tools/check-types.mjs", import.meta.url))], { encoding: "utf8" });
  assert.match(out, /type-check/);
});

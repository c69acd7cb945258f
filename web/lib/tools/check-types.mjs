#!/usr/bin/env node
// Checks the library's TypeScript declarations against the protocol:
// every example message of protocol/PROTOCOL.md must type-check as a
// ClientMessage or ServerMessage of protocol.d.ts (generated from the JSON
// Schemas), messages the schemas refuse must not, and the client's own
// declarations (client.d.ts, ...) must compile and fit a typical use.
// Runs TypeScript's compiler (web/node_modules, from `npm ci`) with --strict.

import { readFileSync, writeFileSync, mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

const here = dirname(fileURLToPath(import.meta.url));
const lib = join(here, "..");
const tsc = join(here, "../../node_modules/typescript/bin/tsc");

if (!existsSync(tsc)) {
  console.error("typescript is not installed: run `npm ci` in web/ (scripts/install-deps.sh does)");
  process.exit(1);
}

const doc = readFileSync(join(lib, "../../protocol/PROTOCOL.md"), "utf8");
const examples = [...doc.matchAll(/```json (client|server)\n([\s\S]*?)```/g)].map((m) => ({ side: m[1], json: m[2].trim() }));
if (examples.length < 50) throw new Error(`only ${examples.length} examples found in PROTOCOL.md`);

const libPath = lib.replace(/\\/g, "/");
const lines = [
  `import type { ClientMessage, ServerMessage, GameEvent } from "${libPath}/protocol.js";`,
  `import { SpartsClient, cardName, TableModel, describeEvent } from "${libPath}/index.js";`,
  "",
];
examples.forEach((e, i) => lines.push(`export const example${i}: ${e.side === "client" ? "ClientMessage" : "ServerMessage"} = ${e.json};`));
lines.push(
  "",
  "// Messages the schemas refuse must not type-check either.",
  "// @ts-expect-error a card is a string",
  `export const bad1: ClientMessage = { type: "act", table: "t1", action: { type: "play", card: 5 } };`,
  "// @ts-expect-error hello needs a name",
  `export const bad2: ClientMessage = { type: "hello", protocol: 1 };`,
  "// @ts-expect-error no such event",
  `export const bad3: GameEvent = { type: "card_burned", seat: 1 };`,
  "// @ts-expect-error unknown member",
  `export const bad4: ClientMessage = { type: "ping", id: 1, extra: true };`,
  "",
  "// The client's API as an app uses it.",
  "export async function use(): Promise<string> {",
  `  const client = new SpartsClient({ url: "ws://localhost:8080/ws", name: "Ada", storage: null });`,
  `  const hello = await client.connect();`,
  `  const created = await client.createTable({ preset: "spades", options: { target_score: 250 } }, { turn_seconds: 30 });`,
  `  await client.sit(created.table);`,
  `  client.on("your_turn", (t) => { if (t.legal.kind === "play") client.play(t.table, t.legal.cards[0]); });`,
  `  client.on("event", (e) => describeEvent(e.event));`,
  `  const m: TableModel = client.model(created.table);`,
  `  const hand: string[] = m.state.view?.hand ?? [];`,
  `  await client.bid(created.table, "nil");`,
  `  return hello.player + cardName(hand[0] ?? "QS");`,
  "}",
);

const dir = mkdtempSync(join(tmpdir(), "sparts-types-"));
try {
  writeFileSync(join(dir, "examples.ts"), lines.join("\n") + "\n");
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ES2022", moduleResolution: "bundler", lib: ["ES2022", "DOM"], skipLibCheck: false, types: [] },
    files: ["examples.ts", `${libPath}/index.d.ts`],
  }));
  execFileSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { stdio: "inherit" });
  console.log(`types: ${examples.length} PROTOCOL.md examples and the client API type-check against protocol.d.ts`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The "How to play" pages' words: web/app/rules-text.js is what gen-rules.mjs makes of
// docs/RULES.md today, every preset has its rules, and the New table form's options are
// the rules document's, with the same default in every preset.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { generate, plain } from "../tools/gen-rules.mjs";
import { RULES } from "../../app/rules-text.js";
import { OPTIONS, PRESETS, presetInWords, liveHint } from "../../app/options.js";

test("rules-text.js is generated from docs/RULES.md and up to date", () => {
  const committed = readFileSync(new URL("../../app/rules-text.js", import.meta.url), "utf8");
  assert.equal(committed, generate(), "run node web/lib/tools/gen-rules.mjs");
});

test("the rules in plain words: no sources, no code marks", () => {
  assert.equal(plain('A nil made is +50 (`nil`) ([000] "A bid of nil (zero) is worth 50 points.").'), "A nil made is +50 (nil).");
  assert.equal(plain('**Game end.** The game ends ([000] "When at least one (1) player...").'), "Game end. The game ends.");
  for (const p of PRESETS) {
    const rules = RULES.presets[p.name];
    assert.ok(rules.summary.length > 20, `${p.name}: a summary`);
    assert.ok(rules.rules.filter((b) => b.rule).length >= 5, `${p.name}: its rules`);
    for (const b of rules.rules) assert.doesNotMatch(`${b.rule ?? ""} ${b.text ?? ""} ${b.title ?? ""}`, /\[(\d{3}|R)\]|`|\*\*/, `${p.name}: ${b.text}`);
  }
});

test("the form's options are the rules document's, with its defaults", () => {
  for (const o of OPTIONS) {
    const doc = RULES.options[o.name];
    assert.ok(doc, `${o.name} is in docs/RULES.md §2`);
    // (the form leaves out what a preset cannot change: sparts' hand size is always auto)
    for (const preset of Object.keys(o.defaults)) assert.ok(preset in doc.defaults, `${o.name} applies to ${preset}`);
    for (const [preset, value] of Object.entries(o.defaults)) {
      const shown = typeof value === "boolean" ? (value ? "true" : "false") : String(value);
      assert.equal(doc.defaults[preset].split(" ")[0], shown, `${o.name} in ${preset}`);
    }
  }
});

test("a preset's line and the nil hint follow the form: Spades to 100 has a nil of 20", () => {
  const form = { target_score: "100", nil_value: "0", game_clock: "0" };
  const value = (name) => form[name];
  assert.equal(presetInWords("spades", value), "Partnership Spades to 100; nil is worth 20.");
  form.nil_value = "60";
  assert.equal(presetInWords("spades", value), "Partnership Spades to 100; nil is worth 60.");
  assert.match(liveHint(OPTIONS.find((o) => o.name === "nil_value"), value), /a fifth of the target score, 20$/);
  const sparts = { seats: "5", hands: "seats", target_score: "0" };
  assert.equal(presetInWords("sparts", (n) => sparts[n]), "5 players: bid on tricks, lose points for hearts and the queen of spades; 5 hands, one each to deal.");
});

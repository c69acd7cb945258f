// "How to play": a preset's rules and options in plain words, at #/rules/<preset>.
// The words are docs/RULES.md's (web/app/rules-text.js is generated from it): the
// rules are written once, and what the page says is what the server does.

import { h, fill } from "./dom.js";
import { RULES } from "./rules-text.js";
import { OPTIONS, PRESETS, presetLabel } from "./options.js";

export class RulesView {
  constructor(app, preset) {
    this.app = app;
    this.preset = RULES.presets[preset] ? preset : "spades";
  }

  mount(el) {
    const p = this.preset;
    const rules = RULES.presets[p];
    const options = Object.entries(RULES.options).filter(([, o]) => p in o.defaults);
    document.title = `How to play ${presetLabel(p)} · sparts`;
    fill(el, h("article", { class: "rules-page" },
      h("nav", { class: "rules-nav", "aria-label": "Games" },
        h("a", { class: "button", href: "#/" }, "Lobby"),
        PRESETS.map((x) => (x.name === p
          ? h("span", { class: "current", "aria-current": "page" }, x.label)
          : h("a", { href: `#/rules/${x.name}` }, x.label)))),
      h("h1", {}, `How to play ${presetLabel(p)}`),
      h("p", { class: "rules-summary" }, rules.summary),
      h("section", { class: "card-panel", "aria-labelledby": "rules-title" },
        h("h2", { id: "rules-title" }, "The rules"),
        blocksEl(rules.rules)),
      h("section", { class: "card-panel", "aria-labelledby": "options-title" },
        h("h2", { id: "options-title" }, "Options"),
        h("p", { class: "hint" }, "A new table starts with these defaults; More options in the lobby's New table form changes them."),
        h("dl", { class: "rules-options" }, options.map(([name, o]) => [
          h("dt", {}, OPTIONS.find((x) => x.name === name)?.label ?? name,
            h("span", { class: "hint" }, ` (${name}): ${o.defaults[p]} here; ${o.values}`)),
          h("dd", {}, o.meaning)]))),
      h("section", { class: "card-panel", "aria-labelledby": "common-title" },
        h("h2", { id: "common-title" }, "In every game"),
        blocksEl(RULES.common))));
    el.querySelector("h1")?.focus?.();
  }

  unmount() {
    document.title = "sparts";
  }
}

/** A section's paragraphs, sub-headings and rules (a rule's name, then what happens). */
function blocksEl(blocks) {
  const out = [];
  let list = null;
  for (const b of blocks) {
    if (b.rule) {
      if (!list) out.push(list = h("dl", { class: "rules-list" }));
      list.append(h("dt", {}, b.rule), h("dd", {}, b.text));
      continue;
    }
    list = null;
    out.push(b.title ? h("h3", {}, b.title) : h("p", {}, b.text));
  }
  return out;
}

// The presets and their options, as docs/RULES.md §2 and `sparts rules` list them,
// each with a word or two for the lobby's "New table" form.

export const PRESETS = [
  { name: "spades", label: "Spades", about: "Partnership Spades to 500; nil is worth 100." },
  { name: "worldwinner-spades", label: "WorldWinner Spades", about: "Partnership Spades to 250, bag back, 10-minute game clock." },
  { name: "bga-sparts", label: "BGA Sparts", about: "4 players; the seven of diamonds chooses Spades or Hearts each hand." },
  { name: "sparts", label: "Sparts", about: "4–6 players: bid on tricks, lose points for hearts and the queen of spades." },
  { name: "spartsel", label: "Spartsel", about: "The inventors' game: exact bids only, 2–10 players, decks and jokers." },
  { name: "hearts", label: "Hearts", about: "4 players (3–6): pass 3, then avoid hearts and the queen of spades; to 100, the lowest score wins." },
];

const SPADES = ["spades", "worldwinner-spades"];
const SPARTS = ["sparts", "spartsel"];
const ALL = ["bga-sparts", ...SPARTS, ...SPADES, "hearts"];

// type: "int" (min..max), "enum" (values), "bool". defaults: per preset (absent: does not apply).
export const OPTIONS = [
  { name: "seats", label: "Players", hint: "how many seats", type: "int", min: 2, max: 10,
    range: { sparts: [4, 6], spartsel: [2, 10], hearts: [3, 6] }, defaults: { sparts: 4, spartsel: 4, hearts: 4 } },
  { name: "decks", label: "Decks", hint: "52-card decks", type: "enum", values: ["1", "2"], defaults: { spartsel: "1" } },
  { name: "jokers", label: "Jokers", hint: "wild cards", type: "int", min: 0, max: 4, defaults: { spartsel: 0 } },
  { name: "hand_size", label: "Hand size", hint: "cards each (auto: all)", type: "text", pattern: "auto|[0-9]{1,2}",
    defaults: { spartsel: "auto" } },
  { name: "hands", label: "Hands", hint: "game length (seats: one each; 0: no limit)", type: "text",
    pattern: "seats|[0-9]{1,3}", defaults: { sparts: "seats", spartsel: "seats" } },
  { name: "scoring", label: "Scoring", hint: "sparts: overtricks; spartsel: exact", type: "enum",
    values: ["sparts", "spartsel"], defaults: { sparts: "sparts", spartsel: "spartsel" } },
  { name: "target_score", label: "Target score", hint: "wins the game (0: none)", hints: { hearts: "ends the game; the lowest wins (0: none)" }, type: "int", min: 0, max: 10000,
    defaults: { sparts: 0, spartsel: 0, spades: 500, "worldwinner-spades": 250, hearts: 100 } },
  { name: "game_length", label: "Game length", hint: "points to win", type: "enum", values: ["200", "400", "800"],
    defaults: { "bga-sparts": "200" } },
  { name: "hearts_mode", label: "Hearts mode", hint: "pass 4 (sparts) or 3 (traditional)", type: "enum",
    values: ["sparts", "traditional"], defaults: { "bga-sparts": "sparts" } },
  { name: "nil_value", label: "Nil value", hint: "points; 0: a fifth of the target score", type: "int", min: 0, max: 1000,
    defaults: { spades: 0, "worldwinner-spades": 75 } },
  { name: "sandbag_penalty", label: "Bag penalty", hint: "what bags cost", type: "enum", values: ["off", "10", "5", "bag-back"],
    defaults: { spades: "10", "worldwinner-spades": "bag-back" } },
  { name: "mercy_rule", label: "Mercy rule", hint: "−200 loses", type: "bool", defaults: { spades: false, "worldwinner-spades": false } },
  { name: "min_bid", label: "Lowest bid", hint: "other than nil", type: "int", min: 1, max: 6, defaults: { spades: 1, "worldwinner-spades": 1 } },
  { name: "min_side_bid", label: "Side's lowest bid", hint: "partners together (0: none)", type: "int", min: 0, max: 13,
    defaults: { spades: 0, "worldwinner-spades": 0 } },
  { name: "ten_for_two_hundred", label: "10 for 200", hint: "a side bidding 10+ and making it scores 200", type: "bool",
    defaults: { spades: false, "worldwinner-spades": false } },
  { name: "all_thirteen_bonus", label: "All-13 bonus", hint: "points for bidding and taking 13 (0: none)", type: "int", min: 0, max: 1000,
    defaults: { spades: 0, "worldwinner-spades": 0 } },
  { name: "failed_nil_tricks", label: "A failed nil's tricks", hint: "help the partner, count for nothing, or are bags", type: "enum",
    values: ["partner", "none", "bags"], valueLabels: { partner: "help the partner", none: "count for nothing", bags: "are bags" },
    defaults: { spades: "partner", "worldwinner-spades": "none" } },
  { name: "spades_led_any_time", label: "Lead spades any time", hint: "no need to break them", type: "bool",
    defaults: { spades: false, "worldwinner-spades": false } },
  { name: "nil_pass", label: "Nil passing", hint: "cards a nil and partner swap (0: none)", type: "int", min: 0, max: 3,
    defaults: { spades: 0, "worldwinner-spades": 0 } },
  { name: "bid_style", label: "Bidding", hint: "Suicide, Whiz, Mirror", type: "enum", values: ["standard", "suicide", "whiz", "mirror"],
    valueLabels: { standard: "standard", suicide: "Suicide: one partner nil, one 4+", whiz: "Whiz: your spades or nil", mirror: "Mirror: exactly your spades" },
    defaults: { spades: "standard", "worldwinner-spades": "standard" } },
  { name: "blind_nil", label: "Blind nil", hint: "off, or how far behind a side must be (0: any side not ahead)", type: "text",
    pattern: "off|[0-9]{1,4}", defaults: { spades: "off", "worldwinner-spades": "off" } },
  { name: "joker_deck", label: "Jokers", hint: "two jokers top the spades", type: "enum",
    values: ["none", "big-little", "jjdd", "deuces-high"],
    valueLabels: { none: "none", "big-little": "Big, Little", jjdd: "Big, Little, 2♦, 2♠", "deuces-high": "Big, Little, 2♠" },
    defaults: { spades: "none", "worldwinner-spades": "none" } },
  { name: "big_joker_forces_highest", label: "Big Joker forces", hint: "led, it draws each opponent's top spade", type: "bool",
    defaults: { spades: false, "worldwinner-spades": false } },
  { name: "pass_count", label: "Cards passed", hint: "each hand", type: "int", min: 1, max: 4, defaults: { hearts: 3 } },
  { name: "pass_rotation", label: "Passing", hint: "where each hand's pass goes", type: "enum",
    values: ["standard", "left-right", "left", "right", "across", "none"],
    valueLabels: { standard: "left, right, across, hold", "left-right": "left, then right", left: "always left", right: "always right", across: "always across", none: "no passing" },
    defaults: { hearts: "standard" } },
  { name: "jack_of_diamonds", label: "Jack of diamonds −10", hint: "Omnibus Hearts", type: "bool", defaults: { hearts: false } },
  { name: "queen_breaks_hearts", label: "Queen breaks hearts", hint: "the queen of spades counts as a heart", type: "bool", defaults: { hearts: false } },
  { name: "points_on_first_trick", label: "Points on trick 1", hint: "hearts and the queen allowed", type: "bool", defaults: { hearts: false } },
  { name: "moon_scoring", label: "Shooting the moon", hint: "all hearts and the queen", type: "enum", values: ["add", "subtract", "best", "choose"],
    valueLabels: { add: "26 to everyone else", subtract: "26 off the shooter", best: "whichever is better for the shooter", choose: "the shooter chooses" },
    defaults: { hearts: "add" } },
  { name: "shoot_the_sun", label: "Shooting the sun", hint: "every trick: twice the moon", type: "bool", defaults: { hearts: false } },
  { name: "partnership", label: "Partners", hint: "across, scores together", type: "enum", values: ["none", "across"],
    valueLabels: { none: "none", across: "across the table" }, defaults: { hearts: "none" } },
  { name: "center_cards", label: "Center cards", hint: "who takes the kitty", type: "enum",
    values: ["first-heart-or-queen", "first-trick"], defaults: { sparts: "first-heart-or-queen", spartsel: "first-heart-or-queen" } },
  { name: "mooning", label: "Mooning", hint: "shoot the moon", type: "bool", defaults: { sparts: false, spartsel: false } },
  { name: "ten_of_hearts_minus_one", label: "Ten of hearts −1", hint: "instead of −10", type: "bool",
    defaults: { sparts: false, spartsel: false } },
  { name: "mercy", label: "Mercy", hint: "no hearts or spades on trick 1", type: "bool", defaults: { sparts: false, spartsel: false } },
  { name: "multi_pass", label: "Multi-pass", hint: "one card more", type: "enum", values: ["off", "back", "both-ways"],
    defaults: { sparts: "off", spartsel: "off" } },
  { name: "partners", label: "Partners", hint: "teams", type: "enum", values: ["none", "regular", "rotating", "progressive"],
    defaults: { sparts: "none", spartsel: "none" } },
  { name: "teams", label: "Teams", hint: "regular partners", type: "int", min: 2, max: 5, defaults: { sparts: 2, spartsel: 2 } },
  { name: "partner_plan", label: "Partner plan", hint: "teams per hand, e.g. 2,3,0", type: "text", pattern: "[0-9](,[0-9]){0,15}",
    defaults: { sparts: "2", spartsel: "2" } },
  { name: "progressive_rotated", label: "Rotate progressive", hint: "partner 2, 3, 4… to the left", type: "bool",
    defaults: { sparts: false, spartsel: false } },
  { name: "reverse_partners", label: "Reverse partners", hint: "queen takes last trick", type: "bool",
    defaults: { sparts: false, spartsel: false } },
  { name: "secret_bids", label: "Secret bids", hint: "hidden until scored", type: "bool", defaults: { sparts: false, spartsel: false } },
  { name: "game_clock", label: "Game clock", hint: "seconds (0: none)", type: "int", min: 0, max: 86400,
    defaults: { sparts: 0, spartsel: 0, spades: 0, "worldwinner-spades": 600 } },
  { name: "hand_cap", label: "Hand cap", hint: "most hands", type: "int", min: 1, max: 250,
    defaults: Object.fromEntries(ALL.map((p) => [p, 100])) },
];

/** The options a preset takes, each with its default there. */
export function optionsFor(preset) {
  return OPTIONS.filter((o) => preset in o.defaults).map((o) => ({ ...o, hint: o.hints?.[preset] ?? o.hint, default: o.defaults[preset] }));
}

/** An option's value as the form shows it. */
export function formValue(value) {
  return typeof value === "boolean" ? (value ? "true" : "false") : String(value);
}

/** A form value as JSON for create_table. */
export function wireValue(option, text) {
  if (option.type === "bool") return text === "true";
  if (option.type === "int") return Number(text);
  // A text option's number goes as a number ("seats" or 8 hands, "off" or 200 behind).
  if (/^[0-9]+$/.test(text)) return Number(text);
  return text;
}

/** A ruleset's options in words: "target 250, nil 75" — the non-default ones the server wrote back. */
export function optionsInWords(ruleset) {
  const entries = Object.entries(ruleset?.options ?? {});
  if (!entries.length) return "standard rules";
  return entries
    .map(([name, value]) => {
      const o = OPTIONS.find((x) => x.name === name);
      const label = o ? o.label.toLowerCase() : name;
      return typeof value === "boolean" ? (value ? label : `no ${label}`) : `${label} ${o?.valueLabels?.[value] ?? value}`;
    })
    .join(", ");
}

/**
 * A preset in a line, as its options stand now in the New table form (`value(name)`: an
 * option's current text there): "Partnership Spades to 100; nil is worth 20."
 */
export function presetInWords(preset, value) {
  const num = (name) => Number(value(name));
  const nil = () => {
    const n = num("nil_value");
    return n > 0 ? n : Math.floor(num("target_score") / 5);
  };
  const target = () => (num("target_score") > 0 ? `to ${num("target_score")}` : "with no target score");
  switch (preset) {
    case "spades":
      return `Partnership Spades ${target()}; nil is worth ${nil()}.`;
    case "worldwinner-spades": {
      const clock = num("game_clock");
      return `Partnership Spades ${target()}, bag back${clock ? `, ${clock % 60 ? `${clock}-second` : `${clock / 60}-minute`} game clock` : ""}; nil is worth ${nil()}.`;
    }
    case "hearts": {
      const pass = value("pass_rotation") === "none" ? "no passing" : `pass ${value("pass_count")}`;
      return `${num("seats")} players${value("partnership") === "across" ? " in partnerships" : ""}: ${pass}, then avoid hearts and the queen of spades; ${target()}, the lowest score wins.`;
    }
    case "bga-sparts":
      return `4 players; the seven of diamonds chooses Spades or Hearts each hand; to ${value("game_length")} points.`;
    case "sparts":
    case "spartsel": {
      const seats = num("seats");
      const hands = value("hands");
      const length = hands === "seats" ? `${seats} hands, one each to deal` : hands === "0" ? `to ${num("target_score")} points` : `${hands} hands`;
      return preset === "sparts"
        ? `${seats} players: bid on tricks, lose points for hearts and the queen of spades; ${length}.`
        : `The inventors' game: exact bids only; ${seats} players, ${value("decks")} deck${value("decks") === "1" ? "" : "s"}, ${value("jokers")} jokers; ${length}.`;
    }
    default:
      return PRESETS.find((p) => p.name === preset)?.about ?? "";
  }
}

/** The hint of an option that depends on others, in numbers: nil_value's "0: a fifth of the target score, 100". */
export function liveHint(option, value) {
  if (option.name === "nil_value" && value("target_score") !== undefined)
    return `points; 0: a fifth of the target score, ${Math.floor(Number(value("target_score")) / 5)}`;
  return option.hint;
}

export function presetLabel(name) {
  return PRESETS.find((p) => p.name === name)?.label ?? name;
}

/** A host's named rule set's label (hello's rule_sets); its name where the host offers it no more (or before the hello). */
export function ruleSetLabel(client, name) {
  return (client.ruleSets ?? []).find((s) => s.name === name)?.label ?? name;
}

/** A rule set as a choice in a list: its label and how much it has been played, "Street Spades (12 games played)". */
export function ruleSetChoice(set) {
  if (typeof set.games !== "number") return set.label;
  return `${set.label} (${set.games === 0 ? "no games yet" : set.games === 1 ? "1 game played" : `${set.games} games played`})`;
}

export { SPADES, SPARTS };

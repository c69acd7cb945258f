// The sparts client library: import what you need from here.
//   import { SpartsClient, cardName } from "./lib/index.js";
export { SpartsClient, SpartsError, PROTOCOL_VERSION } from "./client.js";
export { TableModel, ranksOf, lowScoreWins, sideOfSeat, sidesFromPartners, partnersFromRuleset, CHAT_LINES } from "./table-model.js";
export {
  CARD_PATTERN, SUITS, RANKS, isCard, parseCard, cardName, cardShort, suitName, suitSymbol, isRed, sortCards, groupBySuit, trickWinner, jokerDeckOf, suitInPlay, strength,
} from "./cards.js";
export { describeEvent, errorWords, bidWords, passDirectionWords, handLine, SCORE_COMPONENT_WORDS } from "./words.js";
export { listGames, getGame, getLeaderboard, getRuleSetLeaderboard, getPlayer } from "./archive.js";
export { dealCommitment, checkDealCommitment } from "./fair-deal.js";

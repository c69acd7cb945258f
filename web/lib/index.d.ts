export * from "./client.js";
export * from "./table-model.js";
export * from "./cards.js";
export * from "./words.js";
export * from "./archive.js";
export * from "./fair-deal.js";
export type * from "./protocol.js";

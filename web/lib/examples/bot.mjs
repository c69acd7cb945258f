// A complete sparts bot on the client library: sits at an open table (or creates one, with
// the rule options given as JSON, and fills it with server bots) and plays, the lowest legal
// card and the first legal bid, for N games.
//   node --experimental-websocket lib/examples/bot.mjs [ws://127.0.0.1:8080/ws] [preset] [games] ['{"hands":1}']
// (Node 22 has WebSocket without the flag; a browser page imports /lib/index.js the same way.)
import { SpartsClient, describeEvent } from "../index.js";

const [url = "ws://127.0.0.1:8080/ws", preset = "spades", games = "1", options = "{}"] = process.argv.slice(2);
const RANKS = "23456789TJQKA";
const client = new SpartsClient({ url, name: "JsBot", storage: null });
const hello = await client.connect();

let table = hello.seats[0]?.table;
if (!table) {
  const open = options === "{}" ? await client.listTables({ preset }) : [];
  table = open[0]?.table ?? (await client.createTable({ preset, options: JSON.parse(options) })).table;
  await client.sit(table);
  if (!open.length) {
    for (let seat = 1; seat < client.model(table).state.info.seats.length; seat++) await client.addBot(table, seat);
    await client.start(table);
  }
} else await client.open(table);
console.log(`table ${table}`);

let played = 0;
client.on("event", (m) => m.event.type === "game_over" && console.log(describeEvent(m.event)));
client.on("your_turn", async ({ table: t, legal }) => {
  const low = (cards) => [...cards].sort((a, b) => RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]));
  if (legal.kind === "play") await client.play(t, low(legal.cards)[0]).catch(() => {});
  else if (legal.kind === "bid") await client.bid(t, legal.bids[0]).catch(() => {});
  else if (legal.kind === "pass") await client.pass(t, low(legal.cards).slice(-legal.count)).catch(() => {});
  else if (legal.kind === "choose") await client.choose(t, legal.choices[0]).catch(() => {});
  else if (legal.kind === "moon") await client.moon(t, legal.choices[0]).catch(() => {});
});
client.on("event", async (m) => {
  if (m.event.type !== "game_over") return;
  if (++played >= Number(games)) return client.close();
  await client.again(m.table).catch(() => {});
});

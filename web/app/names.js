// Names as a person reads them: "(you)" wherever your player is, and two players who
// chose the same name told apart by the start of their player ids ("Ada #1a2b"); a
// bot is "Bot" and its seat ("Bot 3"), where the seat is known.

/** The shown name of each of `holders` (a table's seats, null when empty), for the player `you`. */
export function seatNames(holders, you, { botSeats = false } = {}) {
  const count = new Map();
  for (const x of holders) if (x && !x.bot) count.set(x.name, (count.get(x.name) ?? new Set()).add(x.player));
  return holders.map((x, seat) => {
    if (!x) return null;
    if (x.bot) return botSeats ? `Bot ${seat + 1}` : "Bot";
    const shared = (count.get(x.name)?.size ?? 0) > 1 && x.player;
    const name = shared ? `${x.name} #${x.player.slice(1, 5)}` : x.name;
    return x.player && x.player === you ? `${name} (you)` : name;
  });
}

"""The TableModel a bot reads: the trick, the partners, the cards played earlier in the hand
(see conftest.py for the server)."""
import asyncio

import pytest

from sparts_client import (Bot, SpartsClient, TableModel, deck_in_play, partners_for, play_table, ranks_for,
                           trick_winner)


def run(coro, timeout=90):
    return asyncio.run(asyncio.wait_for(coro, timeout))


# Rulesets whose partners differ: across (Spades), none, regular teams of 3 at 6 seats,
# rotating by a plan (2 teams, none, 3 teams), progressive (one-way, 2 to the left), and
# progressive rotated (2, 3, then 4 to the left); and the jokers of Joker Spades and of Spartsel,
# whose tricks trick_winner must read as the server does.
RULESETS = [
    ("spades", {"hand_cap": 2}),
    ("sparts", {"hand_cap": 2}),
    ("sparts", {"seats": 6, "partners": "regular", "teams": 3, "hand_cap": 2}),
    ("spartsel", {"seats": 6, "partners": "rotating", "partner_plan": "2,0,3", "hand_cap": 3}),
    ("spartsel", {"seats": 5, "partners": "progressive", "hand_cap": 2}),
    ("spartsel", {"seats": 5, "partners": "progressive", "progressive_rotated": True, "hand_cap": 3}),
    ("spades", {"joker_deck": "jjdd", "big_joker_forces_highest": True, "hand_cap": 2}),
    ("spades", {"bid_style": "suicide", "nil_pass": 2, "hand_cap": 2}),
    ("spartsel", {"jokers": 2, "hand_cap": 2}),
    ("spades", {"blind_nil": 0, "hand_cap": 2}),   # dealt face down: cards_dealt in the middle of the bidding
]

# Hearts (points taken, the lowest wins, no bids): to a low target so that a game is short;
# 5 seats (2D and 2C out, the 3C leads) with the jack of diamonds and the moon's best scoring;
# 6 seats (3C 4C 2D 3D out) in partnerships across, with the sun and the queen breaking hearts.
HEARTS = [
    ("hearts", {"target_score": 30}),
    ("hearts", {"seats": 5, "jack_of_diamonds": True, "moon_scoring": "best", "target_score": 40}),
    ("hearts", {"seats": 6, "partnership": "across", "shoot_the_sun": True, "queen_breaks_hearts": True,
                "pass_count": 2, "target_score": 40}),
]


async def checked_game(url, preset, options):
    """Seat 0 plays a game against server bots, by hand: at each of its turns to bid, choose
    or play (the table waits for it: no turn limit), a watcher takes a fresh snapshot,
    and the player's model, kept from the events alone, is compared with it. Returns the
    turns compared, the model, the events in order, the kinds of your_turn seen, and per
    hand the tricks the model kept when it was scored."""
    player, watcher = SpartsClient(url, "Model"), SpartsClient(url, "Snapshots")
    await player.connect()
    await watcher.connect()
    table = (await player.create_table(preset, options, turn_seconds=0))["table"]
    queue = player.subscribe(table)
    await player.sit(table)
    while not all(player.table(table).info["seats"]):
        await player.add_bot(table)
    snapshots = []
    watcher.on_message.append(lambda m: snapshots.append(m) if m["type"] == "snapshot" else None)
    seen = {}                                # hand -> its card_played events, as received
    events, kinds, scored_tricks = [], set(), {}

    def record(m):
        if m["type"] == "your_turn":
            kinds.add(m["legal"]["kind"])
        if m["type"] == "event":
            events.append(m["event"])
        if m["type"] == "event" and m["event"]["type"] == "hand_scored":   # before the model takes it
            scored_tricks[m["event"]["hand"]] = list(player.table(table).played_tricks)
        if m["type"] == "event" and m["event"]["type"] == "hand_started":
            seen[m["event"]["hand"]] = []
        elif m["type"] == "event" and m["event"]["type"] == "card_played":
            seen[max(seen)].append(m["event"])
    player.on_message.append(record)
    await player.start(table)
    bot, model, compared, passed, dealt = Bot(seed=3), player.table(table), 0, None, []
    while True:
        m = await queue.get()
        if m["type"] == "event" and m["event"]["type"] == "hand_started":
            dealt = []                       # blind nil: a hand dealt face down comes later
        if m["type"] == "event" and m["event"]["type"] == "cards_dealt" and "cards" in m["event"]:
            dealt = list(m["event"]["cards"])
        if m["type"] == "event" and m["event"]["type"] == "game_over":
            break
        if m["type"] != "your_turn":
            continue
        legal = m["legal"]
        if legal["kind"] == "pass":          # everyone passes at once: nothing stands still
            key = (model.hand_number, model.pass_round)
            if key != passed and not any(x["type"] == "your_turn" for x in queue._queue):
                passed = key
                await player.act(table, bot.choose(legal, model))
            continue
        await watcher.watch(table)
        while not snapshots or snapshots[-1]["seq"] != model.seq:
            await asyncio.sleep(0.005)
        view = snapshots[-1]["view"]
        where = f"{preset} {options} hand {model.hand_number} trick {model.trick_number}"
        assert model.trick == view["trick"], where
        assert model.partners == view["partners"], where
        assert (model.hand_number, model.dealer, model.turn) == (view["hand_number"], view["dealer"], view["turn"]), where
        assert model.tricks == view["tricks"] and model.hand_sizes == view["hand_sizes"], where
        assert model.trick_number == view["trick_number"], where
        assert model.bids == view["bids"], where
        assert model.scores in ([], view["scores"]), where     # [] until the first hand is scored
        # the cards played this hand: per seat, in order, and trick by trick
        hand_seen = seen[model.hand_number]
        for seat in range(model.seats):
            assert model.played[seat] == [e["card"] for e in hand_seen if e["seat"] == seat], where
        in_tricks = [c for t in model.played_tricks for c in t["cards"]] + model.trick["cards"]
        assert in_tricks == [{"seat": e["seat"], "card": e["card"]} for e in hand_seen], where
        assert [t["trick"] for t in model.played_tricks] == list(range(1, len(model.played_tricks) + 1)), where
        done = model.played_tricks              # each winner leads the next trick
        assert [t["winner"] for t in done] == [t["leader"] for t in done[1:] + [model.trick]][:len(done)], where
        for t in done:                          # and is the one trick_winner names
            cards = [c["card"] for c in t["cards"]]
            assert t["cards"][trick_winner(cards, model.kind, options.get("joker_deck", "none"))]["seat"] == t["winner"], where
        assert model.history_complete, where
        if preset == "spades" and not options.get("nil_pass"):  # no pass, no center: the hand is what was dealt
            assert sorted(model.hand + model.played[0]) == sorted(dealt), where
        compared += 1
        await player.act(table, bot.choose(legal, model))
    await player.close()
    await watcher.close()
    return compared, model, events, kinds, scored_tricks


@pytest.mark.parametrize("preset,options", RULESETS)
def test_model_from_events_matches_a_snapshot_at_every_turn(server, preset, options):
    compared = run(checked_game(server.url, preset, options))[0]
    assert compared >= 10


def hearts_hand(sides, tricks, options, before):
    """Each side's sheet for a hearts hand, from the tricks taken (docs/RULES.md, the hearts
    preset): a heart +1, the Q of spades +13, the J of diamonds -10 with jack_of_diamonds; a
    side taking every heart and the queen (every trick: the sun, with shoot_the_sun) 0, and
    26 (52) to each other side, or -26 (-52) to itself (subtract; best: when adding would end
    the game with it not alone at the lowest score)."""
    taken = [[c["card"] for t in tricks if t["winner"] in side["seats"] for c in t["cards"]] for side in sides]
    won = [sum(t["winner"] in side["seats"] for t in tricks) for side in sides]
    sheets = [{} for _ in sides]
    for sheet, cards in zip(sheets, taken):
        if options.get("jack_of_diamonds") and "JD" in cards:
            sheet["jack_of_diamonds"] = -10
    shooter = next((i for i, cards in enumerate(taken) if sum(c[1] == "H" for c in cards) == 13 and "QS" in cards), None)
    if shooter is None:
        for sheet, cards in zip(sheets, taken):
            sheet.update({k: v for k, v in (("hearts", sum(c[1] == "H" for c in cards)),
                                            ("queen_of_spades", 13 * ("QS" in cards))) if v})
        return sheets
    moon = 52 if options.get("shoot_the_sun") and won[shooter] == len(tricks) else 26
    subtract = options.get("moon_scoring") == "subtract"
    if options.get("moon_scoring") == "best":
        after = [before[i] + sum(sheets[i].values()) + (0 if i == shooter else moon) for i in range(len(sides))]
        alone = all(after[i] > after[shooter] for i in range(len(sides)) if i != shooter)
        subtract = max(after) >= options.get("target_score", 100) and not alone
    for i, sheet in enumerate(sheets):
        if i == shooter and subtract:
            sheet["moon"] = -moon
        elif i != shooter and not subtract:
            sheet["moon"] = moon
    return sheets


@pytest.mark.parametrize("preset,options", HEARTS)
def test_hearts_game_without_bids_and_the_lowest_score_first(server, preset, options):
    """A whole hearts game, the model checked against a snapshot at each turn: no bid asked
    or made, every card of the deck in play (the lowest cards out at 5 and 6 seats) played
    in each hand, the lowest club leading, each hand's points as the tricks say, and
    game_over's ranks putting the lowest score first, as the model's ranks do."""
    compared, model, events, kinds, scored_tricks = run(checked_game(server.url, preset, options), timeout=240)
    seats = options.get("seats", 4)
    deck = deck_in_play(model.ruleset, seats)
    assert compared >= 10 and kinds <= {"pass", "play"} and "play" in kinds
    assert not [e for e in events if e["type"] in ("bidding_started", "bid_made", "bids_revealed")]
    assert model.bids == [None] * seats and model.kind == "hearts"
    assert len(deck) == 52 - {4: 0, 5: 2, 6: 4}[seats] and len(deck) % seats == 0
    sides = model.partners and sorted({tuple(p) for p in model.partners})
    assert len(sides) == (seats // 2 if options.get("partnership") == "across" else seats)
    scores, hands = [0] * len(sides), 0
    for e in events:
        if e["type"] == "hand_started":
            assert e["kind"] == "hearts" and e["hand_size"] * seats == len(deck) and e["center_size"] == 0
        elif e["type"] == "hand_scored":
            hands += 1
            tricks = scored_tricks[e["hand"]]
            played = [c["card"] for t in tricks for c in t["cards"]]
            assert sorted(played) == sorted(deck), e["hand"]
            assert played[0] == next(c for c in deck if c[1] == "C"), e["hand"]   # 2C, or 3C at 5 seats
            assert [side["seats"] for side in e["sides"]] == [list(s) for s in sides]
            expected = hearts_hand(e["sides"], tricks, options, scores)
            for i, side in enumerate(e["sides"]):
                assert side["bid"] is None, side                  # no bid line (null, PROTOCOL.md §7)
                assert side["score_sheet"] == expected[i], (e["hand"], i, side, expected)
                assert side["hand_total"] == sum(expected[i].values())
                scores[i] += side["hand_total"]
                assert side["score"] == scores[i]
    over = model.game_over
    assert over["type"] == "game_over" and over["hands_played"] == hands and over["scores"] == scores
    assert over["reason"] == "target_score" and max(scores) >= options["target_score"]
    # Points taken: rank 1 is the lowest score (alone: a tie for it plays another hand).
    assert over["ranks"] == ranks_for(model.ruleset, scores) == model.ranks
    assert [s for _, s in sorted(zip(over["ranks"], scores))] == sorted(scores)
    assert over["ranks"].count(1) == 1 and scores[over["ranks"].index(1)] == min(scores)


def test_partners_for_each_kind_of_partnership():
    spades = {"preset": "spades"}
    assert partners_for(spades, 4, 1, 0) == [[0, 2], [1, 3], [0, 2], [1, 3]]
    assert partners_for({"preset": "sparts"}, 4, 1, 0) == [[0], [1], [2], [3]]
    regular = {"preset": "sparts", "options": {"seats": 6, "partners": "regular", "teams": 2}}
    assert partners_for(regular, 6, 1, 0)[1] == [1, 3, 5]
    progressive = {"preset": "spartsel", "options": {"partners": "progressive"}}
    assert partners_for(progressive, 5, 1, 0) == [[0, 2], [1, 3], [2, 4], [0, 3], [1, 4]]
    rotated = {"preset": "spartsel", "options": {"partners": "progressive", "progressive_rotated": True}}
    assert partners_for(rotated, 5, 1, 0) == partners_for(progressive, 5, 1, 0)
    assert partners_for(rotated, 5, 2, 1) == [[0, 3], [1, 4], [0, 2], [1, 3], [2, 4]]
    assert partners_for(rotated, 5, 3, 2) == [[0, 4], [0, 1], [1, 2], [2, 3], [3, 4]]
    assert partners_for(rotated, 5, 4, 3) == partners_for(progressive, 5, 1, 0)
    rotating = {"preset": "spartsel", "options": {"partners": "rotating", "partner_plan": "2,0"}}
    # hand 1, dealer 3: from the dealer's left, seats 4, 0, 1, 2, 3 play in teams 0, 1, 0, 1, 0
    assert partners_for(rotating, 5, 1, 3) == [[0, 2], [1, 3, 4], [0, 2], [1, 3, 4], [1, 3, 4]]
    assert partners_for(rotating, 5, 2, 4) == [[s] for s in range(5)]
    model = TableModel("t1")
    model.you, model.partners = 1, partners_for(spades, 4, 1, 0)
    assert model.partner == 3
    model.partners = partners_for(regular, 6, 1, 0)
    assert model.partner is None, "two partners: see model.partners"


def test_history_of_the_hand_across_taking_the_seat_back(server):
    """play_table run again on the same connection (the events all seen) keeps the hand's
    history; a new connection taking the seat over mid-hand rebuilds the same history from
    its snapshot's past_tricks: every trick done and every card each seat played."""
    async def main():
        client = SpartsClient(server.url, "Back")
        await client.connect()
        seen = []                                # one hand: it waits for seat 0 to go on
        client.on_message.append(lambda m: seen.append({"seat": m["event"]["seat"], "card": m["event"]["card"]})
                                 if m["type"] == "event" and m["event"]["type"] == "card_played" else None)
        table = (await client.create_table("spades", {"hand_cap": 1}, turn_seconds=0))["table"]
        task = asyncio.ensure_future(play_table(client, table, games=None, fill_with_bots=True, leave=False))
        model = client.table(table)

        def stop(m):                             # its turn, a trick under way: the table waits
            if m["type"] == "your_turn" and model.trick_number >= 4 and model.trick["cards"]:
                task.cancel()
        client.on_message.append(stop)
        with pytest.raises(asyncio.CancelledError):
            await task
        await client.sit(table)                  # the seat taken back: a snapshot, nothing missed
        kept = (model.history_complete, [c for t in model.played_tricks for c in t["cards"]] + model.trick["cards"],
                [[c["card"] for c in seen if c["seat"] == s] == model.played[s] for s in range(4)], list(seen),
                [dict(t) for t in model.played_tricks], [list(p) for p in model.played])

        other = SpartsClient(server.url, "Back", token=client.token)
        await other.connect()
        await other.sit(table)                   # on a new connection: the model starts there
        fresh = other.table(table)
        result = (fresh.history_complete, fresh.played_tricks, fresh.played, fresh.trick)
        await other.leave(table)
        await other.close()
        await client.close()
        return kept, result

    (kept_complete, kept_cards, kept_per_seat, seen, kept_tricks, kept_played), (complete, tricks, played, trick) = run(main())
    assert kept_complete and kept_cards == seen and len(seen) >= 13 and all(kept_per_seat)
    assert complete is True and len(tricks) >= 3
    assert tricks == kept_tricks and played == kept_played
    assert [c for t in tricks for c in t["cards"]] + trick["cards"] == seen


def test_deck_in_play_and_ranks():
    assert len(deck_in_play({"preset": "spades"}, 4)) == 52
    assert deck_in_play({"preset": "spades"}, 4)[:2] == ["2C", "3C"]
    jjdd = deck_in_play({"preset": "spades", "options": {"joker_deck": "jjdd"}}, 4)
    assert len(jjdd) == 52 and "2C" not in jjdd and "2H" not in jjdd and {"JK1", "JK2", "2D"} <= set(jjdd)
    assert deck_in_play({"preset": "spartsel", "options": {"jokers": 2}}, 6)[12:15] == ["AC", "JK1", "2D"]
    assert len(deck_in_play({"preset": "spartsel", "options": {"decks": 2}}, 8)) == 104
    hearts = {"preset": "hearts"}
    assert set(deck_in_play({"preset": "hearts", "options": {"seats": 3}}, 3)) == set(deck_in_play(hearts, 4)) - {"2D"}
    assert set(deck_in_play(hearts, 5)) == set(deck_in_play(hearts, 4)) - {"2D", "2C"}
    assert set(deck_in_play(hearts, 6)) == set(deck_in_play(hearts, 4)) - {"3C", "4C", "2D", "3D"}
    assert ranks_for({"preset": "spades"}, [120, 300]) == [2, 1]
    assert ranks_for(hearts, [39, 7, 0, 7]) == [4, 2, 1, 2]
    assert partners_for({"preset": "hearts", "options": {"seats": 6, "partnership": "across"}}, 6, 1, 0) == \
        [[0, 3], [1, 4], [2, 5], [0, 3], [1, 4], [2, 5]]
    assert partners_for(hearts, 4, 1, 0) == [[0], [1], [2], [3]]


def test_trick_winner_reads_jokers_as_the_rules_do():
    assert trick_winner([], "spades") is None
    assert trick_winner(["9H", "KH", "2S", "AH"], "spades") == 2
    assert trick_winner(["9H", "KH", "2S", "AH"], "hearts") == 3
    assert trick_winner(["JK1", "AS", "KS"], "sparts") == 0          # a led Spartsel joker wins
    assert trick_winner(["4D", "JK2", "5D"], "sparts") == 2          # a later one never does
    assert trick_winner(["JK2", "AS", "JK1", "3S"], "spades", "big-little") == 2
    assert trick_winner(["KD", "2D", "AD", "QD"], "spades", "jjdd") == 1   # a spade, not a diamond
    assert trick_winner(["AS", "2S", "KS"], "spades", "deuces-high") == 1
    assert trick_winner(["AS", "2S", "KS"], "spades", "big-little") == 0


def test_a_shot_moon_turns_to_the_shooter_and_the_answer_is_forgotten_once_scored():
    """hearts, moon_scoring "choose": after the last trick_won, moon_shot makes it the
    shooter's turn in the moon_choice phase, the trick number staying the last trick's (as
    the server's view has it); the your_turn's legal is dropped once the hand is scored."""
    model = TableModel("t1")
    model.you = 1
    ruleset = {"preset": "hearts", "options": {"moon_scoring": "choose"}}
    seq = iter(range(1, 100))
    model.apply_event(next(seq), {"type": "game_started", "game": 1, "ruleset": ruleset})
    model.seats = 4
    model.apply_event(next(seq), {"type": "hand_started", "hand": 1, "dealer": 0, "kind": "hearts",
                                  "hand_size": 1, "center_size": 0})
    model.apply_event(next(seq), {"type": "play_started", "leader": 1})
    cards = ["AH", "2H", "3H", "QS"]
    for i, card in enumerate(cards):
        model.apply_event(next(seq), {"type": "card_played", "seat": (1 + i) % 4, "card": card, "trick": 1})
    model.apply_event(next(seq), {"type": "trick_won", "trick": 1, "leader": 1, "winner": 1, "cards": cards})
    assert model.trick_number == 2                     # the trick the winner would lead
    model.apply_event(next(seq), {"type": "moon_shot", "seat": 1, "side": 1, "points": 26})
    assert (model.phase, model.turn, model.trick_number) == ("moon_choice", 1, 1)
    model.legal = {"kind": "moon", "choices": ["add", "subtract"]}   # the your_turn, as the client keeps it
    model.apply_event(next(seq), {"type": "hand_scored", "hand": 1, "kind": "hearts", "sides": [
        {"seats": [s], "bid": None, "tricks": int(s == 1), "nil_bids": 0, "nils_made": 0,
         "score_sheet": {} if s == 1 else {"moon": 26}, "hand_total": 0 if s == 1 else 26,
         "score": 0 if s == 1 else 26, "bags": 0} for s in range(4)]})
    assert model.legal is None and model.turn is None and model.scores == [26, 0, 26, 26]

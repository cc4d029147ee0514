"""RR-12: the end of a hand — going out, the exhausted stock, the sevens-lock ending (RR-12.4)
and the no-legal-discard ending (RR-12.6)."""

from __future__ import annotations

from rr_position import offers, assert_illegal, build, legal_texts, play, points, result

from meldhall.errors import IllegalActionError

ALL_FOUR = ["K K K K K K K", "Q Q Q Q Q Q 2", "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7"]
SEVENS = "7 7 7 7 7 7 7"
KITTY = "AS/0 AH/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1"


def no_going_out_bonus(state) -> None:
    assert state.outcome.went_out is None
    for seat in range(state.players):
        assert points(result(state, seat), "RR-13.4") == 0


def explore(state, path=()):
    """Every sequence of legal actions from ``state`` until the turn or the hand ends: yields
    (actions, final state)."""
    if state.outcome is not None or state.turn != 0 or state.phase == "draw":
        yield path, state
        return
    for a in state.legal_actions():
        yield from explore(state.apply(a), path + (str(a),))


# --------------------------------------------------------------------------- RR-12.2


def test_edge6_declining_the_pile_on_an_empty_stock():
    """RR-12.2, RR-5.4, edge case 6: the stock is empty and the player could take the pile but
    declines: the hand ends immediately, with no going-out bonus."""
    s = build(hands={0: "9 9 K Q", 1: "4 4"}, melds={0: ["9 9 2"]}, pile="4 9", stock="",
              fill=("kitty", 1), phase="draw")
    assert legal_texts(s) == {"take", "take 9 9", "pass"}
    s = play(s, "pass")
    assert s.outcome.how == "stock_exhausted"
    no_going_out_bonus(s)


def test_empty_stock_and_no_take_ends_the_hand_before_the_player_acts():
    """RR-12.2: a player who starts a turn with the stock empty and cannot take the pile does
    not act: the hand ends."""
    s = build(hands={0: "9 K", 1: "4 4 6"}, melds={1: ["5 5 5"]}, pile="8", stock="",
              fill=("kitty", 0), phase="meld", turn=1)
    s = play(s, "discard 6")
    assert s.outcome is not None and s.outcome.how == "stock_exhausted"
    assert s.phase == "hand_end"
    no_going_out_bonus(s)


def test_empty_stock_taking_the_pile_continues_the_hand():
    """RR-12.2: the hand goes on while the player in turn is willing and able to take the pile."""
    s = build(hands={0: "9 9 K Q", 1: "4 4"}, melds={0: ["5 5 5"]}, pile="4 9", stock="",
              fill=("kitty", 1), phase="draw")
    s = play(s, "take 9 9")
    assert s.outcome is None and s.phase == "meld"
    s = play(s, "discard K")  # seat 1 (4 4) cannot take a pile topped by K: the hand ends
    assert s.outcome.how == "stock_exhausted"


# --------------------------------------------------------------------------- RR-12.4


def test_edge7_sevens_lock_ending_new_sevens_meld():
    """RR-12.4, RR-5.7, edge case 7: holding only 7-7 (an opponent lacks a sevens canasta), a
    player who has melded and has no sevens meld draws 7-7: they must meld 7-7-7-7 as a new
    sevens meld (RR-5.7 does not apply), leaving no card, and the hand ends with no discard
    and no going-out bonus."""
    s = build(hands={0: "7 7", 1: "4 4"}, melds={0: ["5 5 5"]}, stock="7 7", phase="draw",
              kitties={1: 11})
    s = play(s, "draw")
    assert legal_texts(s) == {"meld 7 7 7", "meld 7 7 7 7"}
    assert_illegal(s, "discard 7", ("RR-12.4", "RR-9.6"))
    t = play(s, "meld 7 7 7 7")
    assert t.outcome.how == "sevens_lock" and t.hands[0] == 0
    no_going_out_bonus(t)
    for path, end in explore(s):  # whatever the order, every seven is melded
        assert end.outcome is not None and end.outcome.how == "sevens_lock", path
        assert end.hands[0] == 0


def test_edge7_sevens_lock_ending_five_card_sevens_meld():
    """RR-12.4, edge case 7: with an unfinished sevens meld of five cards instead, they must add
    two sevens (completing a sevens canasta) and keep 7-7; the opponent still lacks a sevens
    canasta, so the lock holds, they have no legal discard and the hand ends the same way."""
    s = build(hands={0: "7 7", 1: "4 4"}, melds={0: ["5 5 5", "7 7 7 7 7"]}, stock="7 7",
              phase="draw", kitties={1: 11})
    s = play(s, "draw")
    assert legal_texts(s) == {"add 7 -> 7", "add 7 7 -> 7"}
    for path, end in explore(s):
        assert end.outcome is not None and end.outcome.how == "sevens_lock", path
        assert end.hand_counts(0)[7] == 2 and end.sevens_canastas(0) == 1
        no_going_out_bonus(end)


def test_edge26_lock_lifted_by_the_players_own_melding():
    """RR-12.4, RR-9.6, RR-9.7, edge case 26: every other player has a sevens canasta; a player
    with an unfinished four-card sevens meld, kitty taken, holds 7-7-7-7-7: they must add three
    sevens (completing a sevens canasta, which lifts the lock) and keep 7-7; the hand does not
    end.  They discard one seven and keep the other (they could not go out on it)."""
    s = build(players=3, hands={0: "7 7 7 7 7", 1: "4 4", 2: "4 4"},
              melds={0: ["5 5 5", "7 7 7 7"]}, closed={1: [SEVENS], 2: [SEVENS]},
              kitties={1: 11, 2: 11})
    assert legal_texts(s) == {"add 7 -> 7", "add 7 7 -> 7", "add 7 7 7 -> 7"}
    t = play(s, "add 7 7 7 -> 7")
    assert t.outcome is None and not t.sevens_locked(0)
    assert legal_texts(t) == {"discard 7"}
    t = play(t, "discard 7")
    assert t.outcome is None and t.turn == 1 and t.hand_counts(0)[7] == 1
    for path, end in explore(s):
        assert end.outcome is None and end.turn == 1, path
        assert end.hand_counts(0)[7] == 1 and end.sevens_canastas(0) == 1


def test_edge27_lock_lifted_but_no_legal_discard():
    """RR-12.4, RR-9.7, RR-5.7, edge case 27: as in case 26 but the hand is 7-7-7 with a
    five-card sevens meld: they add two sevens and keep one; with the kitty taken that seven
    can be neither a going-out discard nor a discard that empties the hand: the hand ends
    with no discard and no going-out bonus."""
    s = build(players=3, hands={0: "7 7 7", 1: "4 4", 2: "4 4"},
              melds={0: ["5 5 5", "7 7 7 7 7"]}, closed={0: ALL_FOUR[:3], 1: [SEVENS],
                                                    2: [SEVENS]},
              kitties={1: 11, 2: 11})
    for path, end in explore(s):
        assert end.outcome is not None and end.outcome.how == "sevens_lock", path
        assert end.hand_counts(0)[7] == 1
        no_going_out_bonus(end)


def test_edge27_with_the_kitty_untaken():
    """RR-12.4, RR-5.7(b), RR-10.5, edge case 27: with the kitty still untaken they instead
    discard the seven and take the kitty."""
    s = build(players=3, hands={0: "7 7 7", 1: "4 4", 2: "4 4"},
              melds={0: ["5 5 5", "7 7 7 7 7"]}, closed={1: [SEVENS], 2: [SEVENS]},
              kitties={0: KITTY, 1: 11, 2: 11})
    s = play(s, "add 7 7 -> 7")
    assert legal_texts(s) == {"discard 7"}
    s = play(s, "discard 7")
    assert s.outcome is None and s.turn == 1
    assert (s.kitty_taken >> 0) & 1 and s.hands[0].bit_count() == 11


def test_edge28_sevens_lock_before_the_initial_melding():
    """RR-12.4, RR-7.1, edge case 28: a player who has not melded this hand (minimum 50) holds
    7-7-7-7-7 under the lock: the 25 points cannot meet the minimum, so nothing may be melded,
    there is no legal discard, and the hand ends."""
    s = build(hands={0: "7 7 7", 1: "4 4"}, stock="7 7", phase="draw", kitties={0: 11, 1: 11})
    s = play(s, "draw")
    assert s.outcome is not None and s.outcome.how == "sevens_lock"
    assert s.hand_counts(0)[7] == 5
    no_going_out_bonus(s)


def test_sevens_lock_initial_melding_at_a_negative_score():
    """RR-12.4, RR-7.1: the forced melding obeys the minimum: at a negative score (minimum 15)
    the player must meld the sevens."""
    s = build(hands={0: "7 7 7", 1: "4 4"}, stock="7 7", phase="draw", kitties={0: 11, 1: 11},
              scores=[-10, 0])
    s = play(s, "draw")
    assert s.outcome is None
    # RR-6.11: a player who has not melded stages the forced sevens melding and commits it
    assert legal_texts(s) == {"stage 7 7 7", "stage 7 7 7 7", "stage 7 7 7 7 7"}
    t = play(s, "stage 7 7 7 7")
    assert legal_texts(t) == {"meld done"}, "RR-12.4: made at once, no withdrawal"
    assert offers(s, "meld 7 7 7 7 7")


def test_edge34_forced_sevens_melding_lock_holds():
    """RR-12.4, edge case 34: under the lock, a player who has melded, has no sevens meld and
    whose kitty is taken holds nine sevens: the only legal actions are sevens melds of three
    to seven cards; in any order they end with a sevens canasta and two sevens in hand; an
    opponent still lacks a sevens canasta, so no further meld is possible, no seven may be
    discarded, and the hand ends."""
    s = build(hands={0: "7 7 7 7 7 7 7 7 7", 1: "4 4"}, melds={0: ["5 5 5"]}, kitties={1: 11})
    assert legal_texts(s) == {"meld " + " ".join(["7"] * k) for k in range(3, 8)}
    for path, end in explore(s):
        assert end.outcome is not None and end.outcome.how == "sevens_lock", path
        assert end.hand_counts(0)[7] == 2 and end.sevens_canastas(0) == 1
        no_going_out_bonus(end)


def test_edge34_forced_sevens_melding_last_canasta_lifts_the_lock():
    """RR-12.4, RR-9.6, edge case 34: if that canasta was the last one missing, the lock lifts
    when it is completed and the player discards one seven and keeps the other."""
    s = build(players=3, hands={0: "7 7 7 7 7 7 7 7 7", 1: "4 4", 2: "4 4"},
              melds={0: ["5 5 5"]}, closed={1: [SEVENS], 2: [SEVENS]}, kitties={1: 11, 2: 11})
    assert legal_texts(s) == {"meld " + " ".join(["7"] * k) for k in range(3, 8)}
    for path, end in explore(s):
        assert end.outcome is None and end.turn == 1, path
        assert path[-1] == "discard 7"
        assert end.hand_counts(0)[7] == 1 and end.sevens_canastas(0) == 1


def test_forced_sevens_melding_refuses_other_actions():
    """RR-12.4: while the lock forces it, only meld actions that meld sevens are legal."""
    s = build(hands={0: "7 7 7 7", 1: "4 4"}, melds={0: ["5 5 5"]}, kitties={1: 11})
    assert_illegal(s, "discard 7", ("RR-12.4", "RR-9.6"))
    assert_illegal(s, "pass", ("RR-12.4", "RR-5.2"))


def test_sevens_lock_cannot_be_chosen():
    """RR-12.5, RR-5.8: a player holding a card they may discard cannot meld into a hand of only
    sevens."""
    s = build(hands={0: "7 7 K K K", 1: "4 4"}, melds={0: ["5 5 5"]}, kitties={1: 11})
    assert_illegal(s, "meld K K K", "RR-5.8")


# --------------------------------------------------------------------------- RR-12.6


def test_edge33_last_stock_cards_all_red_threes():
    """RR-5.3, RR-12.6, RR-13.4, edge case 33: a player holding only Q, who does not meet RR-11.1
    and whose kitty is taken, draws from a stock holding only 3♥: the 3♥ is placed and not
    replaced, the player still holds only Q, may neither meld nor discard it, and the hand
    ends at once with no going-out bonus."""
    s = build(hands={0: "Q", 1: "4 4"}, melds={0: ["5 5 5"]}, stock="3H", fill=("kitty", 1),
              phase="draw")
    s = play(s, "draw")
    assert s.red3[0].bit_count() == 1 and s.hand_counts(0)[12] == 1
    assert s.outcome is not None and s.outcome.how == "no_legal_discard"
    no_going_out_bonus(s)
    assert points(result(s, 0), "RR-13.3") == 100


def test_edge33_kitty_eligible_variant():
    """RR-5.7(b), RR-10.5, edge case 33: were the player kitty-eligible with the kitty untaken,
    they would discard Q and take the kitty."""
    s = build(hands={0: "Q", 1: "4 4"}, closed={0: ["K K K K K K K"]}, stock="3H",
              fill=("kitty", 1), phase="draw", kitties={0: KITTY})
    s = play(s, "draw")
    assert s.outcome is None and legal_texts(s) == {"discard Q"}
    s = play(s, "discard Q")
    assert s.turn == 1 and s.hands[0].bit_count() == 11


def test_edge33_meeting_rr11_variant():
    """RR-11.2, edge case 33: were the player to meet RR-11.1, they could go out by discarding
    Q."""
    s = build(hands={0: "Q", 1: "4 4"}, closed={0: ALL_FOUR}, stock="3H", fill=("kitty", 1),
              phase="draw")
    s = play(s, "draw", "discard Q")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0
    assert points(result(s, 0), "RR-13.4") == 100


# --------------------------------------------------------------------------- option


def test_option_stock_end_take_compulsory():
    """RR-12.2 option stock_end_take = "compulsory": on an empty stock the player must take the
    pile when its top card can be added to one of their unfinished melds (RR-8.5); otherwise
    declining still ends the hand."""
    s = build(hands={0: "9 9 K Q", 1: "4 4"}, melds={0: ["9 9 2"]}, pile="4 9", stock="",
              fill=("kitty", 1), phase="draw", options={"stock_end_take": "compulsory"})
    assert "pass" not in legal_texts(s)
    assert_illegal(s, "pass", "RR-12.2")
    # a pair take only (no unfinished meld of the rank): declining is allowed
    t = build(hands={0: "9 9 K Q", 1: "4 4"}, melds={0: ["5 5 5"]}, pile="4 9", stock="",
              fill=("kitty", 1), phase="draw", options={"stock_end_take": "compulsory"})
    assert legal_texts(t) == {"take 9 9", "pass"}
    # the default: voluntary
    u = build(hands={0: "9 9 K Q", 1: "4 4"}, melds={0: ["9 9 2"]}, pile="4 9", stock="",
              fill=("kitty", 1), phase="draw")
    assert "pass" in legal_texts(u)


def test_no_action_after_the_hand_but_deal():
    """RR-12.1, RR-4.1: once the hand is over only 'deal' is accepted."""
    s = build(hands={0: "9 9 9 5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={1: 11})
    s = play(s, "meld 9 9 9", "discard 5")
    assert s.to_act == (0,) and legal_texts(s) == {"deal"}  # dealer 1; seat 0 deals next
    for text in ("draw", "discard 4", "pass", "kitty"):
        try:
            s.apply_text(text)
        except IllegalActionError as exc:
            assert exc.rule_id == "RR-4.1"
        else:
            raise AssertionError(f"{text} accepted after the hand")

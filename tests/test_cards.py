"""Card notation of every card :func:`meldhall.cards.parse_card` returns."""

from meldhall.cards import Card, Pack, parse_card


def test_bare_rank_is_written_without_a_suit():
    # parse_card(..., suit_required=False) returns a card without a suit for a bare rank;
    # its notation used to raise TypeError (the suit indexed the suit names as None)
    card = parse_card("7", suit_required=False)
    assert card.suit is None
    assert str(card) == "7"
    assert card.pretty == "7"
    assert str(parse_card("10", suit_required=False)) == "10"
    assert str(parse_card("JK", suit_required=False)) == "JK"


def test_notation_of_suited_cards_and_jokers_unchanged():
    pack = Pack.get(2, 4)
    assert [str(c) for c in pack.cards[:3]] == ["AS", "2S", "3S"]
    assert str(pack.cards[-1]) == "JK" and pack.cards[-1].pretty == "Jk"
    assert Card(10, 1).pretty == "10♥"
    assert repr(parse_card("7H/1")) == "Card.parse('7H/1')"


def test_copy_key4_is_copy_key_from_of_four_parts():
    # the written-out key of the engines' copy choices equals the general one
    import random

    from meldhall.cards import copy_key, copy_key4, copy_key_from, hand_key

    rng = random.Random(5)
    for _ in range(2000):
        h = rng.getrandbits(64)
        parts = [rng.randrange(300) for _ in range(4)]
        assert copy_key4(h, *parts) == copy_key_from(h, *parts)
    assert copy_key4(hand_key(7, 2), 11, 4, 40, 3) == copy_key(7, 2, 11, 4, 40, 3)

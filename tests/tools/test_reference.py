"""kosolve.tools.reference on small endings worked out by hand.

A trick of cards a and b is worth 3 * (v(a) + v(b)) - 4 thirds to its winner.
Values are the declarer's future thirds.
"""

from __future__ import annotations

import pytest

from kosolve.tools.reference import ReferenceInputError, reference_move_values, reference_value


def test_one_trick_follow_suit() -> None:
    # Forehand leads S7, the dealer must follow with SK and wins 3 * (1 + 5) - 4 = 14.
    assert reference_value(["S7"], ["SK"], leader="forehand", declarer="dealer") == 14
    assert reference_value(["S7"], ["SK"], leader="forehand", declarer="forehand") == 0


def test_one_trick_skus_beats_pagat_mid_trick() -> None:
    # The forehand has led the I; the dealer's Sk takes it: 3 * (5 + 5) - 4 = 26.
    assert reference_value([], ["Sk"], leader="forehand", declarer="dealer", led="I") == 26
    assert reference_move_values([], ["Sk"], leader="forehand", declarer="forehand", led="I") == {"Sk": 0}


def test_spade_king_is_no_tarock() -> None:
    # The dealer holds the spade king, not the Sküs: he is void of tarocks and
    # discards, and both tricks go to the forehand: all 3 * 8 - 8 = 16 thirds.
    assert reference_value(["XX", "XVII"], ["H1", "SK"], leader="forehand", declarer="forehand") == 16


def test_two_tricks_lead_the_king_first() -> None:
    # Forehand (declarer) HK H4, dealer HQ I.
    #   HK: the dealer must follow with HQ, forehand takes 3 * 9 - 4 = 23; then
    #       H4 loses to the I.  23.
    #   H4: the dealer must follow with HQ and takes the trick, then leads the
    #       I, which the HK cannot stop.  0.
    moves = reference_move_values(["HK", "H4"], ["HQ", "I"], leader="forehand", declarer="forehand")
    assert moves == {"HK": 23, "H4": 0}
    assert reference_value(["HK", "H4"], ["HQ", "I"], leader="forehand", declarer="forehand") == 23


def test_two_tricks_draw_the_tarock_first() -> None:
    # Forehand (declarer) HK II, dealer I S7.
    #   HK: the dealer is void in hearts and must trump with the I: he takes
    #       3 * 10 - 4 = 26; he leads S7 and the forehand must trump with the II,
    #       taking 3 * 2 - 4 = 2.  2.
    #   II: the dealer must follow with the I, which loses: 3 * 6 - 4 = 14; then
    #       HK, the dealer discards S7: another 14.  28.
    moves = reference_move_values(["HK", "II"], ["I", "S7"], leader="forehand", declarer="forehand")
    assert moves == {"HK": 2, "II": 28}


def test_two_tricks_defender_discards_the_cheap_card() -> None:
    # Forehand (declarer) S7 H4, dealer HK H1, neither holds a tarock.
    #   S7: the dealer is void in spades and tarocks; he throws H1 (forehand
    #       takes 3 * 2 - 4 = 2, not 14 for HK), then takes H4 with HK.  2.
    #   H4: the dealer follows with a heart and wins, then leads the other
    #       heart; the forehand has only S7 to throw.  0.
    moves = reference_move_values(["S7", "H4"], ["HK", "H1"], leader="forehand", declarer="forehand")
    assert moves == {"S7": 2, "H4": 0}


def test_mid_trick_declarer_discards_to_save_his_king() -> None:
    # The forehand has led CQ and holds SQ; the dealer (declarer) holds HK SK
    # and can neither follow nor trump.
    #   HK thrown: the forehand takes CQ HK; then SQ led, SK takes it:
    #              3 * 9 - 4 = 23.
    #   SK thrown: the forehand takes CQ SK; then SQ led, the HK is thrown.  0.
    moves = reference_move_values(["SQ"], ["HK", "SK"], leader="forehand", declarer="dealer", led="CQ")
    assert moves == {"HK": 23, "SK": 0}
    assert reference_value(["SQ"], ["HK", "SK"], leader="forehand", declarer="dealer", led="CQ") == 23


def test_three_tricks() -> None:
    # Forehand (declarer) SK S7 V, dealer SQ XX H4.
    #   SK: SQ must follow, forehand takes 3 * 9 - 4 = 23.  Then
    #       S7: the dealer trumps with XX (2 to him) and leads H4, which the
    #           forehand must trump with V: 2.  23 + 2 = 25.
    #       V:  XX takes it, then H4 is led and the forehand throws S7.  23.
    #       So 25.
    #   S7: SQ takes it (3 * 5 - 4 = 11 to the dealer), then XX draws the V and
    #       H4 is led, the forehand must throw SK.  0.
    #   V:  XX takes it (2 to the dealer), who then chooses:
    #       SQ: SK takes 23, then S7 against H4: the forehand takes 2.  25.
    #       H4: the forehand throws S7 (2 to the dealer), then SK takes SQ: 23.
    #       The dealer leads H4: 23.
    moves = reference_move_values(["SK", "S7", "V"], ["SQ", "XX", "H4"], leader="forehand", declarer="forehand")
    assert moves == {"SK": 25, "S7": 0, "V": 23}
    assert reference_value(["SK", "S7", "V"], ["SQ", "XX", "H4"], leader="forehand", declarer="forehand") == 25


def test_the_defender_leads() -> None:
    # The cards of test_three_tricks, the dealer leading, the forehand declaring.
    #   SQ: the forehand follows with SK and takes 23 (ducking with S7 gives the
    #       dealer the trick and then XX draws V and H4 drives out SK: 0).  He
    #       leads S7: XX trumps it, H4 is led and V must trump: 2.  (V instead:
    #       XX takes it and the S7 goes on H4: 0.)  25.
    #   XX: the forehand must follow with V and loses it (2 to the dealer).
    #       SQ led: SK takes 23, then H4 is thrown on S7: 2 more.  25.
    #       H4 led: the forehand throws S7, then SK takes SQ: 23.
    #       The dealer leads H4: 23.
    #   H4: the forehand must trump with V: 2.  He leads SK, SQ must follow:
    #       23 more, then XX trumps S7: 25.  (S7 instead: SQ takes it and XX
    #       drives out SK: 2.)  25.
    # The dealer's best lead is XX: 23.
    moves = reference_move_values(["SK", "S7", "V"], ["SQ", "XX", "H4"], leader="dealer", declarer="forehand")
    assert moves == {"SQ": 25, "XX": 23, "H4": 25}
    assert reference_value(["SK", "S7", "V"], ["SQ", "XX", "H4"], leader="dealer", declarer="forehand") == 23


def test_no_cards_left() -> None:
    assert reference_value([], [], leader="dealer", declarer="forehand") == 0


@pytest.mark.parametrize(
    ("forehand", "dealer", "led"),
    [
        pytest.param(["HK"], ["HK"], None, id="a card in both hands"),
        pytest.param(["HK", "H4"], ["HQ"], None, id="uneven hands at a trick boundary"),
        pytest.param(["HK"], ["HQ"], "H4", id="the leader holds as many cards after leading"),
        pytest.param(["HK"], ["HQ", "H1"], "HK", id="the led card still in a hand"),
        pytest.param(["H10"], ["HQ"], None, id="no such card"),
        pytest.param(["sk"], ["HQ"], None, id="names must be canonical"),
    ],
)
def test_bad_positions_are_refused(forehand: list[str], dealer: list[str], led: str | None) -> None:
    with pytest.raises(ReferenceInputError):
        reference_value(forehand, dealer, leader="forehand", declarer="forehand", led=led)


def test_bad_seats_are_refused() -> None:
    with pytest.raises(ReferenceInputError):
        reference_value(["HK"], ["HQ"], leader="north", declarer="forehand")

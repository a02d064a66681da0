"""Fights as absorbing Markov chains: hand-worked chains, forward against backward, a seeded simulation."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from twisty.rules.tunnels import Delver, FightChain, FightRules, Monster, fight, fight_by_rating, saving_roll_success

# One die against one die: each side wins 15/36, 6/36 indecisive, so a Clash lasts 6/5 Clashes on average
# until it is decisive and then each side wins it with 1/2, dealing exactly 1 wound.
DECISIVE_WAIT = Fraction(6, 5)


def test_one_die_each_by_hand():
    # Start (Con 1): win 1/2, else Con 0. Con 0: win 1/2, else the next hit takes the die and the delver
    # reels. With no dice the monster wins every Clash, so the delver then makes the Saving Roll (9, Luck 5).
    odds = fight(Delver(combat=1, constitution=1, luck=5), Monster(rating=1, dice=1))
    saved = Fraction(17, 18)
    assert (odds.win, odds.disabled, odds.perished) == (Fraction(3, 4), saved / 4, (1 - saved) / 4)
    assert odds.expected_clashes == DECISIVE_WAIT + DECISIVE_WAIT / 2 + Fraction(1, 4)
    assert odds.constitution == {1: Fraction(1, 2), 0: Fraction(1, 2)}


def test_armour_points_are_spent_by_hand():
    # The first lost Clash only spends the armour point, so the delver must lose three times to reel.
    odds = fight(Delver(combat=1, constitution=1, luck=5, armour=1), Monster(rating=1, dice=1))
    assert odds.win == Fraction(7, 8)
    assert odds.disabled == Fraction(1, 8) * Fraction(17, 18)
    assert odds.expected_clashes == DECISIVE_WAIT * (1 + Fraction(1, 2) + Fraction(1, 4)) + Fraction(1, 8)
    assert odds.constitution == {1: Fraction(3, 4), 0: Fraction(1, 4)}


def test_kept_armour_adds_to_the_saving_roll():
    kept = fight(
        Delver(combat=1, constitution=1, luck=3, armour=2), Monster(rating=1, dice=1), FightRules(armour_use="keep")
    )
    lucky = fight(Delver(combat=1, constitution=1, luck=5), Monster(rating=1, dice=1))
    assert (kept.win, kept.disabled, kept.perished) == (lucky.win, lucky.disabled, lucky.perished)


def test_flat_footed_delver_loses_the_first_clash_by_hand():
    # Luck 0 without dice scores 0; the monster's die always beats it for 1 wound: Con 1 -> 0 in one Clash.
    odds = fight(Delver(combat=1, constitution=1, luck=0), Monster(rating=1, dice=1), FightRules(flat_footed="delver"))
    assert odds.win == Fraction(1, 2)
    assert odds.disabled == Fraction(1, 2) * saving_roll_success(9, 0)
    assert odds.expected_clashes == 1 + DECISIVE_WAIT + Fraction(1, 2)


def test_flat_footed_monster_can_only_escape_the_first_clash():
    # Monster Luck 6 against one die always wins the first Clash (a 6 ties and it rolled fewer dice), but
    # a flat-footed winner deals no wound: the fight then goes on as the plain one, one Clash later.
    surprised = fight(
        Delver(combat=1, constitution=1, luck=5), Monster(rating=1, dice=1, luck=6), FightRules(flat_footed="monster")
    )
    plain = fight(Delver(combat=1, constitution=1, luck=5), Monster(rating=1, dice=1))
    assert (surprised.win, surprised.perished) == (plain.win, plain.perished)
    assert surprised.expected_clashes == plain.expected_clashes + 1


@pytest.mark.parametrize(
    "delver,monster,rules",
    [
        (Delver(2, 3, luck=3, armour=1), Monster(4, 2, armour=1), FightRules()),
        (
            Delver(3, 4, luck=2, armour=2, shield=True),
            Monster(6, 3),
            FightRules(upper_hand="monster", flat_footed="delver"),
        ),
        (Delver(2, 2, luck=4, armour=2), Monster(5, 2), FightRules(difficulty=12, armour_use="keep")),
    ],
)
def test_forward_and_backward_agree(delver, monster, rules):
    forward = fight(delver, monster, rules)
    chain = FightChain(delver, monster, rules)
    backward = chain.backward([chain.start()])[chain.start()]
    assert (forward.win, forward.disabled, forward.perished, forward.expected_clashes) == (
        backward.win,
        backward.disabled,
        backward.perished,
        backward.expected_clashes,
    )
    assert forward.win + forward.disabled + forward.perished == 1
    assert sum(forward.constitution.values()) == 1


def test_by_rating_matches_one_fight_per_rating():
    delver = Delver(2, 3, luck=3, armour=1)
    table = fight_by_rating(delver, 2, range(1, 7))
    for rating, odds in table.items():
        single = fight(delver, Monster(rating, 2))
        assert (odds.win, odds.perished, odds.expected_clashes) == (
            single.win,
            single.perished,
            single.expected_clashes,
        )
    assert all(table[r].win > table[r + 1].win for r in range(1, 6))


def _roll(rng: random.Random, dice: int) -> tuple[int, int]:
    faces = [rng.randint(1, 6) for _ in range(dice)]
    best, used = 0, 0
    for face in set(faces):
        total = face * faces.count(face)
        if total > best or (total == best and faces.count(face) < used):
            best, used = total, faces.count(face)
    return best, dice - used


def _simulate(
    rng: random.Random, delver: Delver, monster: Monster, difficulty: int, monster_upper_hand: bool
) -> tuple[str, int]:
    """One fight, Clash by Clash, with armour spent as wounds come."""
    con, armour, dice, reeling = delver.constitution, delver.armour, delver.combat, False
    rating, monster_armour = monster.rating, monster.armour
    monster_dice = monster.dice + (1 if monster_upper_hand else 0)
    clashes = 0
    while True:
        clashes += 1
        (score_d, hits_d), (score_m, hits_m) = _roll(rng, dice), _roll(rng, monster_dice)
        mine = (score_d, hits_d, -dice)
        theirs = (score_m, hits_m, -monster_dice)
        if mine == theirs:
            continue
        if mine > theirs:
            wounds = max(1, hits_d - hits_m)
            soaked = min(monster_armour, wounds)
            monster_armour -= soaked
            rating -= wounds - soaked
            if rating <= 0:
                return "won", clashes
            continue
        wounds = max(1, hits_m - hits_d)
        soaked = min(armour, wounds)
        armour -= soaked
        wounds -= soaked
        if not wounds:
            continue
        if reeling:
            first, second = rng.randint(1, 6), rng.randint(1, 6)
            if {first, second} == {1, 2}:
                return "perished", clashes
            total = first + second
            while first == second:
                first, second = rng.randint(1, 6), rng.randint(1, 6)
                total += first + second
            return ("disabled" if total + delver.luck + armour >= difficulty else "perished"), clashes
        if con > 0:
            con = max(0, con - wounds)
        else:
            dice, reeling = max(0, dice - wounds), True


def test_matches_seeded_simulation():
    delver, monster = Delver(combat=2, constitution=3, luck=3, armour=1), Monster(rating=4, dice=2, armour=1)
    odds = fight(delver, monster, FightRules(upper_hand="monster"))
    rng = random.Random(6)
    trials = 20_000
    results = [_simulate(rng, delver, monster, 9, True) for _ in range(trials)]
    for kind, p in (("won", odds.win), ("disabled", odds.disabled), ("perished", odds.perished)):
        seen = sum(1 for outcome, _ in results if outcome == kind) / trials
        sigma = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(seen - float(p)) <= 5 * sigma + 1 / trials, kind
    lengths = [clashes for _, clashes in results]
    mean = sum(lengths) / trials
    spread = (sum((x - mean) ** 2 for x in lengths) / (trials - 1) / trials) ** 0.5
    assert abs(mean - float(odds.expected_clashes)) <= 5 * spread


def test_bad_fighters_are_refused():
    with pytest.raises(ValueError):
        fight(Delver(2, 3), Monster(rating=0, dice=2))
    with pytest.raises(ValueError):
        fight(Delver(2, 3), Monster(rating=3, dice=0))


@pytest.mark.parametrize("dice,armour", [(2, 0), (3, 2)])
def test_symmetric_race_is_even(dice, armour):
    # Equal dice make every Clash symmetric, so the first side to take 8 wounds is a coin flip: the
    # monster (rating 8) falls before the delver's armour and Constitution (8 in all) are gone with
    # probability exactly 1/2, which is P(the delver wins with Constitution left).
    odds = fight(Delver(combat=dice, constitution=8 - armour, luck=3, armour=armour), Monster(8, dice))
    assert sum(p for con, p in odds.constitution.items() if con > 0) == Fraction(1, 2)

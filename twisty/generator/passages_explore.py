"""A fast exact explorer of a passages level, for the generator's inner repair loop.

The generator asks the same questions many times while it reshapes a draft (what is the smallest starting
life, which signatures win), so it needs answers in milliseconds. This explorer works on the region graph
with bitmasks: a consumed set of blockers fixes the reachable areas, hence the items taken, the player's
atk, def and keys; only life depends on the order of fights. It is not a verdict: every level the generator
keeps is verified afterwards by a proper engine (twisty.solver) and its route replayed by the plain rules.

Work is bounded by counts of explored states, never by time, so that the generator is reproducible on any
machine: `TooMuchWork` is raised when a draft is too loose to explore within the budget. The level's
`Deadline`, when one is given, is polled as the work grows; a passed deadline raises `LimitReached`, which
ends the whole level (unlike TooMuchWork, which only drops the draft).

The rules are not written again here: what a blocker costs and whether it can be consumed is
`blocker_cost`, what it takes from the player `pay_for`, what items give `apply_item`, and what a fight
adds to a solution's signature `signature_entry` (all twisty.rules.passages). Only the bookkeeping is the
explorer's own: a consumed set of blockers as a bitmask, and the items of whole areas taken together.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import NamedTuple

from twisty.limits import Deadline
from twisty.rules.passages import (
    Decision,
    PassagesLevel,
    Stats,
    apply_item,
    blocker_cost,
    fight_damage,
    pay_for,
    signature_entry,
)
from twisty.rules.passages_graph import build_graph

# A fight in a signature: the rules' signature_entry (enemy, player atk, player def at the fight), with the
# enemy given by its blocker number instead of its object index (the two orders agree).
Fight = tuple[int, int, int]
# Units of work (moves generated) between two looks at the deadline: a look costs a clock read.
DEADLINE_POLL_EVERY = 2048
# Stands for a question not asked yet in the explorer's memory of the rules' answers (compared by identity).
UNASKED: tuple[int, int, None] = (-1, -1, None)


class TooMuchWork(Exception):
    """The state budget ran out: the draft is too loose to be explored cheaply."""


@dataclass(frozen=True)
class MaskInfo:
    """What a consumed set of blockers gives the player: items of every reachable area, less the keys of
    the doors opened. Life is not here: it depends on the order of the fights."""

    frontier: tuple[int, ...]  # unconsumed blockers next to the reachable part
    goal: int | None  # a reachable goal's index, if any
    atk: int
    defense: int
    keys_left: int
    elixirs: int  # life from every elixir taken so far
    areas: int  # bitmask of the reachable areas


@dataclass(frozen=True)
class Win:
    final_hp: int
    decisions: tuple[Decision, ...]
    fights: frozenset[Fight]  # costly fights only (the signature's fights)
    doors: int  # bitmask of doors opened


class Transition(NamedTuple):
    """One move: a tuple rather than a frozen dataclass because the explorer makes millions of them."""

    blocker: int
    cost: int
    mask: int
    hp: int
    fight: Fight | None  # what the move adds to a signature (signature_entry), None for most moves


class Explorer:
    def __init__(self, level: PassagesLevel, budget: int = 200_000, deadline: Deadline | None = None) -> None:
        self.level = level
        self.graph = build_graph(level)
        self.budget = budget
        self.work = 0
        self.deadline = deadline
        self._next_poll = DEADLINE_POLL_EVERY
        graph = self.graph
        self.objects = graph.blockers
        self.number = graph.blocker_of_object
        # What the items of each area give together ("Taking an item never hurts", so an area's items are
        # taken at once); hp is the life of its elixirs.
        self.area_gains = tuple(self.items_gain(area.items) for area in graph.areas)
        self.is_door = tuple(level.things[obj].kind == "door" for obj in self.objects)
        self.enemies = tuple(level.things[obj].enemy for obj in self.objects)
        self.door_bits = sum(1 << b for b, door in enumerate(self.is_door) if door)
        self._info: dict[int, MaskInfo] = {}
        self._damage: dict[tuple[int, int, int], int | None] = {}
        # (blocker, hp, atk, def, keys) -> consumption(), remembered.
        self._costs: dict[tuple[int, int, int, int, int], tuple[int, int, Fight | None] | None] = {}
        self._every_item: Stats | None = None
        self._best_stats: tuple[int, int] | None = None
        self._reach_without: dict[int, int] = {}

    # ------------------------------------------------------------------------------------------ basics

    def items_gain(self, items: tuple[int, ...]) -> Stats:
        """What taking `items` gives, by the rules' apply_item (hp: the life of the elixirs)."""
        gain = Stats(hp=0)
        for item in items:
            gain = apply_item(self.level.things[item], gain)
        return gain

    def spend(self, amount: int = 1) -> None:
        self.work += amount
        if self.work > self.budget:
            raise TooMuchWork
        if self.deadline is not None and self.work >= self._next_poll:
            self._next_poll = self.work + DEADLINE_POLL_EVERY
            self.deadline.check()

    def info(self, mask: int) -> MaskInfo:
        known = self._info.get(mask)
        if known is not None:
            return known
        graph = self.graph
        areas = {graph.start_area}
        reached_blockers: set[int] = set()
        frontier: set[int] = set()
        goals: set[int] = set()
        stack: list[tuple[bool, int]] = [(True, graph.start_area)]
        while stack:
            is_area, node = stack.pop()
            if is_area:
                goals.update(graph.area_goals[node])
                touching = graph.area_blockers[node]
            else:
                goals.update(graph.blocker_goals[node])
                for area in graph.blocker_areas[node]:
                    if area not in areas:
                        areas.add(area)
                        stack.append((True, area))
                touching = graph.blocker_blockers[node]
            for b in touching:
                if mask >> b & 1:
                    if b not in reached_blockers:
                        reached_blockers.add(b)
                        stack.append((False, b))
                else:
                    frontier.add(b)
        player = self.level.player
        atk, defense, keys, elixirs = player.atk, player.defense, player.keys, 0
        for area in areas:
            gain = self.area_gains[area]
            atk += gain.atk
            defense += gain.defense
            keys += gain.keys
            elixirs += gain.hp
        stats = Stats(elixirs, atk, defense, keys)
        opened = mask & self.door_bits
        while opened:
            door = opened & -opened
            opened ^= door
            stats = pay_for(self.level.things[self.objects[door.bit_length() - 1]], stats, 0)
        result = MaskInfo(
            tuple(sorted(frontier)),
            min(goals) if goals else None,
            stats.atk,
            stats.defense,
            stats.keys,
            elixirs,
            sum(1 << area for area in areas),
        )
        self._info[mask] = result
        return result

    def damage(self, b: int, atk: int, defense: int) -> int | None:
        key = (b, atk, defense)
        if key not in self._damage:
            enemy = self.enemies[b]
            assert enemy is not None
            self._damage[key] = fight_damage(enemy, atk, defense)
        return self._damage[key]

    def stats(self, mask: int, hp: int) -> Stats:
        """The player after consuming the blockers of `mask`, with `hp` life."""
        here = self.info(mask)
        return Stats(hp, here.atk, here.defense, here.keys_left)

    def moves(self, mask: int, hp: int) -> list[Transition]:
        """Every legal consumption from (mask, hp), in blocker order: each blocker of the frontier that
        blocker_cost allows, paid for by pay_for, then the items of the areas it opens."""
        here = self.info(mask)
        costs = self._costs
        result = []
        for b in here.frontier:
            # The rules' answers depend on nothing else, and the same questions come back many times.
            key = (b, hp, here.atk, here.defense, here.keys_left)
            known = costs.get(key, UNASKED)
            if known is UNASKED:
                known = costs[key] = self.consumption(b, Stats(hp, here.atk, here.defense, here.keys_left))
            if known is None:
                continue
            cost, paid_hp, fight = known
            after = mask | 1 << b
            result.append(Transition(b, cost, after, paid_hp + self.info(after).elixirs - here.elixirs, fight))
        self.spend(len(result) + 1)
        return result

    def consumption(self, b: int, player: Stats) -> tuple[int, int, Fight | None] | None:
        """What the rules say of `player` consuming blocker `b`: None when blocker_cost forbids it, else its
        cost, the life left after pay_for, and what it adds to a signature (signature_entry; None for a
        door or a fight that costs nothing)."""
        obj = self.objects[b]
        cost = blocker_cost(self.level, obj, player)
        if cost is None:
            return None
        entry = signature_entry(self.level, obj, player, cost)
        fight = None if entry is None else (b, entry[1], entry[2])
        return cost, pay_for(self.level.things[obj], player, cost).hp, fight

    def decision(self, b: int) -> Decision:
        return ("open" if self.is_door[b] else "fight", self.objects[b])

    def start_hp(self, start_hp: int) -> int:
        return start_hp + self.info(0).elixirs

    # ------------------------------------------------------------------------------------ questions

    def sure_closure(self, mask: int, hp: int) -> tuple[int, int, tuple[int, ...]]:
        """Take, one after the other, every fight that cannot be wrong for the best life (`sure_gain`).
        Used for the best life and for solvability only: it changes which signatures are seen."""
        taken: list[int] = []
        while True:
            move = next((m for m in self.moves(mask, hp) if self.sure_gain(mask, m)), None)
            if move is None:
                return mask, hp, tuple(taken)
            mask, hp = move.mask, move.hp
            taken.append(move.blocker)

    def sure_gain(self, mask: int, move: Transition) -> bool:
        """A fight that any route may as well take now: one that costs nothing (stats only grow and damage
        never grows with them, so it stays free, and it only opens more of the map), or one whose cost no
        stats left in the level can lower, that guards areas no other blocker leads to, holding at least
        as much life as it costs. A route that fights it later pays the same, and one that never fights
        it never gets those areas, so taking it first leaves at least as much life at every step."""
        if self.is_door[move.blocker]:
            return False
        if move.cost == 0:
            return True
        if self.damage(move.blocker, *self.best_stats) != move.cost:
            return False
        before, after = self.info(mask), self.info(move.mask)
        if after.elixirs - before.elixirs < move.cost:
            return False
        return (after.areas & ~before.areas & self.reach_without(move.blocker)) == 0

    @property
    def every_item(self) -> Stats:
        """What taking every item of the level gives (hp: the life of all its elixirs)."""
        if self._every_item is None:
            self._every_item = self.items_gain(
                tuple(i for i, thing in enumerate(self.level.things) if not thing.is_blocker)
            )
        return self._every_item

    @property
    def best_stats(self) -> tuple[int, int]:
        """The best atk and def any route can have: every piece of equipment in the level."""
        if self._best_stats is None:
            player = self.level.player
            self._best_stats = (player.atk + self.every_item.atk, player.defense + self.every_item.defense)
        return self._best_stats

    def reach_without(self, b: int) -> int:
        """The areas reachable with every blocker but `b` consumed."""
        if b not in self._reach_without:
            everything = (1 << len(self.objects)) - 1
            self._reach_without[b] = self.info(everything & ~(1 << b)).areas
        return self._reach_without[b]

    def reveals_nothing(self, before: int, after: int) -> bool:
        """True when consuming a blocker opens no new area and shows no new blocker: for the best life
        such a door only wastes a key."""
        was, now = self.info(before), self.info(after)
        return (
            was.areas == now.areas
            and set(now.frontier) <= set(was.frontier)
            and (now.goal is None or was.goal is not None)
        )

    def best_from(self, mask: int, hp: int) -> tuple[int, tuple[Decision, ...]] | None:
        """The largest final life reachable from (mask, hp) and a route to it, or None when no goal can be
        reached. Fights that cannot be wrong are taken at once (see sure_gain). Keeping only the best life
        per mask is exact, because the stats are a function of the mask and more life never hurts; masks
        are processed smallest first, and every move adds blockers, so a mask's best life is final when
        its turn comes."""
        origin = mask
        mask, hp, first = self.sure_closure(mask, hp)
        best_life = {mask: hp}
        parent: dict[int, tuple[int, tuple[int, ...]]] = {mask: (origin, first)}
        pending = [mask]
        done: set[int] = set()
        best: tuple[int, int] | None = None  # (final hp, mask)
        while pending:
            current = heapq.heappop(pending)
            if current in done:
                continue
            done.add(current)
            life = best_life[current]
            if self.info(current).goal is not None and (best is None or life > best[0]):
                best = (life, current)
            for move in self.moves(current, life):
                if self.is_door[move.blocker] and self.reveals_nothing(current, move.mask):
                    continue
                after, after_hp, sure = self.sure_closure(move.mask, move.hp)
                if after_hp > best_life.get(after, 0):
                    best_life[after] = after_hp
                    parent[after] = (current, (move.blocker,) + sure)
                    heapq.heappush(pending, after)
        if best is None:
            return None
        final, current = best
        goal = self.info(current).goal
        assert goal is not None
        steps: list[Decision] = [("goal", goal)]
        while current != origin:
            previous, blockers = parent[current]
            steps.extend(self.decision(b) for b in reversed(blockers))
            if previous == current:
                break
            current = previous
        return final, tuple(reversed(steps))

    def best_route(self, start_hp: int) -> tuple[int, tuple[Decision, ...]] | None:
        return self.best_from(0, self.start_hp(start_hp))

    def can_win_from(self, mask: int, hp: int) -> bool:
        """Whether some goal can be reached from (mask, hp): a depth-first search that tries the moves
        leaving the most life first and stops at the first win, so that a level with life to spare is
        answered at once; only losing positions, which are tight, are explored in full."""
        mask, hp, _ = self.sure_closure(mask, hp)
        best_life: dict[int, int] = {}
        stack = [(mask, hp)]
        while stack:
            mask, hp = stack.pop()
            if best_life.get(mask, 0) >= hp:
                continue
            best_life[mask] = hp
            if self.info(mask).goal is not None:
                return True
            following = []
            for move in self.moves(mask, hp):
                if self.is_door[move.blocker] and self.reveals_nothing(mask, move.mask):
                    continue
                after, after_hp, _ = self.sure_closure(move.mask, move.hp)
                if best_life.get(after, 0) < after_hp:
                    following.append((after_hp, after))
            stack.extend((after, after_hp) for after_hp, after in sorted(following))
        return False

    def min_start_hp(self, upper: int) -> int | None:
        """The smallest starting life that wins (solvability only grows with it). Searched upwards in
        steps of a quarter first, so that loose large values, which are costly to explore, are met only
        when needed; then by halving between the last failure and the first success."""
        failed, high = 0, 1
        while not self.can_win_from(0, self.start_hp(high)):
            if high >= upper:
                return None
            failed, high = high, min(upper, high + max(1, high // 2))
        low = failed + 1
        while low < high:
            middle = (low + high) // 2
            if self.can_win_from(0, self.start_hp(middle)):
                high = middle
            else:
                low = middle + 1
        return low

    def harmless_free_fight(self, mask: int, move: Transition) -> bool:
        """A fight that costs nothing and whose opened areas hold no equipment."""
        if self.is_door[move.blocker] or move.cost != 0:
            return False
        was, now = self.info(mask), self.info(move.mask)
        return was.atk == now.atk and was.defense == now.defense

    def winning_signatures(self, start_hp: int, cap: int) -> list[Win]:
        """Distinct winning signatures (doors opened, costly fights with the player's stats), each with its
        best final life, stopping after cap + 1. Two routes that reach the same mask with the same fights
        have the same life, so (mask, fights) identifies a state."""
        wins: dict[tuple[int, frozenset[Fight]], Win] = {}
        seen: set[tuple[int, frozenset[Fight]]] = set()
        stack: list[tuple[int, int, frozenset[Fight], tuple[Decision, ...]]] = [
            (0, self.start_hp(start_hp), frozenset(), ())
        ]
        while stack:
            mask, hp, fights, decisions = stack.pop()
            if (mask, fights) in seen:
                continue
            seen.add((mask, fights))
            here = self.info(mask)
            if here.goal is not None:
                signature = (mask & self.door_bits, fights)
                known = wins.get(signature)
                if known is None or known.final_hp < hp:
                    wins[signature] = Win(hp, decisions + (("goal", here.goal),), fights, mask & self.door_bits)
                    if len(wins) > cap:
                        break
            moves = self.moves(mask, hp)
            harmless = [move for move in moves if self.harmless_free_fight(mask, move)]
            if harmless:
                # Taking it now gives every later fight the same stats, and more life and keys earlier,
                # so routes that take it later have the same signatures: only "now" is explored.
                move = harmless[0]
                stack.append((move.mask, move.hp, fights, decisions + (self.decision(move.blocker),)))
                continue
            for move in reversed(moves):
                entry = frozenset() if move.fight is None else frozenset({move.fight})
                stack.append((move.mask, move.hp, fights | entry, decisions + (self.decision(move.blocker),)))
        return sorted(wins.values(), key=lambda win: (-win.final_hp, sorted(win.fights), win.doors))

    def replay_states(self, decisions: tuple[Decision, ...], start_hp: int) -> list[tuple[int, int]]:
        """The (mask, hp) before each decision of a route given by object indices."""
        mask, hp = 0, self.start_hp(start_hp)
        states = [(mask, hp)]
        for action, obj in decisions:
            if action == "goal":
                break
            b = self.number[obj]
            move = next(m for m in self.moves(mask, hp) if m.blocker == b)
            mask, hp = move.mask, move.hp
            states.append((mask, hp))
        return states

"""A player for «Охота на львов»: a two-ply search over whole turns.

Pure and seeded: the same state and seed give the same turn. The search is boxed by a
node budget rather than a clock (engines read no clocks); the default budget keeps an
answer well under 2 seconds on the project's 2-core machine (see bench/lions_ai.py).

A turn is generated whole (every way to spend up to three steps over up to three pieces,
with rule 4 applied after each piece's part), duplicates by resulting position merged.
Each of our turns is scored by a static evaluation; the best ``width`` are searched one
ply deeper against every reply of the opponent (generated as positions only, by
:func:`turn_results`), and three plies deep once the opponent has few pieces left.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import NamedTuple

from engines.lions import (
    ACCEPT,
    ALL,
    DECLINE,
    DONE,
    LIONS,
    MAX_STEPS,
    PASS,
    LionsState,
    close_part,
    isolated,
    movable,
    pushed,
    reach,
    sides,
    spread,
)
from engines.lions_board import NEIGHBOUR_MASKS

WIN = 100_000
# A piece outweighs every positional term together (mobility, weak pieces, region and the hunt
# below reach a few hundred at most): on the second board a hunter next to the last
# lions once chose closing in over a free capture, since taking one lion moved the hunt's target.
PIECE = 1_000
WEAK = 18  # a piece with one free neighbour left
MOBILITY = 2
REGION = 1  # circles a side can still reach
# The hunt for the last pieces (LionsAI's ``hunt``): once a side is down to FEW pieces, the other
# side's pieces are drawn toward them (HUNT per circle of distance), so a lone piece shuttling in
# a cave gets cornered before the quiet-turns draw (rule 8) instead of merely watched.
HUNT = 4
FEW = 3
TACTICS = 700  # «Сильный»: a capture waiting for the side to move counts most of a piece (LionsAI.judge)
# «Сильный», once a side is down to FEW pieces: per circle of :func:`territory`, the free circles a side
# reaches before the other (a lone piece herded into a cave is lost, one with room to run survives
# the quiet-turns draw; measured on 117 endgames: the defender held 64% of them against «Средний»
# with it, 53% without)
SPACE = 6
# «Сильный»: the opponent's reply is taken as its best reply with weight 1 - TRAP and as any of its
# turns alike with weight TRAP (LionsAI._reply_score): of two turns the best reply answers alike, the
# one that leaves the opponent more ways to go wrong is better, as against any player who errs
TRAP = 0.1

def settled(mover: int, opp: int) -> bool:
    """No piece stands walled in next to an enemy (true after every part of a turn, rule 4)."""
    occupied = mover | opp
    for own, other in ((mover, opp), (opp, mover)):
        while own:
            low = own & -own
            own ^= low
            around = NEIGHBOUR_MASKS[low.bit_length() - 1]
            if not around & ~occupied and around & other:
                return False
    return True


def close_at(circle: int, mover: int, opp: int) -> tuple[int, int]:
    """engines.lions.close_part after a part ending on ``circle``, for a position that was
    :func:`settled` before it: only the piece there and its neighbours can have been walled in."""
    occupied = mover | opp
    around_here = NEIGHBOUR_MASKS[circle]
    check = around_here & opp  # each touches the piece on ``circle``: an enemy is there
    while check:
        low = check & -check
        check ^= low
        if not NEIGHBOUR_MASKS[low.bit_length() - 1] & ~occupied:
            opp ^= low
    occupied = mover | opp
    check = (around_here & mover) | 1 << circle
    while check:
        low = check & -check
        check ^= low
        around = NEIGHBOUR_MASKS[low.bit_length() - 1]
        if not around & ~occupied and around & opp:
            mover ^= low
    return mover, opp


class Turn(NamedTuple):
    """One whole turn: its paths (one per piece) and the position it leads to."""

    paths: tuple[tuple[int, ...], ...]
    mover: int
    opp: int
    push_on: bool


def close_turn_part(circle: int, mover: int, opp: int, local: bool, iso: bool,
                    lions_move: bool) -> tuple[int, int, bool]:
    """The position after a piece's part ends on ``circle`` (``mover`` already moved there): rule 4 by
    :func:`close_at` where the position was :func:`settled` (``local``), else by the engine's full
    check; and whether the push rule is on after it (rule 5: on for good once the lions are isolated)."""
    mover, opp = close_at(circle, mover, opp) if local else close_part(mover, opp)[:2]
    return mover, opp, iso or (isolated(mover, opp) if lions_move else isolated(opp, mover))


def whole_turns(mover: int, opp: int, push_on: bool, lions_move: bool, first: int = 0) -> list[Turn]:
    """Every distinct result of one turn (rules 2, 4, 5); ``first``: pieces that must go first (rule 6)."""
    results: dict[tuple[int, int, bool], Turn] = {}
    seen: set[tuple[int, int, int, int, bool]] = set()
    local = settled(mover, opp)  # else every part is closed by the engine's full check

    def start(mover: int, opp: int, steps: int, moved: int, paths: tuple[tuple[int, ...], ...], iso: bool) -> None:
        key = (mover, opp, steps, moved, iso)
        if key in seen or steps >= MAX_STEPS or not opp or not mover:
            return
        seen.add(key)
        candidates = mover & ~moved
        if not paths and first:  # rule 6: a pushed piece goes first, if one can move
            candidates = movable(first & candidates, mover | opp) or candidates
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            walk(mover, opp, (low.bit_length() - 1,), steps, moved, paths, iso)

    def walk(mover: int, opp: int, path: tuple[int, ...], steps: int, moved: int,
             paths: tuple[tuple[int, ...], ...], iso: bool) -> None:
        here = path[-1]
        free = NEIGHBOUR_MASKS[here] & ~(mover | opp)
        for c in path:
            free &= ~(1 << c)
        while free:
            low = free & -free
            free ^= low
            nxt = low.bit_length() - 1
            moved_mover = mover ^ (1 << here) ^ low
            new_path = (*path, nxt)
            m2, o2, iso2 = close_turn_part(nxt, moved_mover, opp, local, iso, lions_move)
            all_paths = (*paths, new_path)
            key = (m2, o2, iso2)
            if key not in results:
                results[key] = Turn(all_paths, m2, o2, iso2)
            if steps + 1 < MAX_STEPS:
                start(m2, o2, steps + 1, (moved | low) & m2, all_paths, iso2)
                walk(moved_mover, opp, new_path, steps + 1, moved, paths, iso)

    start(mover, opp, 0, 0, (), push_on)
    return list(results.values())


def turn_results(mover: int, opp: int, push_on: bool, lions_move: bool, first: int = 0,
                 budget: list[int] | None = None) -> set[tuple[int, int, bool]]:
    """The positions of :func:`whole_turns` (mover, opp, push rule on) without the paths to them: a
    piece's part is grown ring by ring, so each circle it can stop on is closed once, at its nearest
    (a nearer stop leaves more steps to the pieces after it: every turn the farther one allows). The
    search's replies need only the positions; ``budget`` loses one per part closed."""
    results: set[tuple[int, int, bool]] = set()
    seen: set[tuple[int, int, int, int, bool]] = set()
    local = settled(mover, opp)  # else every part is closed by the engine's full check

    def start(mover: int, opp: int, steps: int, moved: int, iso: bool, first: int) -> None:
        key = (mover, opp, steps, moved, iso)
        if key in seen or steps >= MAX_STEPS or not opp or not mover:
            return
        seen.add(key)
        occupied = mover | opp
        candidates = mover & ~moved
        if first:  # rule 6: a pushed piece goes first, if one can move
            candidates = movable(first & candidates, occupied) or candidates
        while candidates:
            piece = candidates & -candidates
            candidates ^= piece
            ring = reached = piece
            for step in range(steps + 1, MAX_STEPS + 1):  # the circles ``step - steps`` away, over free ones
                ring = spread(ring) & ~occupied & ~reached
                if not ring:
                    break
                reached |= ring
                stops = ring
                while stops:
                    low = stops & -stops
                    stops ^= low
                    if budget is not None:
                        budget[0] -= 1
                    m2, o2, iso2 = close_turn_part(low.bit_length() - 1, mover ^ piece ^ low, opp, local, iso,
                                                   lions_move)
                    results.add((m2, o2, iso2))
                    if step < MAX_STEPS:
                        start(m2, o2, step, (moved | low) & m2, iso2, 0)

    start(mover, opp, 0, 0, push_on, first)
    return results


@functools.lru_cache(maxsize=1 << 16)
def evaluate(me: int, opp: int) -> int:
    """A static score of a position for the side owning ``me`` (material first)."""
    if not opp:
        return WIN
    if not me:
        return -WIN
    occupied = me | opp
    score = PIECE * (me.bit_count() - opp.bit_count())
    pieces = me
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        free = (NEIGHBOUR_MASKS[low.bit_length() - 1] & ~occupied).bit_count()
        score += MOBILITY * free - (WEAK if free == 1 else 0)
    pieces = opp
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        free = (NEIGHBOUR_MASKS[low.bit_length() - 1] & ~occupied).bit_count()
        score -= MOBILITY * free - (WEAK if free == 1 else 0)
    free_circles = ALL & ~occupied
    score += REGION * (reach(me, free_circles).bit_count() - reach(opp, free_circles).bit_count())
    return score


@functools.lru_cache(maxsize=1 << 16)
def hanging(attacker: int, victim: int) -> int:
    """How many of ``victim``'s pieces ``attacker`` could take on its next turn (rule 4) by stopping a
    piece on their last free neighbour within three steps over free circles; the piece that goes
    must not stand beside the victim (it would leave a free circle there)."""
    free = ALL & ~(attacker | victim)
    count, pieces = 0, victim
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        around = NEIGHBOUR_MASKS[low.bit_length() - 1]
        exits = around & free
        if not exits or exits & (exits - 1):  # not exactly one free neighbour
            continue
        movers, ring = attacker & ~around, exits
        for _ in range(MAX_STEPS):
            if spread(ring) & movers:
                count += 1
                break
            ring |= spread(ring) & free
    return count


@functools.lru_cache(maxsize=1 << 16)
def territory(me: int, opp: int) -> int:
    """How many more free circles ``me`` reaches before ``opp`` than the other way round: both sides
    flood the free circles one ring at a time, a circle reached by both in the same ring is no one's and
    stops both floods (a way through a contested circle is no safe way)."""
    free = ALL & ~(me | opp)
    mine, theirs = spread(me) & free, spread(opp) & free
    both = mine & theirs
    mine, theirs = mine & ~both, theirs & ~both
    claimed, front_mine, front_theirs = mine | theirs | both, mine, theirs
    while front_mine or front_theirs:
        front_mine = spread(front_mine) & free & ~claimed
        front_theirs = spread(front_theirs) & free & ~claimed
        both = front_mine & front_theirs
        front_mine, front_theirs = front_mine & ~both, front_theirs & ~both
        claimed |= front_mine | front_theirs | both
        mine, theirs = mine | front_mine, theirs | front_theirs
    return mine.bit_count() - theirs.bit_count()


@functools.lru_cache(maxsize=1 << 16)
def closing_in(me: int, opp: int) -> int:
    """How much closer ``me`` is to a side of FEW pieces or fewer than ``opp`` is (in circles of
    distance; zero while both sides have more)."""
    out = 0
    if opp.bit_count() <= FEW:
        out -= distance_sum(me, opp)
    if me.bit_count() <= FEW:
        out += distance_sum(opp, me)
    return out


def distance_sum(pieces: int, targets: int) -> int:
    """The sum over ``pieces`` of the distance along the lines (pieces ignored) to the nearest target."""
    total, distance, ring = 0, 0, targets
    while pieces:
        hit = pieces & ring
        total += distance * hit.bit_count()
        pieces ^= hit
        grown = ring | spread(ring)
        if grown == ring:  # the rest cannot reach a target at all
            break
        ring, distance = grown, distance + 1
    return total


class LionsAI:
    """Chooses a whole turn (as the engine's action codes) for the side to move."""

    def __init__(self, width: int = 10, budget: int = 40_000, deep_below: int = 3, deep_width: int = 6,
                 hunt: int = 0, blur: int = 0, tactics: int = 0, space: int = 0, trap: float = 0.0) -> None:
        self.width = width  # our best turns (by static score) searched against every reply
        self.budget = budget  # parts generated (turn_results) plus positions evaluated, all plies together
        self.deep_below = deep_below  # three plies once the opponent has this many pieces or fewer
        self.deep_width = deep_width
        self.hunt = hunt  # weight of :func:`closing_in` (the module's AI uses HUNT)
        # a seeded random amount below ``blur`` added to each turn's static score: a casual player's
        # judgement (below PIECE, so a capture still outweighs it and a piece is never thrown away)
        self.blur = blur
        # per enemy piece the side to move could take next turn (:func:`hanging`): a look past the
        # search's last ply at the captures waiting there
        self.tactics = tactics
        self.space = space  # weight of :func:`territory` once a side has FEW pieces or fewer (SPACE)
        self.trap = trap  # weight of the opponent's average reply against its best (TRAP)

    def score(self, me: int, opp: int) -> int:
        """The score of a position for the side owning ``me``: :func:`evaluate`, plus the hunt and the
        room to run once a side is down to its last pieces."""
        score = evaluate(me, opp)
        if me and opp and min(me.bit_count(), opp.bit_count()) <= FEW:
            if self.hunt:
                score += self.hunt * closing_in(me, opp)
            if self.space:
                score += self.space * territory(me, opp)
        return score

    def judge(self, me: int, opp: int) -> int:
        """:meth:`score` of a position where ``opp`` is to move, less what ``opp`` could take at once."""
        score = self.score(me, opp)
        if self.tactics and me and opp:
            score -= self.tactics * hanging(opp, me)
        return score

    def plan(self, state: LionsState, seed: int = 0) -> list[str]:
        """The codes to apply, in order, for the current player (a whole turn, or a draw answer)."""
        if state.finished:
            return []
        if state.draw_offer is not None:
            me, opp = sides(state)  # the side to move is the offerer's
            return [ACCEPT if evaluate(opp, me) <= PIECE // 2 else DECLINE]
        rng = splitmix64(_seed_number(state.seed) ^ (state.version << 20) ^ seed)
        mover, opp = sides(state)
        lions_move = state.side == LIONS
        first = pushed(mover, opp) if state.push_on else 0
        turns = whole_turns(mover, opp, state.push_on, lions_move, first)
        if not turns:
            return [PASS]
        for turn in turns:
            if not turn.opp:  # rule 7: the last enemy piece falls
                return codes_of(turn.paths)
        noise = {t: next(rng) for t in turns}
        blur = self.blur or 1  # x % 1 == 0: no blur
        ranked = sorted(turns, key=lambda t: (self.judge(t.mover, t.opp) + noise[t] % blur, noise[t]), reverse=True)
        if self.width <= 1:  # one ply: the best-looking turn (a free capture always looks best)
            return codes_of(ranked[0].paths)
        budget = [self.budget]
        scored: list[tuple[int, int, Turn]] = []
        deep = opp.bit_count() <= self.deep_below  # the deep search re-ranks these: their scores must be exact
        for turn in ranked[: self.width]:
            floor = -WIN - 1 if deep or not scored else max(s for s, _, _ in scored)
            scored.append((self._reply_score(turn, lions_move, budget, floor), noise[turn], turn))
            if budget[0] <= 0:
                break
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        if deep and budget[0] > 0:  # the hunt for the last pieces
            deeper = [(self._deep_score(t, lions_move, budget), n, t) for _, n, t in scored[: self.deep_width]]
            if budget[0] > 0:
                scored = sorted(deeper, key=lambda s: (s[0], s[1]), reverse=True)
        return codes_of(scored[0][2].paths)

    def _deep_score(self, turn: Turn, lions_move: bool, budget: list[int]) -> int:
        """Our score after the opponent's best reply and our best answer to it (three plies)."""
        if not turn.opp:
            return WIN
        worst = WIN
        for theirs, mine, push_on in self._replies(turn, lions_move, budget):
            if not mine:
                return -WIN
            first = pushed(mine, theirs) if push_on else 0
            answers = turn_results(mine, theirs, push_on, lions_move, first, budget)
            budget[0] -= len(answers)  # each is evaluated
            best = max((self.judge(m, o) for m, o, _ in answers), default=self.score(mine, theirs))
            worst = min(worst, best)
            if budget[0] <= 0:
                break
        return worst

    def _replies(self, turn: Turn, lions_move: bool, budget: list[int]) -> list[tuple[int, int, bool]]:
        """The opponent's replies to ``turn`` as positions (theirs, ours, push rule on), the takers first."""
        first = pushed(turn.opp, turn.mover) if turn.push_on else 0
        replies = turn_results(turn.opp, turn.mover, turn.push_on, not lions_move, first, budget)
        return sorted(replies, key=lambda r: r[1].bit_count())

    def _reply_score(self, turn: Turn, lions_move: bool, budget: list[int], floor: int = -WIN - 1) -> int:
        """Our score after the opponent's reply to ``turn``: its best reply, mixed with its average one
        by ``trap`` (as the opponent's average reply: its captures and losses, and what it leaves for us
        to take). Once the best reply holds it below ``floor`` (the best turn found so far) the other
        replies are not judged: the answer is then only a bound below ``floor``."""
        if not turn.opp:
            return WIN
        replies = self._replies(turn, lions_move, budget)
        budget[0] -= len(replies)
        if not replies:
            return self.score(turn.mover, turn.opp)
        average = 0.0
        if self.trap:  # our material after each reply, and the captures it leaves us
            average = sum(PIECE * (our_pieces.bit_count() - their_pieces.bit_count())
                          + self.tactics * hanging(our_pieces, their_pieces)
                          for their_pieces, our_pieces, _ in replies) / len(replies)
        best = -WIN - 1
        for their_pieces, our_pieces, _ in replies:
            value = self.judge(their_pieces, our_pieces)
            if value > best:
                best = value
                # the replies left can only lower the score (rounding keeps the order): already below
                # ``floor``, this turn is not played whatever they are
                if round((1 - self.trap) * -best + self.trap * average) < floor:
                    break
        return round((1 - self.trap) * -best + self.trap * average)


MASK64 = (1 << 64) - 1


def splitmix64(seed: int) -> Iterator[int]:
    """Tie-breaking noise from a seed: SplitMix64 (engines may not use the global ``random``)."""
    x = seed & MASK64
    while True:
        x = (x + 0x9E3779B97F4A7C15) & MASK64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def _seed_number(seed: str) -> int:
    """A game seed (64 hex digits) as a number; any other text by its code points."""
    try:
        return int(seed[:16], 16)
    except ValueError:
        return sum(ord(ch) << (i % 56) for i, ch in enumerate(seed))


def codes_of(paths: tuple[tuple[int, ...], ...]) -> list[str]:
    """The engine's action codes for a whole turn: pick, steps, …, «Готово»."""
    codes: list[str] = []
    for path in paths:
        codes.append(f"p{path[0]}")
        codes += [f"s{c}" for c in path[1:]]
    return [*codes, DONE]


# The levels the lobby offers (engines.base.LEVELS; bench/lions_ai.py measures them):
# «Лёгкий» looks one ply ahead with a blurred judgement: it takes a free capture and never walls its
#   own piece in, but does not see the reply and does not hunt the last pieces;
# «Средний» looks at every reply to its three best-looking turns: it keeps its pieces safe, takes
#   what the opponent leaves and goes after the last pieces, if less keenly than «Сильный» (without
#   any hunt a twelfth of its games against a random player and half against itself ended in the
#   quiet-turns draw; with the full hunt it played about as well as «Сильный»), but plans no further;
# «Сильный» searches ten turns against every reply, looks past the reply at the captures waiting
#   there (``tactics``), draws its pieces toward the last enemy pieces (``hunt``), keeps room to run
#   for its own last pieces and takes it from the enemy's (``space``), prefers of two safe turns the
#   one with more ways for the opponent to go wrong (``trap``) and looks three plies deep once the
#   opponent is down to three. Its budget keeps its think time p95 under 0.5 s with two games
#   thinking at once (bench/lions_ai.py).
LEVELS: dict[str, LionsAI] = {
    "easy": LionsAI(width=1, deep_below=0, blur=PIECE // 2),
    "medium": LionsAI(width=3, budget=15_000, deep_below=0, hunt=HUNT // 4),
    "strong": LionsAI(budget=20_000, hunt=HUNT, tactics=TACTICS, space=SPACE, trap=TRAP),
}
AI = LEVELS["medium"]  # the default level (engines.base.DEFAULT_LEVEL): timed-out turns, «🤖» seats

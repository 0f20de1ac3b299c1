"""One game, declared once: its engine, computer player, words, picture and every fact about it
that the bot, the bench and the tests need. The bot's core iterates the registry and never names
a game; a new game is a new :class:`GameSpec` in :data:`bot.games.GAMES`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from bot.games.common import GameUI
from bot.games.places import Places
from engines.base import DEFAULT_LEVEL, Engine, Event, GameOptions, GameState, Policy
from render.cover import CoverArt, three_dice

S = TypeVar("S", bound=GameState)
Opt = TypeVar("Opt", bound=GameOptions)
JSON = dict[str, Any]
LOG_ACTIONS = 3  # actions whose events the table caption's log shows, by default

# the board picture: (state, names by seat, board labels in the chat's language, the last action's events)
RenderBoard = Callable[[S, Sequence[str], Mapping[str, str], Sequence[Event]], bytes]


@dataclass(frozen=True, slots=True)
class Variant:
    """A named set of options worth timing or playing through on its own (bench and tests)."""

    name: str = ""  # "" for the defaults
    options: JSON = field(default_factory=dict)
    seats: int = 4  # how many players the engine benchmark seats
    timed: bool = True  # bench.engine_speed times random games of it
    drawn: bool = True  # bench.render_speed times its pictures (its options change them)
    played_through: bool = True  # bench.e2e_game plays one game of it through the fake Bot API


def of_kinds(*kinds: str) -> Callable[[Event], bool]:
    """A ``GameSpec.replay_moment``: the events of these kinds."""
    chosen = frozenset(kinds)
    return lambda event: event.kind in chosen


@dataclass(frozen=True)
class GameSpec(Generic[S, Opt]):
    """Everything about one game, in one place."""

    engine: Engine[S, Opt]
    ui: GameUI
    render_board: RenderBoard[S]
    label_keys: Sequence[str]  # the board's words, locale keys «board-<key>»
    dice_per_roll: int  # dice thrown by one roll (0: a game without dice); /verify and docs/fair-dice.md say so
    policy: Policy[S] | None = None  # the computer player: «🤖» seats, timed-out turns; None: the game has none
    # the computer's levels by name (engines.base.LEVELS), chosen in the lobby; empty: ``policy`` alone
    levels: Mapping[str, Policy[S]] = field(default_factory=dict)
    variant_option: str | None = None  # the option /settings offers as the chat's default variant
    # an option only some variants play with → those values of ``variant_option`` («Башня»'s height: the
    # tower only): /set refuses it in another variant, saying so, instead of storing what the game ignores
    only_in_variants: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    roll_is_the_turn: bool = False  # a roll is the whole turn, so the fast table would play the game by itself
    resign: Callable[[int], str] | None = None  # the code by which a seat resigns: leaving is resigning
    places: Places | None = None  # the rules rank every player: the result and /history list every place
    row_groups: Mapping[str, tuple[str, int]] | None = None  # action kind → (row group, buttons per row)
    log_actions: int = LOG_ACTIONS
    variants: tuple[Variant, ...] = (Variant(),)
    random_skips: frozenset[str] = frozenset()  # action kinds random play leaves out (they would end it at once)
    locale_files: Mapping[str, Path] = field(default_factory=dict)  # lang → .ftl of a game outside locales/
    cover_art: CoverArt = three_dice  # the picture on its lobby's title card (render/covers.py)
    # a variant (a value of ``variant_option``) whose lobby has a title card of its own («Башня»: coasters, not
    # chips): its picture; the line under the name is then the locale key «game-<code>-tagline-<variant>»
    variant_covers: Mapping[str, CoverArt] = field(default_factory=dict)
    # action kinds a stray tap must not play (lions.md: «Сдаться» with a confirmation): their first press asks
    # on the table («Да, сдаюсь» / «Отмена», locale keys «confirm-<code>-<kind>»), the second plays them
    confirm: frozenset[str] = frozenset()
    # the events a replay clip (bot/replay.py) lingers on: a capture, a piece home, a round paid
    replay_moment: Callable[[Event], bool] = field(default=lambda event: event.kind == "capture")
    # what the players see of a state (without its version or last move), where two different actions may
    # lead to the same one (the two orders of «Шиш-беш»'s dice): the fast table takes them for one choice
    position: Callable[[S], Hashable] | None = None
    mark: str = "🎲"  # the sign before the game's name at the head of its lobby and table («🦁 Охота на львов»)

    @property
    def code(self) -> str:
        return self.engine.code

    @property
    def fast_table(self) -> bool:
        """Whether the game offers the fast table (docs/players.md: the fast table): it has dice, and a roll is not
        the whole turn, so the bot may roll for a person and play their only legal move."""
        return self.dice_per_roll > 0 and not self.roll_is_the_turn

    def cover(self, options: Any) -> tuple[CoverArt, str]:
        """The title card of a lobby set to ``options``: its picture and the locale key of the line under the
        game's name (the variant's own, if it has a card of its own)."""
        variant = getattr(options, self.variant_option) if self.variant_option else None
        if isinstance(variant, str) and variant in self.variant_covers:
            return self.variant_covers[variant], f"game-{self.code}-tagline-{variant}"
        return self.cover_art, f"game-{self.code}-tagline"

    def policy_at(self, level: str) -> Policy[S] | None:
        """The computer player of ``level`` (the default level, or ``policy``, when the game has no such level)."""
        return self.levels.get(level) or self.levels.get(DEFAULT_LEVEL) or self.policy


class Registry(Mapping[str, GameSpec[Any, Any]]):
    """The games the bot offers, by code, in the picker's order."""

    def __init__(self, specs: Iterable[GameSpec[Any, Any]]) -> None:
        self._specs = {spec.code: spec for spec in specs}

    def __getitem__(self, code: str) -> GameSpec[Any, Any]:
        return self._specs[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def with_game(self, spec: GameSpec[Any, Any]) -> Registry:
        """These games and ``spec`` (a game that lives outside the package, such as a test's)."""
        return Registry([*self.values(), spec])

    def locale_files(self) -> dict[str, list[Path]]:
        """Per language, the .ftl files of the games that bring their own texts."""
        files: dict[str, list[Path]] = {}
        for spec in self.values():
            for lang, path in spec.locale_files.items():
                files.setdefault(lang, []).append(path)
        return files

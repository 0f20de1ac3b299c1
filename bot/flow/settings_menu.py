"""/settings: the chat's defaults for every new lobby, in one message with buttons.

Language, the turn timer (key "turn_timer"; a lobby's ⏱ changes only its own game's), the turn ping
(key "ping", seconds; a lobby's 🔔 likewise), the table's pace (key "pace": fast or classic; a lobby's
«🎲 Стол» likewise), tidying up (key
"tidy": transient replies deleted after a minute), the time zone /history shows times in (key
"time_zone", one of ``bot.zones.ZONE_CHOICES``) and the default variant of each game that has one
(``GameSpec.variant_option``, stored in ``settings["defaults"][code]``). A button carries the value
it sets, so a double tap sets it once; the press is checked against what the bot offers (never
trusted), and only chat admins may press (the flow checks that).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callback_data as cb
from bot.flow.context import PACE_CHOICES, PING_CHOICES, TIMER_CHOICES, Chat, Reply, default_options
from bot.flow.loader import Loader
from bot.flow.messages import Messages
from bot.games import GameSpec, Registry
from bot.games.common import Tr, parse_choice, set_option
from bot.store import Store
from bot.zones import UTC, ZONE_CHOICES, from_slug, slug, utc_offset
from engines.base import OptionsError
from locales import SUPPORTED

ON, OFF = "on", "off"


def _next(values: tuple[Any, ...], value: Any) -> Any:
    return values[(values.index(value) + 1) % len(values)] if value in values else values[0]


def _flip(state: str) -> str:
    return OFF if state == ON else ON


def _as_data(value: Any) -> str:
    """An option's value as a button carries it (a yes/no option as «on»/«off»)."""
    return (ON if value else OFF) if isinstance(value, bool) else str(value)


def zone_label(name: str, tr: Tr, now: float) -> str:
    """The zone as /settings shows it: «Москва (UTC+3)», its offset as it is at ``now``; «UTC» alone."""
    words = tr("zone-name", zone=slug(name))
    return words if name == UTC else tr("settings-zone-label", name=words, offset=utc_offset(name, now))


def _next_variant(spec: GameSpec[Any, Any], options: Any, tr: Tr) -> str:
    """The value the game's lobby button would switch its variant to (the same cycle)."""
    buttons = spec.ui.lobby_buttons(options, spec.engine.min_players, tr)
    return next(b.value for row in buttons for b in row if b.key == spec.variant_option)


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting of /settings: its line («⏱ Таймер хода: 3 мин», locale key ``words`` with ``args``),
    which its button shows too (a toggle shows the state now, as the lobby's do) and a press answers with
    once changed; the button sets ``after``. A game's variant (``code``) says its game's name shorter on
    its button (``button``)."""

    key: str
    words: str
    args: dict[str, Any]
    after: str
    code: str = ""
    button: str = ""

    def line(self, chat: Chat) -> Markup:
        return chat.html(self.words, **self.args)

    def text(self, chat: Chat) -> str:
        return chat.tr(self.button or self.words, **self.args)


class SettingsMenu:
    """The /settings message: what it shows, and what its buttons store."""

    def __init__(self, store: Store, games: Registry, loader: Loader, messages: Messages) -> None:
        self.store, self.games, self.loader, self.messages = store, games, loader, messages

    def view(self, chat: Chat) -> tuple[Markup, InlineKeyboardMarkup]:
        """The settings message of the chat: its current defaults, and a button showing each (a press
        switches it to the next choice)."""
        html, settings = chat.html, self.settings(chat)
        whole_turn = [s.code for s in self.games.values() if s.roll_is_the_turn]
        games = Markup(", ").join(html("settings-quoted", game=chat.tr(f"game-{c}")) for c in whole_turn)
        lines = [html("settings-title"), *(s.line(chat) for s in settings), Markup(),
                 html("settings-pace-about", games=games), html("settings-tidy-about"), html("settings-hint")]
        rows = [[InlineKeyboardButton(s.text(chat), callback_data=cb.chat_setting(s.key, s.after, s.code))]
                for s in settings]
        return Markup("\n").join(lines), InlineKeyboardMarkup(rows)

    def settings(self, chat: Chat) -> list[Setting]:
        """Every setting of the chat, in the message's order: language, timer, ping, the table's pace,
        tidying up, time zone, then each game's variant."""
        tr, settings = chat.tr, chat.settings
        minutes, ping, pace, tidy, zone = (settings.turn_timer, settings.ping, settings.pace, _as_data(settings.tidy),
                                           chat.time_zone)
        found = [Setting("lang", "settings-lang", {"lang": tr("settings-lang-self")}, _next(SUPPORTED, chat.lang)),
                 Setting("timer", "btn-timer", {"minutes": minutes}, str(_next(TIMER_CHOICES, minutes))),
                 Setting("ping", "btn-ping", {"seconds": ping}, str(_next(PING_CHOICES, ping))),
                 Setting("pace", "settings-pace", {"pace": pace}, _next(PACE_CHOICES, pace)),
                 Setting("tidy", "settings-tidy", {"state": tidy}, _flip(tidy)),
                 Setting("zone", "settings-zone", {"zone": zone_label(zone, tr, self.store.clock())},
                         slug(_next(ZONE_CHOICES, zone)))]
        for spec in (s for s in self.games.values() if s.variant_option is not None):
            assert spec.variant_option is not None
            options = default_options(spec, settings, chat.id)
            found.append(Setting(spec.variant_option, "settings-variant",
                                 {"game": tr(f"game-{spec.code}"), "code": spec.code,
                                  "variant": spec.ui.variant(options, tr)},
                                 _next_variant(spec, options, tr), spec.code, "settings-btn-variant"))
        return found

    async def press(self, chat: Chat, message_id: int | None, data: cb.Callback) -> Reply:
        """An admin's press: store the setting and show the message again (in the new language, if
        that changed); the toast says what the setting is now («⏱ Таймер хода: 10 мин»). The caller
        checked the rights and holds the chat's lock."""
        if not await self._store(chat, data):
            return Reply(chat.tr("toast-stale"))
        chat = await self.loader.chat(chat.id)
        changed = next(s for s in self.settings(chat) if (s.key, s.code) == (data.key, data.code))
        reply = Reply(chat.tr(changed.words, **changed.args))
        if message_id is not None:
            text, keyboard = self.view(chat)
            reply.after = lambda: self.messages.edit_text(chat.id, message_id, text, keyboard)
        return reply

    async def _store(self, chat: Chat, data: cb.Callback) -> bool:
        """Store the pressed setting if it is one the bot offers; False for anything else."""
        if data.code:
            return await self._store_variant(chat, data)
        if data.key == "lang" and data.value in SUPPORTED:
            await self.store.set_chat_locale(chat.id, data.value)
        elif data.key == "timer" and (minutes := parse_choice(data.value, TIMER_CHOICES)) is not None:
            await self.store.set_chat_setting(chat.id, "turn_timer", minutes)
        elif data.key == "ping" and (seconds := parse_choice(data.value, PING_CHOICES)) is not None:
            await self.store.set_chat_setting(chat.id, "ping", seconds)
        elif data.key == "pace" and data.value in PACE_CHOICES:
            await self.store.set_chat_setting(chat.id, "pace", data.value)
        elif data.key == "tidy" and data.value in (ON, OFF):
            await self.store.set_chat_setting(chat.id, "tidy", data.value == ON)
        elif data.key == "zone" and (zone := from_slug(data.value)) is not None:
            await self.store.set_chat_setting(chat.id, "time_zone", zone)
        else:
            return False
        return True

    async def _store_variant(self, chat: Chat, data: cb.Callback) -> bool:
        spec = self.games.get(data.code)
        if spec is None or spec.variant_option != data.key:
            return False
        try:  # the engine checks the value, as for the lobby's own button
            value = getattr(set_option(default_options(spec, chat.settings, chat.id), data.key, data.value), data.key)
        except OptionsError:
            return False
        if data.value != _as_data(value):  # only the spelling the buttons use («1», «yes»: stale)
            return False
        stored = (await self.store.chat(chat.id)).settings.get("defaults")
        defaults = dict(stored) if isinstance(stored, dict) else {}  # a copy: never the stored dict
        game = defaults.get(spec.code)
        defaults[spec.code] = {**(game if isinstance(game, dict) else {}), data.key: value}
        await self.store.set_chat_setting(chat.id, "defaults", defaults)
        return True

"""/settings (issue #11): the chat's defaults for every new lobby, in one message with buttons.

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


class SettingsMenu:
    """The /settings message: what it shows, and what its buttons store."""

    def __init__(self, store: Store, games: Registry, loader: Loader, messages: Messages) -> None:
        self.store, self.games, self.loader, self.messages = store, games, loader, messages

    def view(self, chat: Chat) -> tuple[Markup, InlineKeyboardMarkup]:
        """The settings message of the chat: its current defaults, and a button to switch each."""
        lines, rows = self._chat_lines(chat)
        html, tr = chat.html, chat.tr
        for spec in (s for s in self.games.values() if s.variant_option is not None):
            assert spec.variant_option is not None
            options = default_options(spec, chat.settings, chat.id)
            game = tr(f"game-{spec.code}")
            lines.append(html("settings-variant", game=game, variant=spec.ui.variant(options, tr)))
            value = _next_variant(spec, options, tr)
            other = set_option(options, spec.variant_option, value)
            rows.append([InlineKeyboardButton(tr("settings-btn-variant", game=game, variant=spec.ui.variant(other, tr)),
                                              callback_data=cb.chat_setting(spec.variant_option, value, spec.code))])
        whole_turn = [s.code for s in self.games.values() if s.roll_is_the_turn]
        games = Markup(", ").join(html("settings-quoted", game=tr(f"game-{c}")) for c in whole_turn)
        lines += [Markup(), html("settings-pace-about", games=games), html("settings-tidy-about"),
                  html("settings-hint")]
        return Markup("\n").join(lines), InlineKeyboardMarkup(rows)

    def _chat_lines(self, chat: Chat) -> tuple[list[Markup], list[list[InlineKeyboardButton]]]:
        """The lines and buttons of the settings that are the chat's own: language, timer, ping,
        the table's pace, tidying up, time zone."""
        tr, html, settings = chat.tr, chat.html, chat.settings
        minutes, ping, next_lang = settings.turn_timer, settings.ping, _next(SUPPORTED, chat.lang)
        pace, tidy = settings.pace, _as_data(settings.tidy)
        zone, now = chat.time_zone, self.store.clock()
        next_zone = _next(ZONE_CHOICES, zone)
        lines = [html("settings-title"), html("settings-lang", lang=tr("settings-lang-self")),
                 html("btn-timer", minutes=minutes), html("btn-ping", seconds=ping),
                 html("settings-pace", pace=pace), html("settings-tidy", state=tidy),
                 html("settings-zone", zone=zone_label(zone, tr, now))]
        other_lang = self.loader.words(next_lang)("settings-lang-self")
        buttons = [(tr("settings-btn-lang", lang=other_lang), "lang", next_lang),
                   (tr("settings-btn-timer", minutes=_next(TIMER_CHOICES, minutes)), "timer",
                    str(_next(TIMER_CHOICES, minutes))),
                   (tr("settings-btn-ping", seconds=_next(PING_CHOICES, ping)), "ping", str(_next(PING_CHOICES, ping))),
                   (tr("settings-btn-pace", pace=_next(PACE_CHOICES, pace)), "pace", _next(PACE_CHOICES, pace)),
                   (tr("settings-btn-tidy", state=_flip(tidy)), "tidy", _flip(tidy)),
                   (tr("settings-btn-zone", zone=zone_label(next_zone, tr, now)), "zone", slug(next_zone))]
        return lines, [[InlineKeyboardButton(text, callback_data=cb.chat_setting(key, value))]
                       for text, key, value in buttons]

    async def press(self, chat: Chat, message_id: int | None, data: cb.Callback) -> Reply:
        """An admin's press: store the setting and show the message again (in the new language, if
        that changed); the caller checked the rights and holds the chat's lock."""
        if not await self._store(chat, data):
            return Reply(chat.tr("toast-stale"))
        chat = await self.loader.chat(chat.id)
        reply = Reply(chat.tr("toast-setting-changed"))
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

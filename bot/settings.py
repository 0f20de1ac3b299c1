"""/settings (issue #11): the chat's defaults for every new lobby, in one message with buttons.

Language, the turn timer (the key "turn_timer" that the lobby's ⏱ button cycles too),
«автобросок» (key "autoroll") and each game's default variant (``settings["defaults"][code]``).
A button carries the value it sets, so a double tap sets it once; the press is checked
against what the bot offers (never trusted), and only chat admins may press (handlers.py
checks that, and holds the /settings command: it shares their helpers for replies and rights).
"""

from __future__ import annotations

import html
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot import callback_data as cb
from bot.flow import TIMER_CHOICES, GameFlow, Reply
from bot.games.common import Tr, set_option
from bot.turns import ROLL_IS_THE_TURN
from engines.base import OptionsError
from locales import SUPPORTED

# The option that is each game's variant: the one its lobby cycles with a «Вариант →»-style button
# and ``GameUI.variant`` names. «Спички» (a goal count), «Парчис» and «Охота на львов» have none.
VARIANT_OPTION = {"sosedi": "mode", "tishe": "both_home", "shishbesh": "board", "ludo": "bonuses"}
ON, OFF = "on", "off"


def _next(values: tuple[Any, ...], value: Any) -> Any:
    return values[(values.index(value) + 1) % len(values)] if value in values else values[0]


def _as_data(value: Any) -> str:
    """An option's value as a button carries it (a yes/no option as «on»/«off»)."""
    return (ON if value else OFF) if isinstance(value, bool) else str(value)


def _next_variant(flow: GameFlow, code: str, options: Any, tr: Tr) -> str:
    """The value the game's lobby button would switch its variant to (the same cycle)."""
    buttons = flow.uis[code].lobby_buttons(options, flow.engines[code].min_players, tr)
    return next(b.value for row in buttons for b in row if b.key == VARIANT_OPTION[code])


async def view(flow: GameFlow, chat_id: int) -> tuple[str, InlineKeyboardMarkup]:
    """The settings message of the chat: its current defaults, and a button to switch each."""
    lang = await flow.lang(chat_id)
    tr: Tr = await flow.tr(chat_id)
    minutes, autoroll = await flow.turn_timer(chat_id), await flow.autoroll(chat_id)
    next_lang = _next(SUPPORTED, lang)
    lines = [tr("settings-title"), tr("settings-lang", lang=tr("settings-lang-self")),
             tr("btn-timer", minutes=minutes), tr("settings-autoroll", state=ON if autoroll else OFF)]
    rows = [[InlineKeyboardButton(tr("settings-btn-lang", lang=flow.translator.t(next_lang, "settings-lang-self")),
                                  callback_data=cb.chat_setting("lang", next_lang))],
            [InlineKeyboardButton(tr("settings-btn-timer", minutes=_next(TIMER_CHOICES, minutes)),
                                  callback_data=cb.chat_setting("timer", str(_next(TIMER_CHOICES, minutes))))],
            [InlineKeyboardButton(tr("settings-btn-autoroll", state=OFF if autoroll else ON),
                                  callback_data=cb.chat_setting("auto", OFF if autoroll else ON))]]
    for code in (c for c in flow.uis if c in VARIANT_OPTION):
        ui, options = flow.uis[code], await flow.default_options(chat_id, code)
        game = html.escape(tr(f"game-{code}"))
        lines.append(tr("settings-variant", game=game, variant=ui.variant(options, tr)))
        value = _next_variant(flow, code, options, tr)
        other = set_option(options, VARIANT_OPTION[code], value)
        rows.append([InlineKeyboardButton(tr("settings-btn-variant", game=game, variant=ui.variant(other, tr)),
                                          callback_data=cb.chat_setting(VARIANT_OPTION[code], value, code))])
    whole_turn = [c for c in flow.uis if c in ROLL_IS_THE_TURN]
    games = ", ".join(tr("settings-quoted", game=html.escape(tr(f"game-{c}"))) for c in whole_turn)
    lines += ["", tr("settings-autoroll-about", games=games), tr("settings-hint")]
    return "\n".join(lines), InlineKeyboardMarkup(rows)


async def _store(flow: GameFlow, chat_id: int, data: cb.Callback) -> bool:
    """Store the pressed setting if it is one the bot offers; False for anything else."""
    store = flow.store
    if data.code:
        if VARIANT_OPTION.get(data.code) != data.key or data.code not in flow.uis:
            return False
        try:  # the engine checks the value, as for the lobby's own button
            value = getattr(set_option(await flow.default_options(chat_id, data.code), data.key, data.value),
                            data.key)
        except OptionsError:
            return False
        if data.value != _as_data(value):  # only the spelling the buttons use («1», «yes»: stale)
            return False
        defaults = (await store.chat(chat_id)).settings.get("defaults")
        defaults = dict(defaults) if isinstance(defaults, dict) else {}  # a copy: never the cached dict
        game = defaults.get(data.code)
        defaults[data.code] = {**(game if isinstance(game, dict) else {}), data.key: value}
        await store.set_chat_setting(chat_id, "defaults", defaults)
    elif data.key == "lang" and data.value in SUPPORTED:
        await store.set_chat_locale(chat_id, data.value)
    elif data.key == "timer" and data.value in {str(m) for m in TIMER_CHOICES}:
        await store.set_chat_setting(chat_id, "turn_timer", int(data.value))
    elif data.key == "auto" and data.value in (ON, OFF):
        await store.set_chat_setting(chat_id, "autoroll", data.value == ON)
    else:
        return False
    return True


async def press(flow: GameFlow, bot: Bot, chat_id: int, message_id: int | None, data: cb.Callback) -> Reply:
    """An admin's press: store the setting and show the message again (in the new language, if
    that changed); the caller checked the rights and holds the chat's lock."""
    if not await _store(flow, chat_id, data):
        return Reply((await flow.tr(chat_id))("toast-stale"))
    tr = await flow.tr(chat_id)
    reply = Reply(tr("toast-setting-changed"))
    if message_id is not None:
        text, keyboard = await view(flow, chat_id)
        reply.after = lambda: flow.edit_text(bot, chat_id, message_id, text, keyboard)
    return reply

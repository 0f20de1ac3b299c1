"""Thin Telegram handlers: parse the update, check who may do it, call :class:`GameFlow`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import (
    Chat,
    ChatMember,
    ChatMemberRestricted,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.ext import ContextTypes

from bot import callback_data as cb
from bot import settings as chat_settings
from bot.flow import GameFlow, Reply
from bot.games.common import Tr, set_option
from bot.store import Seat, StorageError
from bot.texts import TALLY_LINES, display_name, option_error, tally_lines
from engines.base import OptionsError
from locales import SUPPORTED

log = logging.getLogger(__name__)
GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)
ADMINS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


def flow_of(context: ContextTypes.DEFAULT_TYPE) -> GameFlow:
    """The application's GameFlow (made in post_init)."""
    return context.bot_data["flow"]


def _player(user: User) -> Seat:
    return Seat(seat=-1, user_id=user.id, name=display_name(user.first_name, user.last_name))


async def _is_admin(context: ContextTypes.DEFAULT_TYPE, chat: Chat, message: Message | None,
                    user: User) -> bool:
    """Whether the user administers the chat (anonymous admins post as the chat itself)."""
    if message is not None and message.sender_chat is not None and message.sender_chat.id == chat.id:
        return True
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError:
        return False
    return member.status in ADMINS


async def send_reply(update: Update, context: ContextTypes.DEFAULT_TYPE, text: str,
                     markup: InlineKeyboardMarkup | None = None, to: int | None = None) -> None:
    """Answer in the update's chat (as a reply to ``to`` or the message); a refusal is logged."""
    chat = update.effective_chat
    if chat is None:
        return
    reply_to = to if to is not None else (update.effective_message.message_id if update.effective_message else None)
    try:
        await context.bot.send_message(chat.id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                       reply_to_message_id=reply_to, allow_sending_without_reply=True)
    except TelegramError as exc:
        log.warning("chat %s: reply failed: %s", chat.id, exc)
        flow_of(context).chat_refused(context.bot, chat.id, exc)


def _usable(update: Update) -> tuple[Chat, User] | None:
    """The chat and a human sender, or None for updates the bot ignores (bots, channels).

    An anonymous admin writes as the group itself (sender_chat), from Telegram's placeholder
    bot account: that is a person, and _is_admin knows them by the sender_chat."""
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or chat.type == ChatType.CHANNEL:
        return None
    anonymous_admin = message is not None and message.sender_chat is not None and message.sender_chat.id == chat.id
    if user.is_bot and not anonymous_admin:
        return None
    return chat, user


@dataclass(frozen=True, slots=True)
class _Command:
    """A command from a human, with what every command handler needs."""

    chat: Chat
    user: User
    flow: GameFlow
    tr: Tr
    args: list[str]


async def command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> _Command | None:
    """A command from a person, with its chat, flow, language and arguments; None to ignore it."""
    if (who := _usable(update)) is None:
        return None
    chat, user = who
    flow = flow_of(context)
    return _Command(chat, user, flow, await flow.tr(chat.id), list(context.args or []))


async def group_command(update: Update, context: ContextTypes.DEFAULT_TYPE,
                        refusal: str = "groups-only") -> _Command | None:
    """A command that only works in a group; anywhere else the sender is told so (``refusal``)."""
    if (cmd := await command(update, context)) is None:
        return None
    if cmd.chat.type not in GROUPS:
        await send_reply(update, context, cmd.tr(refusal))
        return None
    return cmd


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start: in a private chat, explain how to add the bot to a group."""
    if (cmd := await command(update, context)) is None:
        return
    chat, tr = cmd.chat, cmd.tr
    if chat.type in GROUPS:
        await send_reply(update, context, tr("help-text"))
        return
    url = f"https://t.me/{context.bot.username}?startgroup=play"
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(tr("btn-add-to-group"), url=url)]])
    await send_reply(update, context, tr("start-private"), markup)


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/help: what the bot does and its commands."""
    if (cmd := await command(update, context)) is not None:
        await send_reply(update, context, cmd.tr("help-text"))


async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/newgame [code]: the game picker, or straight to a lobby."""
    if (cmd := await group_command(update, context)) is None:
        return
    chat, user, flow, tr, args = cmd.chat, cmd.user, cmd.flow, cmd.tr, cmd.args
    if user.is_bot:  # an anonymous admin: presses come from their own account, so no seat is theirs
        await send_reply(update, context, tr("anonymous-cannot-play"))
        return
    async with flow.lock(chat.id):
        active = await flow.store.active_game(chat.id)
        if active is not None:
            await send_reply(update, context, tr("game-exists", game=tr(f"game-{active.code}")), to=active.message_id)
            return
        if not args:
            rows = [[InlineKeyboardButton(tr(f"game-{code}"), callback_data=cb.picker(code))] for code in flow.uis]
            await send_reply(update, context, tr("picker-title"), InlineKeyboardMarkup(rows))
            return
        code = args[0].lower()
        if code not in flow.uis:
            await send_reply(update, context, tr("unknown-game", codes=", ".join(flow.uis)))
            return
        await flow.open_lobby(context.bot, chat.id, code, _player(user))


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/rules [code]: the rules of the named or current game."""
    if (cmd := await command(update, context)) is None:
        return
    chat, flow, tr, args = cmd.chat, cmd.flow, cmd.tr, cmd.args
    code = args[0].lower() if args else None
    if code is None:
        active = await flow.store.active_game(chat.id)
        code = active.code if active else None
    if code is None and len(flow.uis) == 1:
        code = next(iter(flow.uis))
    if code is None:
        await send_reply(update, context, tr("rules-which", commands=", ".join(f"/rules {c}" for c in flow.uis)))
        return
    if code not in flow.uis:
        await send_reply(update, context, tr("unknown-game", codes=", ".join(flow.uis)))
        return
    await send_reply(update, context, tr(f"rules-{code}"))


async def lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/lang ru|en: the chat's language (admins only in groups)."""
    if (cmd := await command(update, context)) is None:
        return
    chat, user, flow, tr, args = cmd.chat, cmd.user, cmd.flow, cmd.tr, cmd.args
    if len(args) != 1 or args[0].lower() not in SUPPORTED:
        await send_reply(update, context, tr("lang-usage", langs=" | ".join(SUPPORTED)))
        return
    if chat.type in GROUPS and not await _is_admin(context, chat, update.effective_message, user):
        await send_reply(update, context, tr("admins-only"))
        return
    await flow.store.set_chat_locale(chat.id, args[0].lower())
    tr = await flow.tr(chat.id)
    await send_reply(update, context, tr("lang-set"))


async def settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/settings: the chat's defaults for new lobbies, with buttons to switch them (admins, groups)."""
    if (cmd := await group_command(update, context, "settings-groups-only")) is None:
        return
    chat, user, flow, tr = cmd.chat, cmd.user, cmd.flow, cmd.tr
    if not await _is_admin(context, chat, update.effective_message, user):
        await send_reply(update, context, tr("admins-only"))
        return
    await send_reply(update, context, *await chat_settings.view(flow, chat.id))


async def stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/stop: the host or an admin ends the lobby or game."""
    if (cmd := await command(update, context)) is None:
        return
    chat, user, flow, tr = cmd.chat, cmd.user, cmd.flow, cmd.tr
    async with flow.lock(chat.id):
        game = await flow.store.active_game(chat.id)
        if game is None:
            await send_reply(update, context, tr("no-game"))
            return
        if user.id != game.host_id and not await _is_admin(context, chat, update.effective_message, user):
            await send_reply(update, context, tr("stop-denied"))
            return
        if await flow.stop(context.bot, game):
            await send_reply(update, context, tr("stopped", game=tr(f"game-{game.code}")))


async def leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/leave: leave the running game; a bot takes the seat (in «Охота на львов» you resign)."""
    if (cmd := await command(update, context)) is None:
        return
    chat, user, flow, tr = cmd.chat, cmd.user, cmd.flow, cmd.tr
    async with flow.lock(chat.id):
        game = await flow.store.active_game(chat.id)
        if game is None or game.status != "running":
            await send_reply(update, context, tr("leave-no-game"))
            return
        seat = game.seat_of(user.id)
        if seat is None:
            await send_reply(update, context, tr("leave-not-a-player"))
            return
        await send_reply(update, context, await flow.leave_game(context.bot, game, seat))


async def kick(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/kick: the host or an admin skips the person to move for good (a bot takes the seat)."""
    if (cmd := await command(update, context)) is None:
        return
    chat, user, flow, tr = cmd.chat, cmd.user, cmd.flow, cmd.tr
    async with flow.lock(chat.id):
        game = await flow.store.active_game(chat.id)
        if game is None or game.status != "running" or game.state is None:
            await send_reply(update, context, tr("leave-no-game"))
            return
        if user.id != game.host_id and not await _is_admin(context, chat, update.effective_message, user):
            await send_reply(update, context, tr("kick-denied"))
            return
        seat = flow.person_to_move(game)
        if seat is None:
            await send_reply(update, context, tr("kick-nobody"))
            return
        await send_reply(update, context, await flow.leave_game(context.bot, game, seat))


async def tally(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/tally [reset]: who has paid how many pub rounds here; admins may reset it."""
    if (cmd := await command(update, context)) is None:
        return
    chat, user, flow, tr, args = cmd.chat, cmd.user, cmd.flow, cmd.tr, cmd.args
    if args and args[0].lower() == "reset":
        if chat.type in GROUPS and not await _is_admin(context, chat, update.effective_message, user):
            await send_reply(update, context, tr("admins-only"))
            return
        await flow.store.reset_pub_tally(chat.id)
        await send_reply(update, context, tr("pub-tally-reset"))
        return
    rows = await flow.store.pub_tally(chat.id)
    if not rows:
        await send_reply(update, context, tr("pub-tally-empty"))
        return
    await send_reply(update, context, "\n".join(tally_lines(rows, TALLY_LINES, tr)))


async def set_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/set <option> <value>: the lobby host sets any option value, e.g. /set chips 17."""
    if (cmd := await command(update, context)) is None:
        return
    chat, user, flow, tr, args = cmd.chat, cmd.user, cmd.flow, cmd.tr, cmd.args
    async with flow.lock(chat.id):
        game = await flow.store.active_game(chat.id)
        if game is None or game.status != "lobby":
            await send_reply(update, context, tr("set-no-lobby"))
            return
        if len(args) != 2:
            await send_reply(update, context, tr("set-usage"))
            return
        admin = user.id != game.host_id and await _is_admin(context, chat, update.effective_message, user)
        if user.id != game.host_id and not admin:
            await send_reply(update, context, tr("toast-host-only"))
            return
        try:
            options = flow.engines[game.code].options_from_json(game.options)
            set_option(options, args[0].lower()[:24], args[1][:24])
        except OptionsError as exc:
            await send_reply(update, context, option_error(exc, tr))
            return
        reply = await flow.lobby_action(context.bot, game, user.id, "", "set", args[0].lower(), args[1],
                                        is_admin=True)
        await reply.finish()
        await send_reply(update, context, reply.text)


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every inline button: parse the data, check it, act, and always answer the query."""
    query = update.callback_query
    if query is None:
        return
    answered = False

    async def answer(reply: Reply) -> None:
        nonlocal answered
        answered = True
        for attempt in (1, 2):  # a 5xx is tried once more: the button spins until answered
            try:
                await query.answer(reply.text[:200] or None, show_alert=reply.alert)
                return
            except TimedOut as exc:  # it may well have arrived, and a query is answered only once
                log.info("answerCallbackQuery timed out: %s", exc)
                return
            except NetworkError as exc:
                log.info("answerCallbackQuery failed (attempt %d): %s", attempt, exc)
            except TelegramError as exc:
                log.info("answerCallbackQuery failed: %s", exc)
                return

    try:
        await _dispatch_button(update, context, answer)
    except StorageError as exc:  # nothing was stored: say so, and the press can simply be tried again
        chat = query.message.chat if query.message is not None else None
        storage_failed(exc, f"a button press in chat {chat.id if chat else '?'}")
        if not answered and chat is not None:
            await answer(Reply((await safe_tr(flow_of(context), chat.id))("storage-error"), alert=True))
    finally:
        if not answered:  # an unexpected error: still never leave the button spinning
            await answer(Reply())


async def _dispatch_button(update: Update, context: ContextTypes.DEFAULT_TYPE,
                           answer: Callable[[Reply], Awaitable[None]]) -> None:
    """Answer the press and, alongside (under the chat's lock), make the edits that follow from it."""
    query = update.callback_query
    assert query is not None
    flow = flow_of(context)
    message = query.message
    chat = message.chat if message is not None else None
    if chat is None:
        await answer(Reply(flow.translator.t(flow.config.default_locale, "toast-stale")))
        return
    tr = await flow.tr(chat.id)
    if chat.type not in GROUPS:
        await answer(Reply(tr("groups-only")))
        return
    data = cb.parse(query.data)
    if data is None or query.from_user.is_bot:
        await answer(Reply(tr("toast-stale")))
        return
    async with flow.lock(chat.id):
        reply = await _button_reply(context, flow, tr, chat, query.from_user, data, message)
        # the toast goes out while the table is drawn: neither waits for the other's round trip
        await asyncio.gather(answer(reply), reply.finish())


async def _button_reply(context: ContextTypes.DEFAULT_TYPE, flow: GameFlow, tr: Tr, chat: Chat, user: User,
                        data: cb.Callback, message: Message | None) -> Reply:
    """What a parsed press does; the caller holds the chat's lock."""
    if data.kind == "n":
        if data.code not in flow.uis:
            return Reply(tr("toast-stale"))
        if await flow.store.active_game(chat.id) is not None:
            return Reply(tr("toast-game-exists"), alert=True)
        game = await flow.open_lobby(context.bot, chat.id, data.code, _player(user))
        if game is not None and message is not None:
            with contextlib.suppress(TelegramError):  # if it fails the picker just stays
                await context.bot.delete_message(chat.id, message.message_id)
        return Reply(tr("toast-lobby-open"))
    if data.kind == "s":  # /settings: the chat's admins only (issue #11)
        if not await _is_admin(context, chat, None, user):
            return Reply(tr("admins-only"))
        return await chat_settings.press(flow, context.bot, chat.id, message.message_id if message else None, data)
    game = await flow.store.game(data.game_id)
    if game is None or game.chat_id != chat.id:
        return Reply(tr("toast-stale"))
    if data.kind == "l":
        if game.status != "lobby":
            return Reply(tr("toast-stale"))
        admin = False
        if data.command in ("set", "cancel", "start", "ai", "bot", "unbot", "timer") and user.id != game.host_id:
            admin = await _is_admin(context, chat, None, user)
        return await flow.lobby_action(context.bot, game, user.id, _player(user).name, data.command,
                                       data.key, data.value, is_admin=admin)
    if data.kind == "g":
        return await flow.act(context.bot, game, user.id, data.version, data.code)
    if data.kind == "r":
        return await flow.rematch(context.bot, game, user.id)
    if data.kind == "k":
        if user.id != game.host_id and not await _is_admin(context, chat, None, user):
            return Reply(tr("kick-denied"))
        return await flow.kick(context.bot, game, data.version)
    return Reply(tr("toast-stale"))


async def on_my_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was kicked, muted or let back in: pause the chat's game, or go on with it."""
    change = update.my_chat_member
    if change is None or change.chat.type not in GROUPS:
        return
    flow, member = flow_of(context), change.new_chat_member
    if _may_post(member):
        await flow.chat_back(context.bot, change.chat.id)
    else:
        await flow.chat_lost(change.chat.id, f"the bot is {member.status} there")


def _may_post(member: ChatMember) -> bool:
    """Whether the bot, as this member of a group, may post the table there (text and photos)."""
    if member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        return False
    if isinstance(member, ChatMemberRestricted):
        return member.is_member and member.can_send_messages and member.can_send_photos
    return True


async def on_migration(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The group became a supergroup: its games, settings and tally move to the new chat id."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    await flow_of(context).migrate_chat(context.bot, old, new)


def storage_failed(exc: StorageError, doing: str) -> None:
    """The one log line of a database failure (the traceback says nothing the message does not)."""
    log.error("storage failed (%s) during %s; nothing was stored", exc, doing)


async def safe_tr(flow: GameFlow, chat_id: int) -> Tr:
    """The chat's language, or the default one when the database cannot say."""
    try:
        return await flow.tr(chat_id)
    except StorageError:
        return lambda key, /, **args: flow.translator.t(flow.config.default_locale, key, **args)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log unexpected errors once; the update's game is untouched (its transaction rolled back)."""
    if isinstance(context.error, StorageError) and isinstance(update, Update):
        chat = update.effective_chat
        storage_failed(context.error, f"a command in chat {chat.id if chat else '?'}")
        if chat is not None:
            await send_reply(update, context, (await safe_tr(flow_of(context), chat.id))("storage-error"))
        return
    log.error("error while handling an update: %s", context.error, exc_info=context.error)

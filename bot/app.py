"""`build_application`: every handler, the storage and the translator wired in one place."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any, TypeAlias

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeDefault, Update
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    ExtBot,
    Job,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import handlers, redelivery, stats
from bot.chat_updates import ChatUpdateProcessor
from bot.config import Config
from bot.drawing import Drawing
from bot.flow import BrokenGame, GameFlow
from bot.flow.expiry import SWEEP_EVERY_S
from bot.games import GAMES, Registry
from bot.http import AiohttpRequest
from bot.metrics import Metrics
from bot.outbox import Outbox
from bot.ratelimit import ChatLimiter
from bot.store import StorageError, open_store
from locales import SUPPORTED, Translator

log = logging.getLogger(__name__)
# the application as build_application makes it (PTB's default data types; its bot, context and job queue
# as PTB types them, which a job's context.application does not narrow further)
BotApp: TypeAlias = Application[ExtBot[Any], Any, dict[Any, Any], dict[Any, Any], dict[Any, Any], Any]
HTTP_CONNECTIONS = 32  # calls in flight at once; more wait for a free connection
READ_TIMEOUT_S = 5.0  # a Bot API answer later than this is a timeout (the call may still have taken effect)
STORAGE_RETRY_S = 30.0  # a timer or the start-up catch-up that met a database failure tries again after this
# my_chat_member: the bot was kicked, restricted or let back in
ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member")
COMMANDS = ("newgame", "rules", "table", "stop", "leave", "kick", "lang", "tally", "set", "stats", "top", "history",
            "verify", "replay", "settings", "help")


def build_application(config: Config, translator: Translator | None = None, games: Registry = GAMES) -> BotApp:
    """The PTB application for ``config`` offering ``games``; storage opens in post_init, closes in post_shutdown."""
    translator = translator or Translator.load(default=config.default_locale, extra=games.locale_files())
    limiter = ChatLimiter(group_max_rate=config.group_max_rate, group_time_period=config.group_time_period,
                          overall_max_rate=config.overall_max_rate, private_max_rate=config.private_max_rate,
                          max_retries=config.rate_limit_retries)
    metrics = Metrics.for_app(games, config.poll_timeout, config.metrics_port)  # None: METRICS_PORT unset
    on_call = metrics.telegram_call if metrics is not None else None
    updates = ChatUpdateProcessor()
    if metrics is not None:
        updates.on_dropped = metrics.updates_dropped.inc
    app = (
        ApplicationBuilder()
        .token(config.token)
        .base_url(config.base_url)
        .base_file_url(config.base_file_url)
        .rate_limiter(limiter)
        .request(AiohttpRequest(HTTP_CONNECTIONS, read_timeout=READ_TIMEOUT_S, on_call=on_call))
        .get_updates_request(AiohttpRequest(1, read_timeout=config.poll_timeout + 10, on_call=on_call))
        .concurrent_updates(updates)
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
        .build()
    )
    app.bot_data["config"] = config
    app.bot_data["translator"] = translator
    app.bot_data["games"] = games
    app.bot_data["metrics"] = metrics
    only_new = filters.UpdateType.MESSAGE  # edited messages and channel posts are ignored
    app.add_handler(TypeHandler(Update, redelivery.stop_if_handled), group=redelivery.FIRST)
    app.add_handler(TypeHandler(Update, redelivery.record_if_unchanged), group=redelivery.LAST)
    app.add_handler(CommandHandler("start", handlers.start, filters=only_new))
    app.add_handler(CommandHandler("help", handlers.help_command, filters=only_new))
    app.add_handler(CommandHandler("newgame", handlers.newgame, filters=only_new))
    app.add_handler(CommandHandler("rules", handlers.rules, filters=only_new))
    app.add_handler(CommandHandler("lang", handlers.lang, filters=only_new))
    app.add_handler(CommandHandler("stop", handlers.stop, filters=only_new))
    app.add_handler(CommandHandler("leave", handlers.leave, filters=only_new))
    app.add_handler(CommandHandler("table", handlers.table, filters=only_new))
    app.add_handler(CommandHandler("kick", handlers.kick, filters=only_new))
    app.add_handler(CommandHandler("tally", handlers.tally, filters=only_new))
    app.add_handler(CommandHandler("set", handlers.set_command, filters=only_new))
    app.add_handler(CommandHandler("settings", handlers.settings_command, filters=only_new))
    app.add_handler(CommandHandler("stats", stats.stats, filters=only_new))
    app.add_handler(CommandHandler("top", stats.top, filters=only_new))
    app.add_handler(CommandHandler("history", stats.history, filters=only_new))
    app.add_handler(CommandHandler("verify", handlers.verify, filters=only_new))
    app.add_handler(CommandHandler("replay", handlers.replay, filters=only_new))
    app.add_handler(CallbackQueryHandler(handlers.on_button))
    app.add_handler(ChatMemberHandler(handlers.on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.on_migration))
    app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED, handlers.on_topic_closed))
    app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_REOPENED, handlers.on_topic_reopened))
    app.add_error_handler(handlers.on_error)
    return app


async def start_app(app: BotApp, poll_timeout: int) -> None:
    """Start ``app`` in the running loop the way run_polling does: initialize, post_init, polling, handlers.

    For a bot that shares its loop with something else (the playground, the tests).
    """
    await app.initialize()
    if app.post_init is not None:
        await app.post_init(app)
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=poll_timeout, allowed_updates=list(ALLOWED_UPDATES))
    await app.start()


async def stop_app(app: BotApp) -> None:
    """Stop ``app`` the way SIGTERM does: stop polling, let handlers finish, close storage."""
    assert app.updater is not None
    await app.updater.stop()
    await app.stop()
    if app.post_shutdown is not None:
        await app.post_shutdown(app)
    await app.shutdown()


async def _post_init(app: BotApp) -> None:
    config: Config = app.bot_data["config"]
    translator: Translator = app.bot_data["translator"]
    store = await open_store(config.database)
    metrics: Metrics | None = app.bot_data.get("metrics")
    if metrics is not None:
        store = metrics.timed(store)
    limiter = app.bot.rate_limiter
    budget = limiter if isinstance(limiter, ChatLimiter) else None
    if budget is not None:
        budget.slow_mode_of = lambda chat_id: slow_mode_delay(app, chat_id)
    flow = GameFlow(config, store, translator, app.bot, app.bot_data["games"], outbox=Outbox(budget),
                    drawing=Drawing(config.draw_processes))
    app.bot_data["flow"] = flow
    app.bot_data[redelivery.KEY] = await redelivery.Redelivery.opened(lambda: flow.store)
    await register_commands(app, translator, config.default_locale)
    flow.arm = lambda game_id, when: arm_deadline(app, game_id, when - flow.clock())
    assert app.job_queue is not None
    # after a restart there may be many tables to redraw and turns to play: do it once polling
    # runs, so new presses are not kept waiting behind it (the chat locks keep the two apart)
    app.job_queue.run_once(_catch_up, when=0, name="catch-up")
    app.job_queue.run_repeating(_expire_idle, interval=SWEEP_EVERY_S, first=SWEEP_EVERY_S, name="expiry")
    if metrics is not None and config.metrics_port is not None:
        await metrics.serve(flow, config.metrics_listen, config.metrics_port)


async def slow_mode_delay(app: BotApp, chat_id: int) -> int:
    """The group's slow mode in seconds between messages (0: off), as getChat tells it."""
    delay = (await app.bot.get_chat(chat_id)).slow_mode_delay or 0
    return int(delay.total_seconds()) if isinstance(delay, dt.timedelta) else delay


async def _expire_idle(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Close idle lobbies and stop abandoned games (once a minute)."""
    flow: GameFlow = context.application.bot_data["flow"]
    try:
        closed = await flow.expire_idle()
        await flow.store.forget_updates(flow.clock() - redelivery.KEEP_S)
        if closed:
            log.info("closed %d idle lobbies and games", closed)
    except StorageError as exc:  # the next sweep tries again
        log.error("storage failed (%s) while looking for idle games", exc)


async def _catch_up(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Redraw tables a crash left behind, play turns whose timer ran out while down, arm the rest."""
    flow: GameFlow = context.application.bot_data["flow"]
    try:
        await flow.drawing.warm()
        repaired, armed = await flow.catch_up_after_start()
        if repaired:
            log.info("re-sent %d table messages left behind by a restart", repaired)
        if armed:
            log.info("re-armed %d turn timers", armed)
    except StorageError as exc:
        log.error("storage failed (%s) while catching up after start-up; trying again in %.0f s",
                  exc, STORAGE_RETRY_S)
        assert context.job_queue is not None
        context.job_queue.run_once(_catch_up, when=STORAGE_RETRY_S, name="catch-up")
    except Exception:  # the games stay as stored; their next press or timer goes on from there
        log.exception("catching up after start-up failed")
    finally:
        flow.caught_up.set()


def arm_deadline(app: BotApp, game_id: int, delay: float) -> None:
    """(Re)schedule the game's turn timer on PTB's JobQueue, replacing an earlier one."""
    assert app.job_queue is not None
    # not get_jobs_by_name: it scans every job. Bounded by the running games: one entry per armed timer,
    # gone when it rings (a game that ends meanwhile still lets it ring, and the flow finds nothing due)
    armed: dict[int, Job[Any]] = app.bot_data.setdefault("deadlines", {})
    old = armed.pop(game_id, None)
    if old is not None and not old.removed:
        old.schedule_removal()
    armed[game_id] = app.job_queue.run_once(_deadline_due, when=max(0.0, delay), data=game_id,
                                            name=f"deadline:{game_id}")


async def _deadline_due(context: ContextTypes.DEFAULT_TYPE) -> None:
    """A turn timer ran out: let the flow play the turn (it re-checks that it is still due)."""
    flow: GameFlow = context.application.bot_data["flow"]
    assert context.job is not None and isinstance(context.job.data, int)
    armed: dict[int, Job[Any]] = context.application.bot_data.get("deadlines", {})
    if armed.get(context.job.data) is context.job:
        del armed[context.job.data]
    try:
        await flow.on_deadline(context.job.data)
    except StorageError as exc:  # the turn is not played yet: try again a little later
        log.error("storage failed (%s) at game %s's turn timer; trying again in %.0f s",
                  exc, context.job.data, STORAGE_RETRY_S)
        arm_deadline(context.application, context.job.data, STORAGE_RETRY_S)
    except BrokenGame:  # quarantined when the timer met it: that game has no turn to play
        pass
    except Exception:  # a job must not die silently: log it, the game stays as stored
        log.exception("turn timer of game %s failed", context.job.data)


async def register_commands(app: BotApp, translator: Translator, default: str) -> None:
    """setMyCommands in every language, plus the default list in the default language."""
    for lang in (None, *SUPPORTED):
        shown = lang or default
        commands = [BotCommand(c, translator.t(shown, f"cmd-{c}")) for c in COMMANDS]
        for scope in (BotCommandScopeDefault(), BotCommandScopeAllGroupChats()):
            try:
                await app.bot.set_my_commands(commands, scope=scope, language_code=lang)
            except TelegramError as exc:
                log.warning("setMyCommands(%s) failed: %s", lang, exc)


async def _post_shutdown(app: BotApp) -> None:
    metrics: Metrics | None = app.bot_data.get("metrics")
    if metrics is not None:
        await metrics.close()
    flow: GameFlow | None = app.bot_data.get("flow")
    if flow is not None:
        await flow.close()
        await flow.store.close()

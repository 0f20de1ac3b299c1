"""Bot API method implementations of the fake server (one ``api_*`` coroutine per method)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

from .models import ApiError, FakeChat, JSONDict, StoredMessage, bad_request
from .parsing import MAX_CAPTION, MAX_TEXT, Formatted, check_markup, format_text
from .world import DEFAULT_ALLOWED_UPDATES, WorldState

Handler = Callable[["BotApiMethods", JSONDict, dict[str, bytes]], Awaitable[Any]]
METHODS: dict[str, tuple[str, Handler]] = {}
"""Lower-cased method name -> (canonical name, handler); Telegram matches names case-insensitively."""

RATE_LIMITED = frozenset({
    "sendMessage", "sendPhoto", "editMessageText", "editMessageCaption", "editMessageMedia",
    "editMessageReplyMarkup",
})
CHAT_ACTIONS = frozenset({
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
    "upload_document", "choose_sticker", "find_location", "record_video_note",
    "upload_video_note",
})
_COMMAND_RE = re.compile(r"[a-z0-9_]{1,32}")
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
NO_RIGHTS_TEXT = "not enough rights to send text messages to the chat"
NO_RIGHTS_PHOTO = "not enough rights to send photos to the chat"
NO_RIGHTS_EDIT = "have no rights to send a message"


def api_method(name: str) -> Callable[[Handler], Handler]:
    """Register a coroutine as the implementation of Bot API method ``name``."""

    def register(func: Handler) -> Handler:
        METHODS[name.lower()] = (name, func)
        return func

    return register


def _message_text(p: JSONDict, too_long: str) -> Formatted:
    """The ``text`` parameter parsed like Telegram, rejected when empty or over 4096."""
    text = p.get("text")
    formatted = format_text(text if isinstance(text, str) else "", p.get("parse_mode"), p.get("entities"))
    if not formatted.text:
        raise bad_request("message text is empty")
    if formatted.length > MAX_TEXT:
        raise bad_request(too_long)
    return formatted


def _caption(p: JSONDict, too_long: str) -> Formatted:
    """The ``caption`` parameter parsed like Telegram, rejected when over 1024."""
    caption = p.get("caption")
    formatted = format_text(caption if isinstance(caption, str) else "", p.get("parse_mode"),
                            p.get("caption_entities"))
    if formatted.length > MAX_CAPTION:
        raise bad_request(too_long)
    return formatted


class BotApiMethods(WorldState):
    """The Bot API surface: every handler takes decoded params and uploaded files."""

    def __init__(self, token: str, bot_username: str, bot_first_name: str | None) -> None:
        super().__init__(token, bot_username, bot_first_name)
        self.delivered_at: dict[int, float] = {}
        """update_id -> ``clock()`` when a getUpdates answer first carried it (benchmarks)."""

    # ------------------------------------------------------------------ bot and updates

    @api_method("getMe")
    async def _api_get_me(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        return {**self.bot.to_dict(), "can_join_groups": True,
                "can_read_all_group_messages": not self.privacy_mode,
                "supports_inline_queries": False, "can_connect_to_business": False,
                "has_main_web_app": False}

    @api_method("getUpdates")
    async def _api_get_updates(self, p: JSONDict, files: dict[str, bytes]) -> list[JSONDict]:
        allowed = p.get("allowed_updates")
        if allowed is not None:
            if not isinstance(allowed, list) or not all(isinstance(a, str) for a in allowed):
                raise bad_request("can't parse allowed_updates JSON object")
            self._allowed_updates = frozenset(allowed) or DEFAULT_ALLOWED_UPDATES
        offset = p.get("offset") or 0
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]
        rejected = [u for u in self._updates if self._update_type(u) not in self._allowed_updates]
        if rejected:
            self.dropped_updates.extend(rejected)
            self._updates = self._deliverable()
        limit = min(max(int(p.get("limit") or 100), 1), 100)
        timeout = max(float(p.get("timeout") or 0), 0.0)
        self._poll_generation += 1
        generation = self._poll_generation
        await self._notify()  # lets an older long poll notice the conflict
        if not self._updates and timeout > 0 and not self._closing:
            async with self._changed:
                self._waiting_pollers += 1
                self._changed.notify_all()
                try:
                    await asyncio.wait_for(self._changed.wait_for(
                        lambda: bool(self._deliverable()) or self._closing
                        or generation != self._poll_generation), timeout)
                except TimeoutError:
                    pass
                finally:
                    self._waiting_pollers -= 1
        if generation != self._poll_generation:
            raise ApiError(409, "Conflict: terminated by other getUpdates request; make sure "
                                "that only one bot instance is running", violation=False)
        batch = self._deliverable()[:limit]
        if batch:
            self._delivered_upto = max(self._delivered_upto, batch[-1]["update_id"])
            now = self.clock()
            for update in batch:
                self.delivered_at.setdefault(update["update_id"], now)
        return batch

    @api_method("deleteWebhook")
    async def _api_delete_webhook(self, p: JSONDict, files: dict[str, bytes]) -> bool:
        if p.get("drop_pending_updates"):
            self.dropped_updates.extend(self._updates)
            self._updates = []
        return True

    @api_method("getWebhookInfo")
    async def _api_get_webhook_info(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        return {"url": "", "has_custom_certificate": False,
                "pending_update_count": len(self._updates)}

    @api_method("close")
    async def _api_close(self, p: JSONDict, files: dict[str, bytes]) -> bool:
        return True

    @api_method("logOut")
    async def _api_log_out(self, p: JSONDict, files: dict[str, bytes]) -> bool:
        return True

    # ------------------------------------------------------------------ commands

    @api_method("setMyCommands")
    async def _api_set_my_commands(self, p: JSONDict, files: dict[str, bytes]) -> bool:
        commands = p.get("commands")
        if not isinstance(commands, list):
            raise bad_request("can't parse commands JSON object")
        if len(commands) > 100:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        for cmd in commands:
            if not isinstance(cmd, dict) or not _COMMAND_RE.fullmatch(str(cmd.get("command"))):
                raise bad_request("BOT_COMMAND_INVALID")
            description = cmd.get("description")
            if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        key = (self._scope_key(p.get("scope")), self._language(p))
        self.commands[key] = [{"command": c["command"], "description": c["description"]}
                              for c in commands]
        return True

    @api_method("getMyCommands")
    async def _api_get_my_commands(self, p: JSONDict, files: dict[str, bytes]) -> list[JSONDict]:
        return list(self.commands.get((self._scope_key(p.get("scope")), self._language(p)), []))

    @api_method("deleteMyCommands")
    async def _api_delete_my_commands(self, p: JSONDict, files: dict[str, bytes]) -> bool:
        self.commands.pop((self._scope_key(p.get("scope")), self._language(p)), None)
        return True

    @staticmethod
    def _language(p: JSONDict) -> str:
        code = p.get("language_code") or ""
        if not isinstance(code, str) or not re.fullmatch(r"([a-z]{2})?", code):
            raise bad_request("invalid language code specified")
        return code

    # ------------------------------------------------------------------ chats

    @api_method("getChat")
    async def _api_get_chat(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        chat = self._bot_chat(p.get("chat_id"))
        return {**chat.to_dict(), "accent_color_id": 0, "max_reaction_count": 11,
                "accepted_gift_types": {"unlimited_gifts": False, "limited_gifts": False,
                                        "unique_gifts": False, "premium_subscription": False,
                                        "gifts_from_channels": False}}

    @api_method("getChatMember")
    async def _api_get_chat_member(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        chat = self._bot_chat(p.get("chat_id"))
        user_id = p.get("user_id", 0)
        user = self.bot if user_id == self.bot.id else self.users.get(user_id)
        if user is None:
            raise bad_request("user not found")
        return self._member_dict(chat, user)

    @api_method("getChatAdministrators")
    async def _api_get_chat_administrators(
        self, p: JSONDict, files: dict[str, bytes]
    ) -> list[JSONDict]:
        chat = self._bot_chat(p.get("chat_id"))
        if not chat.is_group:
            raise bad_request("there are no administrators in the private chat")
        ids = ([chat.creator] if chat.creator is not None else []) + sorted(chat.admins)
        admins = [self._member_dict(chat, self.users[i]) for i in ids if i in self.users]
        if chat.bot_status == "administrator":
            admins.append(self._member_dict(chat, self.bot))
        return admins

    @api_method("sendChatAction")
    async def _api_send_chat_action(self, p: JSONDict, files: dict[str, bytes]) -> bool:
        self._chat_for_send(p.get("chat_id"))
        if p.get("action") not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        return True

    # ------------------------------------------------------------------ sending

    @api_method("sendMessage")
    async def _api_send_message(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        chat = self._chat_for_send(p.get("chat_id"))
        self._require_send_right(chat, NO_RIGHTS_TEXT)
        formatted = _message_text(p, too_long="message is too long")
        markup = check_markup(p.get("reply_markup"), inline_only=False)
        message = self._new_message(
            chat, self.bot, text=formatted.text, entities=formatted.entity_dicts(),
            reply_markup=markup, parse_mode=p.get("parse_mode"), reply_to=self._reply_target(chat, p),
        )
        return message.to_dict()

    @api_method("sendPhoto")
    async def _api_send_photo(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        chat = self._chat_for_send(p.get("chat_id"))
        self._require_send_right(chat, NO_RIGHTS_PHOTO)
        photo = self._resolve_photo(p.get("photo"), files, "photo")
        caption = _caption(p, too_long="message caption is too long")
        markup = check_markup(p.get("reply_markup"), inline_only=False)
        message = self._new_message(
            chat, self.bot, caption=caption.text, caption_entities=caption.entity_dicts(),
            photo=photo.data, photo_sizes=photo.sizes, photo_hash=photo.sha256,
            reply_markup=markup, parse_mode=p.get("parse_mode"), reply_to=self._reply_target(chat, p),
        )
        return message.to_dict()

    def _reply_target(self, chat: FakeChat, p: JSONDict) -> StoredMessage | None:
        params = p.get("reply_parameters")
        if isinstance(params, dict):
            target_id, lenient = params.get("message_id"), params.get("allow_sending_without_reply")
        else:
            target_id, lenient = p.get("reply_to_message_id"), p.get("allow_sending_without_reply")
        if target_id is None:
            return None
        target = self.messages.get(chat.id, {}).get(target_id)
        if target is None or target.deleted:
            if lenient:
                return None
            raise bad_request("message to be replied not found")
        return target

    # ------------------------------------------------------------------ editing

    def _editable(self, p: JSONDict, no_rights: str = NO_RIGHTS_EDIT) -> StoredMessage:
        if p.get("inline_message_id") is not None:
            raise bad_request("MESSAGE_ID_INVALID (inline messages are not supported by the fake)")
        chat = self._bot_chat(p.get("chat_id"))
        self._require_send_right(chat, no_rights)
        message_id = p.get("message_id")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = self.messages.get(chat.id, {}).get(message_id)
        if message is None:
            raise bad_request("message to edit not found")
        if message.deleted:
            self._note_violation(f"edit of deleted message {chat.id}/{message_id}")
            raise ApiError(400, "Bad Request: message to edit not found", violation=False)
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    def _apply_edit(self, message: StoredMessage, **fields: Any) -> JSONDict:
        for name, value in fields.items():
            setattr(message, name, value)
        message.edit_count += 1
        message.edit_date = self._now_date()
        return message.to_dict()

    @api_method("editMessageText")
    async def _api_edit_message_text(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        message = self._editable(p)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        formatted = _message_text(p, too_long="MESSAGE_TOO_LONG")  # edits word it differently
        markup = check_markup(p.get("reply_markup"), inline_only=True)
        entities = formatted.entity_dicts()
        if (formatted.text, entities, markup) == (message.text, message.entities,
                                                 message.reply_markup):
            raise bad_request(NOT_MODIFIED, violation=False)
        return self._apply_edit(message, text=formatted.text, entities=entities,
                                parse_mode=p.get("parse_mode"), reply_markup=markup)

    @api_method("editMessageCaption")
    async def _api_edit_message_caption(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        message = self._editable(p)
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        caption = _caption(p, too_long="MEDIA_CAPTION_TOO_LONG")
        markup = check_markup(p.get("reply_markup"), inline_only=True)
        entities = caption.entity_dicts()
        if (caption.text, entities, markup) == (message.caption or "", message.caption_entities,
                                               message.reply_markup):
            raise bad_request(NOT_MODIFIED, violation=False)
        return self._apply_edit(message, caption=caption.text, caption_entities=entities,
                                parse_mode=p.get("parse_mode"), reply_markup=markup)

    @api_method("editMessageMedia")
    async def _api_edit_message_media(self, p: JSONDict, files: dict[str, bytes]) -> JSONDict:
        message = self._editable(p, no_rights=NO_RIGHTS_PHOTO)  # the fake only edits in photos
        media = p.get("media")
        if not isinstance(media, dict):
            raise bad_request("can't parse InputMedia JSON object")
        if media.get("type") != "photo":
            raise bad_request(f"the fake server only supports photo media, got {media.get('type')!r}")
        photo = self._resolve_photo(media.get("media"), files, "media")
        caption = _caption(media, too_long="MEDIA_CAPTION_TOO_LONG")
        markup = check_markup(p.get("reply_markup"), inline_only=True)
        entities = caption.entity_dicts()
        if (photo.sha256, caption.text, entities, markup) == (
                message.photo_hash, message.caption or "", message.caption_entities,
                message.reply_markup):
            raise bad_request(NOT_MODIFIED, violation=False)
        return self._apply_edit(
            message, text=None, entities=[], photo=photo.data, photo_sizes=photo.sizes,
            photo_hash=photo.sha256, caption=caption.text, caption_entities=entities,
            parse_mode=media.get("parse_mode"), reply_markup=markup,
        )

    @api_method("editMessageReplyMarkup")
    async def _api_edit_message_reply_markup(
        self, p: JSONDict, files: dict[str, bytes]
    ) -> JSONDict:
        message = self._editable(p)
        markup = check_markup(p.get("reply_markup"), inline_only=True)
        if markup == message.reply_markup:
            raise bad_request(NOT_MODIFIED, violation=False)
        return self._apply_edit(message, reply_markup=markup)

    @api_method("deleteMessage")
    async def _api_delete_message(self, p: JSONDict, files: dict[str, bytes]) -> bool:
        chat = self._bot_chat(p.get("chat_id"))
        message = self.messages.get(chat.id, {}).get(p.get("message_id", 0))
        if message is None or message.deleted:
            raise bad_request("message to delete not found")
        if not message.from_bot and chat.is_group and chat.bot_status != "administrator":
            raise bad_request("message can't be deleted")
        message.deleted = True
        return True

    # ------------------------------------------------------------------ callback queries

    @api_method("answerCallbackQuery")
    async def _api_answer_callback_query(self, p: JSONDict, files: dict[str, bytes]) -> bool:
        query_id = str(p.get("callback_query_id") or "")
        handle = self.callbacks.get(query_id)
        if handle is None:
            self._note_violation(f"answerCallbackQuery for unknown query id {query_id!r}")
            raise bad_request(QUERY_TOO_OLD, violation=False)
        handle.answer_count += 1
        if handle.answered:
            self._note_violation(f"callback query {query_id} (data={handle.data!r}) answered twice")
            raise bad_request(QUERY_TOO_OLD, violation=False)
        text = p.get("text")
        if isinstance(text, str) and len(text) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        handle._resolve(dict(p))
        return True

    def _note_violation(self, text: str) -> None:
        self.violations.append(text)

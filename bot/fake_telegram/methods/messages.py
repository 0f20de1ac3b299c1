"""Bot API methods for the bot's messages: send, edit and delete text and photo messages."""

from __future__ import annotations

from typing import Any

from ..models import ApiError, FakeChat, JSONDict, StoredMessage, bad_request
from ..parsing import MAX_CAPTION, MAX_TEXT, Formatted, check_markup, format_text
from ..threads import Placement, gone_with_topic, may_write, named_topic, place, thread_param
from ..world import World
from .access import bot_chat, chat_for_send, check_deletable, require_send_right
from .files import animation_in_call, photo_in_call
from .registry import Files, api_method

RATE_LIMITED = frozenset({
    "sendMessage", "sendPhoto", "sendAnimation", "editMessageText", "editMessageCaption", "editMessageMedia",
    "editMessageReplyMarkup",
})
"""The calls Telegram counts against a group's 20 sends and edits a minute."""
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
NO_RIGHTS_TEXT = "not enough rights to send text messages to the chat"
NO_RIGHTS_PHOTO = "not enough rights to send photos to the chat"
NO_RIGHTS_ANIMATION = "not enough rights to send animations to the chat"
NO_RIGHTS_EDIT = "have no rights to send a message"


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


# ---------------------------------------------------------------------------- sending


def _chat_to_post_in(world: World, p: JSONDict, no_rights: str) -> FakeChat:
    """The chat a send goes to, once the bot may send there."""
    chat = chat_for_send(world, p)
    require_send_right(chat, no_rights)
    return chat


def _post(world: World, chat: FakeChat, p: JSONDict, **content: Any) -> JSONDict:
    """Store the bot's new message with the keyboard, topic and reply that ``p`` asks for."""
    placement = _placement(world, chat, p)
    markup = check_markup(p.get("reply_markup"), inline_only=False)
    message = world.new_message(chat, world.bot, reply_markup=markup, parse_mode=p.get("parse_mode"),
                                **placement.fields(), **content)
    return message.to_dict()


def _placement(world: World, chat: FakeChat, p: JSONDict) -> Placement:
    """Where the bot's send lands; a closed topic takes only those who manage topics, and its creator."""
    topic = named_topic(world, chat, thread_param(p))  # checked first, as the Bot API does
    placement = place(world, chat, topic, _reply_target(world, chat, p))
    landed = placement.topic
    if landed is not None and not may_write(landed, world.bot.id, chat.bot_manages_topics):
        # the bot may not have seen the forum_topic_closed update yet: no rule broken
        raise bad_request("TOPIC_CLOSED", violation=False)
    return placement


def _reply_target(world: World, chat: FakeChat, p: JSONDict) -> StoredMessage | None:
    params = p.get("reply_parameters")
    if isinstance(params, dict):
        target_id, lenient = params.get("message_id"), params.get("allow_sending_without_reply")
    else:
        target_id, lenient = p.get("reply_to_message_id"), p.get("allow_sending_without_reply")
    if target_id is None:
        return None
    target = world.messages.get(chat.id, {}).get(target_id)
    if target is None or target.deleted:
        if lenient:
            return None
        raise bad_request("message to be replied not found")
    return target


@api_method("sendMessage")
async def send_message(world: World, p: JSONDict, files: Files) -> JSONDict:
    chat = _chat_to_post_in(world, p, NO_RIGHTS_TEXT)
    formatted = _message_text(p, too_long="message is too long")
    return _post(world, chat, p, text=formatted.text, entities=formatted.entity_dicts())


@api_method("sendPhoto")
async def send_photo(world: World, p: JSONDict, files: Files) -> JSONDict:
    chat = _chat_to_post_in(world, p, NO_RIGHTS_PHOTO)
    photo = photo_in_call(world, p.get("photo"), files, "photo")
    caption = _caption(p, too_long="message caption is too long")
    return _post(world, chat, p, caption=caption.text, caption_entities=caption.entity_dicts(),
                 photo=photo.data, photo_sizes=photo.sizes, photo_hash=photo.sha256)


@api_method("sendAnimation")
async def send_animation(world: World, p: JSONDict, files: Files) -> JSONDict:
    chat = _chat_to_post_in(world, p, NO_RIGHTS_ANIMATION)
    caption = _caption(p, too_long="message caption is too long")
    animation = animation_in_call(world, p.get("animation"), files)
    return _post(world, chat, p, caption=caption.text, caption_entities=caption.entity_dicts(), animation=animation)


# ---------------------------------------------------------------------------- editing


def _editable(world: World, p: JSONDict, no_rights: str = NO_RIGHTS_EDIT) -> StoredMessage:
    """The bot's message a call edits, refused like Telegram when it cannot be edited."""
    if p.get("inline_message_id") is not None:
        raise bad_request("MESSAGE_ID_INVALID (inline messages are not supported by the fake)")
    chat = bot_chat(world, p.get("chat_id"))
    require_send_right(chat, no_rights)
    message_id = p.get("message_id")
    if message_id is None:
        raise bad_request("message identifier is not specified")
    message = world.messages.get(chat.id, {}).get(message_id)
    if message is None:
        raise bad_request("message to edit not found")
    if message.deleted:
        if not gone_with_topic(world, message):  # a deleted topic is news the bot never got
            world.violations.append(f"edit of deleted message {chat.id}/{message_id}")
        raise ApiError(400, "Bad Request: message to edit not found", violation=False)
    if not message.from_bot:
        raise bad_request("message can't be edited")
    return message


def _apply_edit(world: World, message: StoredMessage, **fields: Any) -> JSONDict:
    for name, value in fields.items():
        setattr(message, name, value)
    message.edit_count += 1
    message.edit_date = world.now_date()
    return message.to_dict()


@api_method("editMessageText")
async def edit_message_text(world: World, p: JSONDict, files: Files) -> JSONDict:
    message = _editable(world, p)
    if message.text is None:
        raise bad_request("there is no text in the message to edit")
    formatted = _message_text(p, too_long="MESSAGE_TOO_LONG")  # edits word it differently
    markup = check_markup(p.get("reply_markup"), inline_only=True)
    entities = formatted.entity_dicts()
    if (formatted.text, entities, markup) == (message.text, message.entities, message.reply_markup):
        raise bad_request(NOT_MODIFIED, violation=False)
    return _apply_edit(world, message, text=formatted.text, entities=entities,
                       parse_mode=p.get("parse_mode"), reply_markup=markup)


@api_method("editMessageCaption")
async def edit_message_caption(world: World, p: JSONDict, files: Files) -> JSONDict:
    message = _editable(world, p)
    if message.photo is None:
        raise bad_request("there is no caption in the message to edit")
    caption = _caption(p, too_long="MEDIA_CAPTION_TOO_LONG")
    markup = check_markup(p.get("reply_markup"), inline_only=True)
    entities = caption.entity_dicts()
    if (caption.text, entities, markup) == (message.caption or "", message.caption_entities,
                                           message.reply_markup):
        raise bad_request(NOT_MODIFIED, violation=False)
    return _apply_edit(world, message, caption=caption.text, caption_entities=entities,
                       parse_mode=p.get("parse_mode"), reply_markup=markup)


@api_method("editMessageMedia")
async def edit_message_media(world: World, p: JSONDict, files: Files) -> JSONDict:
    message = _editable(world, p, no_rights=NO_RIGHTS_PHOTO)  # the fake only edits in photos
    media = p.get("media")
    if not isinstance(media, dict):
        raise bad_request("can't parse InputMedia JSON object")
    if media.get("type") != "photo":
        raise bad_request(f"the fake server only supports photo media, got {media.get('type')!r}")
    photo = photo_in_call(world, media.get("media"), files, "media")
    caption = _caption(media, too_long="MEDIA_CAPTION_TOO_LONG")
    markup = check_markup(p.get("reply_markup"), inline_only=True)
    entities = caption.entity_dicts()
    if (photo.sha256, caption.text, entities, markup) == (
            message.photo_hash, message.caption or "", message.caption_entities,
            message.reply_markup):
        raise bad_request(NOT_MODIFIED, violation=False)
    return _apply_edit(
        world, message, text=None, entities=[], photo=photo.data, photo_sizes=photo.sizes,
        photo_hash=photo.sha256, caption=caption.text, caption_entities=entities,
        parse_mode=media.get("parse_mode"), reply_markup=markup,
    )


@api_method("editMessageReplyMarkup")
async def edit_message_reply_markup(world: World, p: JSONDict, files: Files) -> JSONDict:
    message = _editable(world, p)
    markup = check_markup(p.get("reply_markup"), inline_only=True)
    if markup == message.reply_markup:
        raise bad_request(NOT_MODIFIED, violation=False)
    return _apply_edit(world, message, reply_markup=markup)


@api_method("deleteMessage")
async def delete_message(world: World, p: JSONDict, files: Files) -> bool:
    chat = bot_chat(world, p.get("chat_id"))
    message = world.messages.get(chat.id, {}).get(p.get("message_id", 0))
    if message is None or message.deleted:
        unseen = message is not None and gone_with_topic(world, message)
        raise bad_request("message to delete not found", violation=not unseen)
    check_deletable(world, chat, message)
    message.deleted = True
    return True

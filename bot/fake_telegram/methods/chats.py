"""Bot API methods about chats and their members: getChat, getChatMember(s), sendChatAction."""

from __future__ import annotations

from ..models import FakeChat, FakeUser, JSONDict, bad_request
from ..threads import named_topic, thread_param
from ..world import World
from .access import bot_chat, chat_for_send
from .registry import Files, api_method

CHAT_ACTIONS = frozenset({
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
    "upload_document", "choose_sticker", "find_location", "record_video_note",
    "upload_video_note",
})
# Restricted ChatMember rights (Bot API 10): the sending ones follow ``can_send``, the rest are off.
SEND_RIGHTS = (
    "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
    "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
    "can_send_other_messages", "can_add_web_page_previews", "can_react_to_messages",
)
OTHER_RIGHTS = ("can_change_info", "can_invite_users", "can_pin_messages", "can_manage_topics",
                "can_edit_tag")
ADMIN_RIGHTS: JSONDict = {
    "can_be_edited": False, "is_anonymous": False, "can_manage_chat": True,
    "can_delete_messages": True, "can_manage_video_chats": True,
    "can_restrict_members": True, "can_promote_members": False,
    "can_change_info": True, "can_invite_users": True, "can_post_stories": True,
    "can_edit_stories": True, "can_delete_stories": True, "can_pin_messages": True,
    "can_manage_topics": False,
}


def chat_member(world: World, chat: FakeChat, user: FakeUser) -> JSONDict:
    """The Bot API ``ChatMember`` object of ``user`` (the bot included) in ``chat``."""
    status = chat.bot_status if user.id == world.bot.id else chat.status_of(user.id)
    data: JSONDict = {"status": status, "user": user.to_dict()}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update(ADMIN_RIGHTS)
        if user.id == world.bot.id:  # the rights a test gave the bot in this chat
            data.update(can_manage_topics=chat.bot_can_manage_topics,
                        can_delete_messages=chat.bot_can_delete)
    elif status == "restricted":
        data.update({"is_member": True, "until_date": 0,
                     **dict.fromkeys(SEND_RIGHTS, chat.bot_can_send),
                     **dict.fromkeys(OTHER_RIGHTS, False)})
    elif status == "kicked":
        data["until_date"] = 0
    return data


@api_method("getChat")
async def get_chat(world: World, p: JSONDict, files: Files) -> JSONDict:
    chat = bot_chat(world, p.get("chat_id"))
    return {**chat.full_info(), "accent_color_id": 0, "max_reaction_count": 11,
            "accepted_gift_types": {"unlimited_gifts": False, "limited_gifts": False,
                                    "unique_gifts": False, "premium_subscription": False,
                                    "gifts_from_channels": False}}


@api_method("getChatMember")
async def get_chat_member(world: World, p: JSONDict, files: Files) -> JSONDict:
    chat = bot_chat(world, p.get("chat_id"))
    user_id = p.get("user_id", 0)
    user = world.bot if user_id == world.bot.id else world.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    return chat_member(world, chat, user)


@api_method("getChatAdministrators")
async def get_chat_administrators(world: World, p: JSONDict, files: Files) -> list[JSONDict]:
    chat = bot_chat(world, p.get("chat_id"))
    if not chat.is_group:
        raise bad_request("there are no administrators in the private chat")
    admins = [chat_member(world, chat, world.users[i]) for i in chat.managers if i in world.users]
    if chat.bot_status == "administrator":
        admins.append(chat_member(world, chat, world.bot))
    return admins


@api_method("sendChatAction")
async def send_chat_action(world: World, p: JSONDict, files: Files) -> bool:
    chat = chat_for_send(world, p)
    named_topic(world, chat, thread_param(p))
    if p.get("action") not in CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    return True

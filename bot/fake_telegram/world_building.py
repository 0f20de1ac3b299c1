"""Building the world a test starts from: users, groups, private chats, photos the bot posted before."""

from __future__ import annotations

from .models import ChatRef, FakeChat, FakeUser, JSONDict, StoredMessage, UserRef, chat_id_of
from .world import World


class WorldBuilding(World):
    """The test-facing methods that create users and chats, and find them for the other methods."""

    def add_user(
        self,
        user_id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "ru",
        *,
        last_name: str | None = None,
    ) -> FakeUser:
        """Create (or replace) a human user."""
        user = FakeUser(id=user_id, first_name=first_name, username=username,
                        language_code=language_code, last_name=last_name)
        self.users[user_id] = user
        return user

    def add_chat(
        self,
        chat_id: int,
        type: str = "supergroup",
        title: str = "Test group",
        *,
        username: str | None = None,
        creator: int | None = None,
        is_forum: bool = False,
    ) -> FakeChat:
        """Create a group/supergroup (the bot is an administrator there); ``is_forum``: a forum
        supergroup, whose topics come from ``create_topic`` or the bot's createForumTopic."""
        if type not in ("group", "supergroup"):
            raise ValueError("only group/supergroup; use private_chat() for private chats")
        if is_forum and type != "supergroup":
            raise ValueError("only a supergroup can be a forum")
        chat = FakeChat(id=chat_id, type=type, title=title, username=username, is_forum=is_forum)
        if creator is not None:
            chat.set_creator(creator)
        self.chats[chat_id] = chat
        self.messages.setdefault(chat_id, {})
        return chat

    def add_bot_photo(self, chat: ChatRef, png: bytes, caption: str | None = None,
                      reply_markup: JSONDict | None = None) -> StoredMessage:
        """A photo message the bot posted before the test began (a table stored in its database)."""
        photo = self.store_photo(png)
        return self.new_message(self._chat(chat), self.bot, photo=photo.data, photo_sizes=photo.sizes,
                                 photo_hash=photo.sha256, caption=caption, reply_markup=reply_markup)

    def private_chat(self, user: UserRef) -> FakeChat:
        """Return (creating if needed) the private chat of a user with the bot."""
        u = self._user(user)
        chat = self.chats.get(u.id)
        if chat is None:
            chat = FakeChat(id=u.id, type="private", first_name=u.first_name, username=u.username,
                            bot_status="member")
            self.chats[u.id] = chat
            self.messages.setdefault(u.id, {})
        return chat

    def _user(self, user: UserRef) -> FakeUser:
        if isinstance(user, FakeUser):
            return user
        if user not in self.users:
            raise LookupError(f"unknown user {user}; call add_user() first")
        return self.users[user]

    def _chat(self, chat: ChatRef) -> FakeChat:
        chat_id = chat_id_of(chat)
        if chat_id not in self.chats:
            raise LookupError(f"unknown chat {chat_id}; call add_chat() first")
        return self.chats[chat_id]

    def _open_chat(self, chat: ChatRef) -> FakeChat:
        """The chat for a user action; a group upgraded to a supergroup is read-only."""
        c = self._chat(chat)
        if c.migrated_to is not None:
            raise ValueError(f"group {c.id} was upgraded to supergroup {c.migrated_to} and is "
                             f"read-only now; act in the supergroup")
        return c

    def _actor(self, chat: FakeChat, by: UserRef | None) -> FakeUser:
        """``by``, else the creator or an administrator of ``chat`` (who may change the group)."""
        if by is not None:
            return self._user(by)
        candidates = chat.managers
        if not candidates:
            raise ValueError(f"chat {chat.id} has no creator or administrator; pass by=")
        return self._user(candidates[0])

"""A lobby's title card follows its variant («Башня» has a card of its own) even when its edits wait for the
chat's budget: a waiting edit that would change the card may be replaced by a newer one (the outbox keeps
only the last edit of a message), so the card is compared, when the edit goes out, with the card the
message shows, not with the one the newer press started from."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

from markupsafe import Markup
from PIL import Image
from telegram import Chat, Message, PhotoSize

from bot.drawing import Drawing
from bot.flow.messages import Card, Messages
from render.cover import three_dice
from render.theme import Box
from tests.outbox_steps import held

CHAT, MESSAGE = -100, 7


def plain(img: Image.Image, box: Box) -> None:
    """A card with no picture: this test looks at which card goes out, not at its art."""


CLASSIC: Card = ("Игра", "фишки", three_dice)
TOWER: Card = ("Игра", "подставки", plain)


class RecordingBot:
    """The Bot API calls of a lobby's message, answered as Telegram would (a photo's upload gets a file id)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any, str]] = []  # (method, the photo: a file id, or an upload, caption)

    def _message(self, photo: Any, caption: str) -> Message:
        file_id = photo if isinstance(photo, str) else f"the upload with «{caption}»"
        return Message(MESSAGE, dt.datetime.now(dt.UTC), Chat(CHAT, "supergroup"),
                       photo=(PhotoSize(file_id, file_id, 1024, 576),))

    async def send_photo(self, chat_id: int, photo: Any, caption: str, **_: Any) -> Message:
        self.calls.append(("sendPhoto", photo, caption))
        return self._message(photo, caption)

    async def edit_message_caption(self, caption: str, **_: Any) -> bool:
        self.calls.append(("editMessageCaption", None, caption))
        return True

    async def edit_message_media(self, media: Any, **_: Any) -> Message:
        self.calls.append(("editMessageMedia", media.media, media.caption))
        return self._message(media.media, media.caption)


async def test_a_card_change_replaced_by_a_newer_edit_still_goes_out() -> None:
    outbox, budget = held()
    bot = RecordingBot()
    messages = Messages(bot, outbox, Drawing(0))  # type: ignore[arg-type]  # the calls a lobby makes
    budget.room.set()
    await messages.post_cover(CHAT, CLASSIC, Markup("классика"), None)  # type: ignore[arg-type]
    lobby: Any = SimpleNamespace(id=1, chat_id=CHAT, message_id=MESSAGE)
    budget.room.clear()  # the chat's budget is spent: the edits wait
    await messages.edit_lobby(lobby, Markup("Башня"), None, (CLASSIC, TOWER))  # set to the tower
    await messages.edit_lobby(lobby, Markup("Башня, Вера за столом"), None, (TOWER, TOWER))  # then a join
    assert outbox.waiting(CHAT) == 1  # the newer edit took the older one's place
    budget.room.set()
    await outbox.idle()
    assert [(method, not isinstance(photo, str), caption) for method, photo, caption in bot.calls] == [
        ("sendPhoto", True, "классика"), ("editMessageMedia", True, "Башня, Вера за столом")]
    await messages.edit_lobby(lobby, Markup("Башня, Глеб за столом"), None, (TOWER, TOWER))
    await messages.edit_lobby(lobby, Markup("классика"), None, (TOWER, CLASSIC))  # back: the card by its id
    assert bot.calls[2:] == [("editMessageCaption", None, "Башня, Глеб за столом"),
                             ("editMessageMedia", "the upload with «классика»", "классика")]

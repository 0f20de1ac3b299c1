"""Bot API methods for pressed inline buttons: answerCallbackQuery."""

from __future__ import annotations

from ..models import JSONDict, bad_request
from ..world import World
from .registry import Files, api_method

QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
MAX_ANSWER_TEXT = 200


@api_method("answerCallbackQuery")
async def answer_callback_query(world: World, p: JSONDict, files: Files) -> bool:
    query_id = str(p.get("callback_query_id") or "")
    handle = world.callbacks.get(query_id)
    if handle is None:
        world.violations.append(f"answerCallbackQuery for unknown query id {query_id!r}")
        raise bad_request(QUERY_TOO_OLD, violation=False)
    handle.answer_count += 1
    if handle.answered:  # Telegram refuses a second answer
        if handle.update_id not in world.webhook.unacknowledged:  # a redelivered press: the bot could not know
            world.violations.append(f"callback query {query_id} (data={handle.data!r}) answered twice")
        raise bad_request(QUERY_TOO_OLD, violation=False)
    text = p.get("text")
    if isinstance(text, str) and len(text) > MAX_ANSWER_TEXT:
        raise bad_request("MESSAGE_TOO_LONG")
    handle._resolve(dict(p))
    return True

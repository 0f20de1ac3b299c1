"""Bot API methods that hand the bot its updates: getUpdates (long polling) and the webhook calls."""

from __future__ import annotations

from ..models import ApiError, JSONDict, bad_request
from ..world import World
from .registry import Files, api_method

CONFLICT = ("Conflict: terminated by other getUpdates request; make sure that only one bot "
            "instance is running")


@api_method("getUpdates")
async def get_updates(world: World, p: JSONDict, files: Files) -> list[JSONDict]:
    queue = world.updates
    allowed = p.get("allowed_updates")
    if allowed is not None:
        if not isinstance(allowed, list) or not all(isinstance(a, str) for a in allowed):
            raise bad_request("can't parse allowed_updates JSON object")
        queue.allow(allowed)
    queue.confirm(p.get("offset") or 0)
    queue.drop_unwanted()
    limit = min(max(int(p.get("limit") or 100), 1), 100)
    timeout = max(float(p.get("timeout") or 0), 0.0)
    if not await queue.long_poll(timeout):
        raise ApiError(409, CONFLICT, violation=False)
    return queue.take(limit, world.clock())


@api_method("deleteWebhook")
async def delete_webhook(world: World, p: JSONDict, files: Files) -> bool:
    if p.get("drop_pending_updates"):
        world.updates.drop_pending()
    return True


@api_method("getWebhookInfo")
async def get_webhook_info(world: World, p: JSONDict, files: Files) -> JSONDict:
    return {"url": "", "has_custom_certificate": False,
            "pending_update_count": len(world.updates.pending)}

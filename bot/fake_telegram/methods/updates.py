"""Bot API methods that hand the bot its updates: getUpdates (long polling) and the webhook calls.

setWebhook is checked like Telegram checks it, with one relaxation: a plain ``http://`` URL to
127.0.0.1 or localhost (any port) is accepted, so a test's bot can serve it without TLS. The
fake delivers only to those loopback hosts; a webhook elsewhere is registered but each try
fails as unreachable, without leaving the machine.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ..models import ApiError, JSONDict, bad_request
from ..webhook import LOOPBACK, Webhook
from ..world import World
from .registry import Files, api_method

CONFLICT = ("Conflict: terminated by other getUpdates request; make sure that only one bot "
            "instance is running")
WEBHOOK_ACTIVE = ("Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to "
                  "delete the webhook first")
TERMINATED_BY_WEBHOOK = "Conflict: terminated by setWebhook request"
WEBHOOK_PORTS = frozenset({80, 88, 443, 8443})
SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]*")
SECRET_MAX = 256


@api_method("getUpdates")
async def get_updates(world: World, p: JSONDict, files: Files) -> list[JSONDict]:
    queue = world.updates
    if queue.webhook_active:
        raise ApiError(409, WEBHOOK_ACTIVE, violation=False)
    allowed = p.get("allowed_updates")
    if allowed is not None:
        queue.allow(_update_types(allowed))
    queue.confirm(p.get("offset") or 0)
    queue.drop_unwanted()
    limit = min(max(int(p.get("limit") or 100), 1), 100)
    timeout = max(float(p.get("timeout") or 0), 0.0)
    if not await queue.long_poll(timeout):
        raise ApiError(409, CONFLICT, violation=False)
    if queue.webhook_active:
        raise ApiError(409, TERMINATED_BY_WEBHOOK, violation=False)
    return queue.take(limit, world.clock())


@api_method("setWebhook")
async def set_webhook(world: World, p: JSONDict, files: Files) -> bool:
    url = str(p.get("url") or "").strip()
    if not url:  # Telegram: an empty url removes the webhook
        await world.webhook.unregister()
        return True
    _check_url(url)
    secret = str(p.get("secret_token") or "")
    if len(secret) > SECRET_MAX:
        raise bad_request("secret token is too long", violation=False)
    if not SECRET_SHAPE.fullmatch(secret):
        raise bad_request("secret token contains unallowed characters", violation=False)
    old = world.webhook.hook
    allowed = p.get("allowed_updates")
    types = _update_types(allowed) if allowed is not None else (old.allowed_updates if old else None)
    if allowed is not None:
        world.updates.allow(types or [])
        world.updates.drop_unwanted()
    if p.get("drop_pending_updates"):
        world.updates.drop_pending()
    # Telegram takes 1–100 connections (40 if not given); the fake delivers one update at a time anyway
    connections = min(max(int(p.get("max_connections") or 40), 1), 100)
    await world.webhook.register(Webhook(url, secret or None, connections, types))
    return True


@api_method("deleteWebhook")
async def delete_webhook(world: World, p: JSONDict, files: Files) -> bool:
    if p.get("drop_pending_updates"):
        world.updates.drop_pending()
    await world.webhook.unregister()
    return True


@api_method("getWebhookInfo")
async def get_webhook_info(world: World, p: JSONDict, files: Files) -> JSONDict:
    hook, pending = world.webhook.hook, len(world.updates.pending)
    if hook is None:
        return {"url": "", "has_custom_certificate": False, "pending_update_count": pending}
    return hook.info(pending)


def _update_types(allowed: object) -> list[str]:
    if not isinstance(allowed, list) or not all(isinstance(a, str) for a in allowed):
        raise bad_request("can't parse allowed_updates JSON object")
    return allowed


def _check_url(url: str) -> None:
    """Telegram's checks of a webhook URL, plus the fake's one relaxation (plain http to loopback)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise bad_request("bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443",
                          violation=False) from None
    if parts.scheme == "http" and parts.hostname in LOOPBACK:
        return
    if parts.scheme != "https":
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook", violation=False)
    if not parts.hostname:
        raise bad_request("bad webhook: Failed to resolve host: Name or service not known", violation=False)
    if (port or 443) not in WEBHOOK_PORTS:
        raise bad_request("bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443",
                          violation=False)

"""Bot API methods for the bot's command list: set, get and delete it per scope and language."""

from __future__ import annotations

import json
import re
from typing import Any

from ..models import JSONDict, bad_request
from ..world import World
from .registry import Files, api_method

_COMMAND_RE = re.compile(r"[a-z0-9_]{1,32}")
MAX_COMMANDS = 100


def scope_key(scope: Any) -> str:
    """The key commands are kept under for a BotCommandScope (None: the default scope)."""
    if scope is None:
        scope = {"type": "default"}
    if not isinstance(scope, dict) or not isinstance(scope.get("type"), str):
        raise bad_request("can't parse BotCommandScope JSON object")
    return json.dumps(scope, sort_keys=True, separators=(",", ":"))


def _commands_key(p: JSONDict) -> tuple[str, str]:
    """The (scope, language) a command call is about."""
    scope = scope_key(p.get("scope"))
    code = p.get("language_code") or ""
    if not isinstance(code, str) or not re.fullmatch(r"([a-z]{2})?", code):
        raise bad_request("invalid language code specified")
    return scope, code


@api_method("setMyCommands")
async def set_my_commands(world: World, p: JSONDict, files: Files) -> bool:
    commands = p.get("commands")
    if not isinstance(commands, list):
        raise bad_request("can't parse commands JSON object")
    if len(commands) > MAX_COMMANDS:
        raise bad_request("BOT_COMMANDS_TOO_MUCH")
    for cmd in commands:
        if not isinstance(cmd, dict) or not _COMMAND_RE.fullmatch(str(cmd.get("command"))):
            raise bad_request("BOT_COMMAND_INVALID")
        description = cmd.get("description")
        if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
    world.commands[_commands_key(p)] = [{"command": c["command"], "description": c["description"]}
                                        for c in commands]
    return True


@api_method("getMyCommands")
async def get_my_commands(world: World, p: JSONDict, files: Files) -> list[JSONDict]:
    return list(world.commands.get(_commands_key(p), []))


@api_method("deleteMyCommands")
async def delete_my_commands(world: World, p: JSONDict, files: Files) -> bool:
    world.commands.pop(_commands_key(p), None)
    return True

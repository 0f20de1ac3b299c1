"""Bot API methods about the bot itself: getMe, and the session calls close and logOut."""

from __future__ import annotations

from ..models import JSONDict
from ..world import World
from .registry import Files, api_method


@api_method("getMe")
async def get_me(world: World, p: JSONDict, files: Files) -> JSONDict:
    return {**world.bot.to_dict(), "can_join_groups": True,
            "can_read_all_group_messages": not world.privacy_mode,
            "supports_inline_queries": False, "can_connect_to_business": False,
            "has_main_web_app": False}


@api_method("close")
async def close(world: World, p: JSONDict, files: Files) -> bool:
    return True


@api_method("logOut")
async def log_out(world: World, p: JSONDict, files: Files) -> bool:
    return True

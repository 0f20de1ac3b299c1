"""Files a Bot API call carries or names: uploads in the request, and file_ids of stored files."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..models import StoredAnimation, StoredPhoto, bad_request
from ..world import World
from .registry import Files

F = TypeVar("F")


def _file_in_call(ref: Any, files: Files, field: str, kind: str, known: Mapping[str, F],
                  store: Callable[[bytes, str], F]) -> F:
    """The file of ``kind`` that ``ref`` names: an upload in ``field`` or ``attach://<name>``, or a known file_id."""
    if ref is None and field in files:
        return store(files[field], field)
    if not isinstance(ref, str) or not ref:
        raise bad_request(f"there is no {kind} in the request")
    if ref.startswith("attach://"):
        name = ref.removeprefix("attach://")
        if name not in files:
            raise bad_request(f"file of type {kind} not found in the request: {name}")
        return store(files[name], name)
    if ref in known:
        return known[ref]
    raise bad_request("wrong file identifier/HTTP URL specified")


def photo_in_call(world: World, ref: Any, files: Files, field: str) -> StoredPhoto:
    """The photo ``ref`` names: an upload in ``field`` or ``attach://<name>``, or a known file_id."""
    return _file_in_call(ref, files, field, "photo", world.photos, lambda data, _: world.store_photo(data))


def animation_in_call(world: World, ref: Any, files: Files) -> StoredAnimation:
    """The animation ``ref`` names: an upload («animation» or ``attach://<name>``), or a known file_id."""
    return _file_in_call(ref, files, "animation", "animation", world.animations,
                         lambda data, name: world.store_animation(data, name if "." in name else "animation.mp4"))

"""Files a Bot API call carries or names: uploads in the request, and file_ids of stored photos."""

from __future__ import annotations

from typing import Any

from ..models import StoredPhoto, bad_request
from ..world import World
from .registry import Files


def photo_in_call(world: World, ref: Any, files: Files, field: str) -> StoredPhoto:
    """The photo ``ref`` names: an upload in ``field`` or ``attach://<name>``, or a known file_id."""
    if ref is None and field in files:
        return world.store_photo(files[field])
    if not isinstance(ref, str) or not ref:
        raise bad_request("there is no photo in the request")
    if ref.startswith("attach://"):
        name = ref.removeprefix("attach://")
        if name not in files:
            raise bad_request(f"file of type photo not found in the request: {name}")
        return world.store_photo(files[name])
    if ref in world.photos:
        return world.photos[ref]
    raise bad_request("wrong file identifier/HTTP URL specified")

"""A chat's time zone: the times /history shows are the chat's own.

/settings offers a short list of common zones (:data:`ZONE_CHOICES`); a chat that picked none has
its language's default (Moscow for a Russian chat, UTC otherwise). Zones come from the standard
library's ``zoneinfo``, which reads the system's time zone database; where a zone is missing from
it (a system without that database), times are shown in UTC rather than failing.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import zoneinfo

log = logging.getLogger(__name__)
ZONE_CHOICES = ("Europe/Kaliningrad", "Europe/Moscow", "Europe/Samara", "Asia/Yekaterinburg", "Asia/Novosibirsk",
                "Asia/Vladivostok", "UTC", "Europe/London", "Europe/Berlin", "America/New_York")
DEFAULT_ZONES = {"ru": "Europe/Moscow"}  # by the chat's language; any other: UTC
UTC = "UTC"


def default_zone(lang: str) -> str:
    return DEFAULT_ZONES.get(lang, UTC)


def slug(name: str) -> str:
    """The zone as a /settings button carries it and the locales name it: «europe-moscow»."""
    return name.lower().replace("/", "-")


def from_slug(value: str) -> str | None:
    """The zone of :data:`ZONE_CHOICES` a button's ``value`` names (None: none of them)."""
    return next((name for name in ZONE_CHOICES if slug(name) == value), None)


@functools.cache
def tz(name: str) -> dt.tzinfo:
    """The zone ``name``; UTC if the system's time zone database lacks it."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        log.warning("time zone %s is not in this system's time zone database: UTC is shown instead", name)
        return dt.UTC


def local_time(timestamp: float, name: str) -> str:
    """A moment as «01.12 05:07» in the zone ``name``."""
    return dt.datetime.fromtimestamp(timestamp, tz(name)).strftime("%d.%m %H:%M")


def utc_offset(name: str, timestamp: float) -> str:
    """The zone's offset from UTC at that moment, as «+3», «−5» or «+5:30» («+0» for UTC)."""
    offset = dt.datetime.fromtimestamp(timestamp, tz(name)).utcoffset() or dt.timedelta()
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "−"
    hours, rest = divmod(abs(minutes), 60)
    return f"{sign}{hours}" + (f":{rest:02d}" if rest else "")

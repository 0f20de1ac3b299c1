"""The chat's time zone, through the fake Bot API: /history shows times in
it — Moscow in a Russian chat, UTC in an English one, unless an admin picked another in /settings,
whose row cycles through a short list of common zones like the other rows do.

The flow's clock is fixed at 1 December 2024, 05:07 UTC, so every game ends then.
"""

from __future__ import annotations

import datetime as dt

import pytest

from bot import callback_data as cb
from bot.fake_telegram import FakeUser
from bot.flow.context import ChatSettings
from bot.zones import ZONE_CHOICES, from_slug, local_time, slug, tz, utc_offset
from tests.bot_harness import CHAT_ID, BotRunner, World, flow_of
from tests.settings_steps import open_settings, stored

ENDED = dt.datetime(2024, 12, 1, 5, 7, tzinfo=dt.UTC).timestamp()
SUMMER = dt.datetime(2024, 7, 1, 12, 0, tzinfo=dt.UTC).timestamp()


pytestmark = pytest.mark.world(first_seed=400, count=3)  # group_world's arguments (tests/conftest.py)


@pytest.fixture
def world(world: World) -> World:
    flow_of(world[1]).clock = lambda: ENDED
    return world


async def a_game_ends(runner: BotRunner, users: dict[str, FakeUser]) -> None:
    """Аня and Борис start «Охота на львов»; Борис leaves at once (he resigns): it is over."""
    await runner.say(users["anya"], "/newgame lions")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, lobby.buttons[0][0])  # «Играю» / «Play»
    await runner.press(users["anya"], lobby, next(label for label, _ in lobby.buttons if label.startswith("▶")))
    await runner.say(users["boris"], "/leave")


async def history(runner: BotRunner, user: FakeUser) -> list[str]:
    await runner.say(user, "/history")
    text = runner.tg.last_bot_message(CHAT_ID).text
    assert text is not None
    return text.splitlines()


async def test_a_russian_chat_sees_moscow_time(world) -> None:
    _, runner, users = world
    await a_game_ends(runner, users)
    lines = await history(runner, users["vera"])
    assert lines[0] == "📜 Последние игры в этом чате · время: Москва"
    assert lines[1].endswith(" · Охота на львов · 01.12 08:07")  # 05:07 UTC


async def test_an_english_chat_sees_utc(world) -> None:
    _, runner, users = world
    message = await open_settings(runner, users["anya"])
    await runner.press(users["anya"], message, "🌐 Язык: русский")
    assert message.text is not None and "🕒 Time zone: UTC" in message.text.splitlines()
    await a_game_ends(runner, users)
    lines = await history(runner, users["vera"])
    assert lines[0] == "📜 Last games in this chat · times: UTC"
    assert lines[1].endswith(" · Lion Hunt · 01.12 05:07")


async def test_the_zone_picked_in_settings_is_the_one_history_shows(world) -> None:
    _, runner, users = world
    await a_game_ends(runner, users)
    message = await open_settings(runner, users["anya"])
    assert message.text is not None and "🕒 Часовой пояс: Москва (UTC+3)" in message.text.splitlines()
    answer = await runner.press(users["boris"], message, "🕒 Часовой пояс: Москва (UTC+3)")  # no admin
    assert answer["text"] == "Это могут только администраторы чата."
    answer = await runner.press(users["anya"], message, "🕒 Часовой пояс: Москва (UTC+3)")
    assert answer["text"] == "🕒 Часовой пояс: Самара (UTC+4)"
    assert "🕒 Часовой пояс: Самара (UTC+4)" in message.text.splitlines()
    assert (await stored(runner))[1]["time_zone"] == "Europe/Samara"
    lines = await history(runner, users["vera"])
    assert lines[0] == "📜 Последние игры в этом чате · время: Самара" and lines[1].endswith(" · 01.12 09:07")
    # the row cycles through every zone of the list and back
    seen = []
    for _ in ZONE_CHOICES:
        label = next(label for label, _ in message.buttons if label.startswith("🕒"))
        await runner.press(users["anya"], message, label)
        seen.append(next(line for line in message.text.splitlines() if line.startswith("🕒")))
    assert seen == ["🕒 Часовой пояс: Екатеринбург (UTC+5)", "🕒 Часовой пояс: Новосибирск (UTC+7)",
                    "🕒 Часовой пояс: Владивосток (UTC+10)", "🕒 Часовой пояс: UTC",
                    "🕒 Часовой пояс: Лондон (UTC+0)", "🕒 Часовой пояс: Берлин (UTC+1)",
                    "🕒 Часовой пояс: Нью-Йорк (UTC−5)", "🕒 Часовой пояс: Калининград (UTC+2)",
                    "🕒 Часовой пояс: Москва (UTC+3)", "🕒 Часовой пояс: Самара (UTC+4)"]
    while "🕒 Часовой пояс: Нью-Йорк (UTC−5)" not in message.text.splitlines():
        label = next(label for label, _ in message.buttons if label.startswith("🕒"))
        await runner.press(users["anya"], message, label)
    lines = await history(runner, users["vera"])
    assert lines[0].endswith("время: Нью-Йорк") and lines[1].endswith(" · 01.12 00:07")
    # a zone the list does not offer is refused, and nothing changes
    before = await stored(runner)
    for data in ("s:zone:mars", "s:zone:europe-paris", "s:zone:Europe/Moscow", "s:zone:"):
        answer = await runner.press_data(users["anya"], message, data)
        assert answer["text"] == "Кнопка устарела.", data
    assert await stored(runner) == before


def test_settings_keep_only_a_zone_of_the_list() -> None:
    assert ChatSettings.of({}).time_zone is None
    assert ChatSettings.of({"time_zone": "Asia/Novosibirsk"}).time_zone == "Asia/Novosibirsk"
    for junk in ("Mars/Base", "europe-moscow", 3, None, ["UTC"]):
        assert ChatSettings.of({"time_zone": junk}).time_zone is None


def test_zones_as_buttons_carry_them_and_offsets_follow_the_season() -> None:
    for name in ZONE_CHOICES:
        assert from_slug(slug(name)) == name and cb.parse(cb.chat_setting("zone", slug(name))) is not None
        assert tz(name) is not dt.UTC or name == "UTC"  # this machine's zoneinfo has every zone of the list
    assert from_slug("mars") is None
    assert (utc_offset("Europe/Berlin", ENDED), utc_offset("Europe/Berlin", SUMMER)) == ("+1", "+2")
    assert utc_offset("America/New_York", SUMMER) == "−4" and utc_offset("UTC", SUMMER) == "+0"
    assert local_time(ENDED, "Asia/Vladivostok") == "01.12 15:07"


def test_a_zone_the_system_lacks_shows_utc() -> None:
    assert tz("Nowhere/Atlantis") is dt.UTC
    assert local_time(ENDED, "Nowhere/Atlantis") == "01.12 05:07"

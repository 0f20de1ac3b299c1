"""Valid values shared by the configuration tests."""

from __future__ import annotations

GOOD_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"  # the shape @BotFather gives

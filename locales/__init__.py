"""Message catalogues (Fluent `.ftl`, one folder per language) and the translator.

Plural forms come from CLDR through fluent.runtime/Babel (ru: one/few/many/other,
en: one/other), so «1 фишка, 2 фишки, 5 фишек, 21 фишка» needs no code of ours.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource

LOCALES_DIR = Path(__file__).resolve().parent
SUPPORTED = ("ru", "en")
FORMATTED_CACHE = 20_000  # formatted messages kept (a few MB); the whole memo starts over when full
log = logging.getLogger(__name__)


class MissingMessageError(KeyError):
    """A message key is absent from the catalogue (raised only in strict mode)."""


@dataclass
class Translator:
    """All catalogues, loaded once; ``t(lang, key, **args)`` formats one message."""

    default: str = "ru"
    strict: bool = False
    bundles: dict[str, FluentBundle] = field(default_factory=dict)
    keys: dict[str, set[str]] = field(default_factory=dict)
    # formatted messages by (lang, key, args): every redraw formats the same captions and
    # buttons again, and Fluent takes ~0.1 ms a message (a tenth of the bot's loop under load)
    _formatted: dict[tuple[str | None, str, tuple[tuple[str, type, Any], ...]], str] = field(default_factory=dict)

    @classmethod
    def load(cls, default: str = "ru", strict: bool = False, langs: Iterable[str] = SUPPORTED,
             extra: Mapping[str, Sequence[Path]] | None = None) -> Translator:
        """The catalogues of ``langs``, and per language the ``extra`` files of games that bring their
        own texts (a game declared outside the package)."""
        tr = cls(default=default if default in SUPPORTED else "ru", strict=strict)
        for lang in langs:
            bundle = FluentBundle([lang], use_isolating=False)
            keys: set[str] = set()
            for path in [*sorted((LOCALES_DIR / lang).glob("*.ftl")), *(extra or {}).get(lang, ())]:
                resource = FluentResource(path.read_text(encoding="utf-8"))
                bundle.add_resource(resource)
                keys.update(getattr(entry.id, "name", "") for entry in resource.body if hasattr(entry, "id"))
            tr.bundles[lang] = bundle
            tr.keys[lang] = {k for k in keys if k}
        return tr

    def lang(self, lang: str | None) -> str:
        return lang if lang in self.bundles else self.default

    def has(self, lang: str, key: str) -> bool:
        return key in self.keys.get(self.lang(lang), set())

    def t(self, lang: str | None, key: str, /, **args: Any) -> str:
        """The message ``key`` in ``lang`` (falling back to the default language)."""
        try:
            memo = (lang, key, tuple(sorted((k, type(v), v) for k, v in args.items())))  # 1, 1.0, True differ
            return self._formatted[memo]
        except KeyError:
            pass
        except TypeError:  # an argument that cannot be a dict key: format it every time
            return self._format(lang, key, args)
        if len(self._formatted) >= FORMATTED_CACHE:
            self._formatted.clear()
        text = self._formatted[memo] = self._format(lang, key, args)
        return text

    def _format(self, lang: str | None, key: str, args: dict[str, Any]) -> str:
        for candidate in (self.lang(lang), self.default):
            bundle = self.bundles[candidate]
            if bundle.has_message(key):
                message = bundle.get_message(key)
                if message.value is None:
                    break
                text, errors = bundle.format_pattern(message.value, args)
                if errors:
                    if self.strict:
                        raise errors[0]
                    log.warning("locale %s key %s: %s", candidate, key, errors[0])
                return text if isinstance(text, str) else key  # a pattern resolving to nothing: shown as its key
        if self.strict:
            raise MissingMessageError(key)
        log.warning("missing locale key %s", key)
        return key

"""The one place user text is made safe, and the wording rules for sentences shown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from carca_bot.bot.words.safe import clean, file_name, pinging, plain, safe_name, sentence
from tests.bot.outgoing import assert_only_own_markup, assert_plain_label


def test_safe_name_escapes_clips_and_strips() -> None:
    hostile = "\u202e<@123456789012345678> @everyone **x** ||y|| `z` [a](https://b.c) # h\n- i"
    shown = safe_name(hostile, limit=200)
    assert_only_own_markup(f"**{shown}** joined.")
    assert "\u202e" not in shown and "\n" not in shown
    assert len(safe_name("x" * 500)) <= 33 and safe_name("x" * 500).endswith("…")
    assert safe_name("") == "?" and safe_name("\u200b\u200d") == "?"


def test_plain_labels_and_file_names() -> None:
    label = plain("a\u202eb\u2066c\u0000d" + "e" * 300)
    assert_plain_label(label)
    assert clean("Cafe\u0301") == "Café"  # NFC
    assert file_name("../../etc/passwd <@1>.json") == "etc-passwd-1-.json"


def test_pinging_names_only_users() -> None:
    mentions: dict[str, Any] = dict(pinging("123", None, "not-a-number", 123).to_dict())
    assert mentions == {"parse": [], "users": [123]}


def test_sentences_read_well() -> None:
    assert sentence("the tile at 99,99 fits. there is a abbot here") == (
        "The tile at 99,99 fits. There is an abbot here")
    # Squares are written by `carca_bot.words`; the bot no longer rewrites them.
    assert sentence("at [1, 2]") == "At \\[1, 2\\]"
    assert sentence("a one-tile road") == "A one-tile road"


def test_the_bot_shows_no_python_repr_or_list_squares() -> None:
    """Player-facing text is built in carca_bot/bot: no `!r` (Python quoting) there, and
    squares are written x,y."""
    for path in Path("carca_bot/bot").glob("*.py"):
        source = path.read_text()
        assert not re.search(r"!r}", source) or path.name == "config.py", path
        assert "list(" not in re.sub(r"#.*", "", source) or path.name != "text.py", path

"""User text made harmless before Discord shows it, and who a message may ping.

Names come from Discord display names and from imported records, and refusals may
echo what a player typed: any of it could try to ping a server, post a heading,
a link, a spoiler or a code block, or turn the line around with bidi controls.
Message content gets `safe_name`/`safe_text` (cleaned, clipped, escaped); places
Discord shows as plain text (menu and autocomplete labels, thread and file names)
get `plain` (cleaned and clipped: a backslash there would show as is).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

from carca_bot.engine.limits import one_line as clean  # one cleaner for every layer

NAME_LIMIT = 32  # characters of a name shown in a message
# Everything Discord's markdown gives a meaning to; a backslash makes it literal.
_MARKUP = re.compile(r"([\\*_~`|<>\[\]#@])")
_URL = re.compile(r"(?i)(?<=[a-z0-9]):(?=//)")  # "https://" autolinks; "https\://" does not
_LIST = re.compile(r"^(\s*)([-+>.])")  # a list, quote or subtext marker at the start

NO_PINGS = discord.AllowedMentions.none()


def pinging(*user_ids: str | int | None) -> discord.AllowedMentions:
    """Exactly these users may be pinged; never @everyone, @here or a role."""
    wanted = dict.fromkeys(str(u) for u in user_ids if u is not None and str(u).isdigit())
    users = [discord.Object(int(u)) for u in wanted]
    return discord.AllowedMentions(everyone=False, roles=False, users=users,
                                   replied_user=False)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:max(limit - 1, 0)].rstrip() + "…"


def escape(text: str) -> str:
    """Markdown, mentions and links in `text` shown literally (text already `clean`)."""
    text = _MARKUP.sub(r"\\\1", text)
    text = _URL.sub(r"\\:", text)
    return _LIST.sub(r"\1\\\2", text)


def safe_name(text: str, limit: int = NAME_LIMIT) -> str:
    """A name for message content: cleaned, clipped with an ellipsis, escaped."""
    return escape(clip(clean(text), limit)) or "?"


def plain(text: str, limit: int = 100) -> str:
    """For labels Discord shows as plain text (menus, autocomplete, thread names)."""
    return clip(clean(text), limit) or "?"


def file_name(text: str, limit: int = 60) -> str:
    """Only letters, digits, dot, dash and underscore: a name no client misreads."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", clean(text)).strip(".-") or "file"
    return name[:limit]


def safe_text(text: str, names: Iterable[str] = ()) -> str:
    """A sentence from the service or a refusal, which may hold names and echoed input.

    Long names in it are clipped as `safe_name` clips them, and the whole sentence is
    cleaned and escaped (squares come written x,y from `carca_bot.words`).
    """
    text = str(text)
    for name in sorted(set(names), key=len, reverse=True):
        short = clip(clean(name), NAME_LIMIT)
        if name and name != short:
            text = text.replace(name, short)
    return escape(clean(text))


_ARTICLE = re.compile(r"\b([Aa]) (?=[aeio](?!ne\b))")  # "a abbot" -> "an abbot"
_AFTER_STOP = re.compile(r"([.!?] )([a-z])")


def sentence(text: str, names: Iterable[str] = ()) -> str:
    """`safe_text` as proper sentences: capital letters after full stops, "an abbot"."""
    text = _ARTICLE.sub(r"\1n ", safe_text(text, names))
    text = _AFTER_STOP.sub(lambda m: m.group(1) + m.group(2).upper(), text)
    return text[:1].upper() + text[1:]


__all__ = ["NAME_LIMIT", "NO_PINGS", "clean", "clip", "escape", "file_name", "pinging", "plain",
           "safe_name", "safe_text", "sentence"]

"""Message ids: how the engine names things for the catalogues without saying a word.

The records of the expansions give their names (an expansion's title, a figure's
noun) as English message ids marked with `N_` / `N_plural`; the catalogue tool
extracts them into the `words` domain and `carca_bot.words` says them in the
player's language. Here they are plain strings.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """A message id, left as it is (translated where it is shown)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """A message id with its plural (`ngettext` picks one where it is shown)."""
    return singular, plural

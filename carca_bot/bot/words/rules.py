"""The `/carc rules` text: how to play with the bot, in one screen."""

from carca_bot.i18n import Domain

_T = Domain("bot")
_ = _T.gettext


def rules_text() -> str:
    """The rules page in the language being spoken. The command names in it are the
    ones a client in that language shows (`translator.CommandTranslator`; a test checks
    each is a real command). The feature codes follow it, from `features.legend`; both
    fit one message."""
    return _(
        "**Carcassonne with carca-bot**\n"
        "**Start:** `/carc create` (choose expansions) → everyone `/carc join` → host "
        "`/carc start`.\n"
        "**Your turn:** press **My tile** (or `/carc tile`) to see your tile and where it "
        "fits, then `/carc place square:x,y rotation:90` — add `figure` and `on` to place a "
        "follower at once. Then optionally `/carc follower on:…`, `/carc barn`, "
        "`/carc recall`, `/carc tunnel`, and `/carc confirm` (or the buttons). `/carc undo` "
        "takes back your unconfirmed steps.\n"
        "**Squares** are `x,y` as labelled on the board: x grows east, y grows south, start "
        "tile 0,0.\n"
        "**Other moves:** `/carc abbey` (hole, or `skip` at the end), `/carc wagon` (after "
        "scoring), `/carc draw` (draw instead of placing your abbey).\n"
        "**Look:** `/carc board`, `/carc status`, `/carc score`, `/carc games`, "
        "`/carc export`, `/carc import` (load an exported record here to study it).\n"
        "**Leave:** `/carc leave` (lobby), `/carc resign`; host or Manage Server: "
        "`/carc kick`, `/carc cancel`.\n"
        "**Language:** `/carc-language` chooses yours (or, with Manage Server, the "
        "server's); `/carc create language:…` chooses a game's.\n"
        "Scoring: roads 1/tile; cities 2/tile + 2/pennant (half at the end); monasteries 9 "
        "(1 + neighbours at the end); farmers 3 per completed city in their field, at the "
        "end.\n"
    )

"""A game as one self-contained HTML file: board, move list, step and play controls,
scores per move. Tile and figure art are embedded as data URIs and the public
history as JSON, so the page works offline in any browser.

`build_replay_html(game, language)` is the entry point; it replays the game (CPU
work: call it from a worker thread). The record embedded is the public history
(`carca_bot.service.history`): no seed, no unconfirmed turn, no tile still to draw.
"""

from carca_bot.replay_html.build import build_replay_html, replay_data

__all__ = ["build_replay_html", "replay_data"]

"""The Discord front end: Discord interactions in, service calls, messages out.

Where things live (each folder's modules say more):

- `commands/`: every slash command, by concern, each beside its handler (a "verb").
  A verb's button and menu twins run the same handler (`core.verbs`). `/carc`'s
  subcommands are in `lobby.py`, `turn.py`, `looking.py`, `dashboard.py` and
  `ending.py`; the commands of their own in the other modules (`events/` is
  `/carc-event` and `/carc-league`); autocomplete in `suggest.py`.
- `components/`: buttons and menus: their custom ids, one template per kind, read back
  after a restart (`ids.py`); which a message carries (`rows.py`); the menus' choices
  (`menus.py`); the game card's layout (`card.py`).
- `core/`: the reply cycle every interaction goes through: `act.py` (who, where, what a
  click names), `run.py` (defer, act, answer, refuse), `send.py` (the answer, the card,
  edits), `shows.py` (what a move shows, from the service's public view), `verbs.py`
  (registering button and menu twins), `pictures.py` (drawing off the event loop),
  `gate.py` (shutting down, rate limits).
- `posts/`: what the bot posts of its own: the card (`cards.py`), one ping per turn
  (`pings.py`), the end of a game (`endgame.py`), owed posts (`outbox.py`), the
  timers' notices (`timers.py`), votes (`votes.py`), events (`events.py`,
  `events_news.py`, `standings.py`), the channel bookkeeping (`channel.py`), and the one
  way out to a channel, each post about a game delivered once (`sending.py`).
- `words/`: the bot's words: messages (`text.py`), names of game things (`names.py`),
  clocks, rules, reading what players type (`parse.py`), making user text safe
  (`safe.py`), who hears which language (`languages.py`).
- `client.py` puts it together (`CarcaBot`); `seam.py` is what the rest uses of it;
  `translator.py` localizes the commands; `config.py` reads the settings.
"""

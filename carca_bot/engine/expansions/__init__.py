"""Each expansion's rules, one module each; `rules.py` lists their hooks.

A hook is a plain function; the core calls the hooks of the expansions in play,
in `ORDER` (the order their rules apply within one hook point):

- `placement(game, tile_type, pos, shape)`: a reason the tile may not lie there.
- `turn_scoring(scorer, completed, occupied_buildings)`: after the completed
  features of a turn scored, before figures go home.
- `turn_end(scorer, completed)`: after figures went home.
- `final(game, roots)`: after incomplete features and farmers scored at the end.

Figures live in the figure table (`figures.py`), tiles in `data/tiles.jsonl`.
"""

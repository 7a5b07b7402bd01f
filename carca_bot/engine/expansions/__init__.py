"""Each expansion's record and rules, one module each (`base.py`: the base game's figure).

A module that declares `EXPANSION = Expansion(...)` (`state.Expansion`: names, tiles,
figures, pieces, hooks, its slot of state) is an expansion: `rules.py` finds it by
itself and the game calls its hooks for the games it is in. See
docs/adding-an-expansion.md.
"""

"""Game state to PNG: the board after every move, and the active player's tile picture.

`board.render_board` / `render_your_tile` / `BoardRenderer` / `warm_up` are the entry
points. The art comes from `tiles_art/` (committed PNGs and figure points); the code that
draws it is the separate tool `render.art`, which the bot never imports.
"""

"""Our own tile and figure art, drawn by code with Pillow so it is reproducible and free to ship.

`tile_art.tile_image` and `figure_art.figure_image` / `token_image` / `marker_image` are the
entry points; `make_art` regenerates the PNGs under `tiles_art/` and the contact sheet.
"""

"""The art generator: our own tile, figure and token art drawn by code with Pillow, and the
figure points worked out from it, so the art is reproducible and free to ship.

A tool, not part of the running bot: `python -m carca_bot.render.art.make_art` writes the
pictures and `anchors.json` into `tiles_art/`, which the renderer reads;
`python -m carca_bot.render.art.samples` makes the sample boards in `docs/`. Nothing
outside this package imports it (tests/test_layers.py checks).
"""

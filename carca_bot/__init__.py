"""carca-bot: rules-exact asynchronous Carcassonne for Discord."""

# The one place the version lives: the package metadata reads it (pyproject.toml,
# dynamic version) and CHANGELOG.md names each release.
__version__ = "0.1.0"

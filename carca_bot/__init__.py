"""carca-bot: rules-exact asynchronous Carcassonne for Discord."""

__version__ = "0.1.0"

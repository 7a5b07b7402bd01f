"""Who may act in a game: a user's seat, a seat still in a running game, the seat whose
decision it is, the host. Each refusal is a `ServiceError` with the code players read.
"""

from __future__ import annotations

from carca_bot.service.errors import NotAllowed, NotInGame, NotYourTurn
from carca_bot.service.live import Live
from carca_bot.service.model import User
from carca_bot.service.views import deciding_seat, must_of
from carca_bot.store import SeatRow


class WhoActs:
    """Mixed into `ServiceCore`: the checks every command makes of its user."""

    def _seat(self, live: Live, user: User) -> SeatRow:
        seat = live.seat_of(user.id)
        if seat is None:
            if live.options.analysis and live.row.host_id == user.id and live.game is not None:
                who = live.game.deciding
                if who is not None:
                    return live.seats[who]
            raise NotInGame("not_playing")
        return seat

    def _playing(self, live: Live, user: User) -> SeatRow:
        """The seat of the user, who must still be in a running game."""
        if live.row.status == "lobby":
            raise NotAllowed("not_started")
        if live.row.status != "active" or live.game is None:
            raise NotAllowed("game_over")
        seat = self._seat(live, user)
        if seat.resigned:
            raise NotAllowed("you_resigned")
        return seat

    def _actor(self, live: Live, user: User) -> int:
        """The seat of the user, who must be the one to act now in a running game."""
        seat = self._playing(live, user)
        assert live.game is not None  # `_playing` refuses a game not running
        if live.game.deciding != seat.seat:
            who = deciding_seat(live)
            raise NotYourTurn("not_your_turn", must=must_of(live),
                              name=None if who is None else live.seats[who].name)
        return seat.seat

    def _is_host(self, live: Live, user: User, is_admin: bool) -> bool:
        return is_admin or live.row.host_id == user.id

"""Alt text of the league's pictures (`carca_bot.words.alt_league`): the rows the picture
draws, in order, in both languages, within Discord's limit, the heading always kept."""

from __future__ import annotations

import pytest

from carca_bot.i18n import speaking
from carca_bot.render.league import LeaderRow, StandingRow
from carca_bot.render.league_profile import ProfileCard
from carca_bot.words.alt import ALT_LIMIT
from carca_bot.words.alt_league import leaderboard_alt, profile_alt, standings_alt

ROWS = [StandingRow(1, "Ana", 3, 2, 1, 0, 2.5), StandingRow(2, "Ben", 3, 1, 0, 2, 1.0),
        StandingRow(3, "Cy", 2, 0, 1, 1, 0.5, withdrawn=True)]
EXPECTED = {
    "en": ("The standings of Spring Cup after round 3 of 5. 1. Ana, 2.5 points (2 won, 1 "
           "drawn, 0 lost); 2. Ben, 1 point (1 won, 0 drawn, 2 lost); 3. Cy, 0.5 points "
           "(0 won, 1 drawn, 1 lost) (withdrawn)."),
    "es": ("La clasificación de Spring Cup tras la ronda 3 de 5. 1. Ana, 2.5 puntos "
           "(ganadas: 2, empatadas: 1, perdidas: 0); 2. Ben, 1 punto (ganadas: 1, "
           "empatadas: 0, perdidas: 2); 3. Cy, 0.5 puntos (ganadas: 0, empatadas: 1, "
           "perdidas: 1) (se retiró)."),
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_standings_say_each_line_in_order(language: str) -> None:
    with speaking(language):
        said = standings_alt("Spring Cup", ROWS, round_no=3, rounds=5)
    assert said == EXPECTED[language]


def test_many_rows_are_cut_from_the_bottom_and_the_heading_stays() -> None:
    rows = [StandingRow(i, f"Player number {i} {'x' * 30}", 9, 3, 3, 3, 4.5)
            for i in range(1, 200)]
    with speaking("en"):
        said = standings_alt("Autumn League", rows, page=2, pages=14, final=True)
    assert len(said) <= ALT_LIMIT and said.endswith("…")
    assert said.startswith("The final standings of Autumn League. Page 2 of 14. 1. Player")
    assert "\u202e" not in standings_alt("Bad\u202eName", rows[:1])  # user text made plain


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The leaderboard of Meeple Club, duels. 1. Ana 1520.4 (34 games); 2. Ben 1490.0 "
           "(1 game, provisional)."),
    ("es", "El ranking de Meeple Club, duelos. 1. Ana 1520.4 (34 partidas); 2. Ben "
           "1490.0 (1 partida, provisional)."),
])
def test_the_leaderboard_names_each_player_rating_and_games(language: str,
                                                             expected: str) -> None:
    rows = [LeaderRow(1, "Ana", 1520.4, 34), LeaderRow(2, "Ben", 1490.0, 1, provisional=True)]
    with speaking(language):
        pool = "duels" if language == "en" else "duelos"
        assert leaderboard_alt("Meeple Club", pool, rows) == expected


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_profile_says_ratings_games_and_latest_places(language: str) -> None:
    card = ProfileCard(name="Ana", rating2=1520.44, rating_multi=None, games=12, wins=5,
                       average_score=88.25, recent_results=((1, 2), (3, 4)),
                       provisional2=True)
    with speaking(language):
        said = profile_alt(card)
        empty = profile_alt(ProfileCard(name="Ben", rating2=None, rating_multi=None, games=0,
                                        wins=0, average_score=None))
    assert said.startswith(("The profile of Ana.", "El perfil de Ana."))
    for part in ("1520.4", "12", "5", "88.2", "1", "3", "4"):
        assert part in said
    assert ("provisional" in said) and len(said) <= ALT_LIMIT
    assert empty in ("The profile of Ben. No finished game here yet.",
                     "El perfil de Ben. Todavía no hay ninguna partida terminada aquí.")

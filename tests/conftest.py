"""Marks the slow tests, by where they are, so a developer's quick run skips them.

`pytest -n auto -m "not slow"` is the quick run (under two minutes on 2 cores); CI runs
everything. The slow ones install the package into a fresh venv, fuzz or kill whole
games, play whole games, or redraw all the art.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from carca_bot import i18n

SLOW_FOLDERS = ("tests/deploy/", "tests/fault/")
SLOW_FILES = ("tests/service/test_kill.py", "tests/bot/test_full_games.py",
              "tests/local/test_terminal.py", "tests/scale/test_kill_processes.py",
              # PostgreSQL alone (the quick run keeps the store's SQLite tests)
              "tests/store/test_postgres_timeouts.py", "tests/store/test_pgbouncer.py",
              "tests/store/test_ops_postgres.py",
              # the arena script's own runs
              "tests/ai/test_bench.py")
SLOW_TESTS = (
    "tests/bot/test_game.py::test_full_game_from_create_to_final_scores",
    "tests/render/test_board.py::test_move_by_move_equals_from_scratch",
    "tests/render/test_art.py::test_committed_art_is_current",
    "tests/league/test_pairing.py::test_swiss_pairing_properties",
    # whole games by AI players (the quick run keeps their first moves)
    "tests/ai/test_legal.py::test_every_level_plays_a_whole_game_legally",
    "tests/ai/test_legal.py::test_all_expansions_with_any_number_of_players",
    "tests/ai/test_budget.py::test_a_seeded_game_under_an_iteration_budget_is_the_same_game",
    "tests/service/test_ai_seats.py::test_two_ais_and_a_person_play_a_whole_game",
    "tests/bot/test_ai_commands.py::test_a_solo_game_against_an_ai_to_the_end",
    # whole games through the bot, with every picture
    "tests/bot/test_history.py::test_a_finished_game_ends_with_its_card_replays_and_history",
    "tests/bot/test_hostile.py::test_six_player_final_post_keeps_the_winner_and_attaches_every_score",
    "tests/history/test_pictures.py::test_replay_fits_a_small_limit_by_shrinking_then_merging",
    # property runs over many seeded games (CI runs them all; the quick run keeps the
    # rules' own tests)
    "tests/engine/test_fast_paths.py::test_deployments_are_those_deploy_accepts",
    "tests/engine/test_push_pop.py::test_pop_restores_exactly_and_matches_a_replay",
    "tests/engine/test_expansion_properties.py::test_random_games_with_every_expansion",
    "tests/engine/test_traders_builders.py::"
    "test_push_and_pop_restore_exactly_with_traders_and_builders",
    "tests/engine/test_inns_cathedrals.py::"
    "test_push_and_pop_restore_exactly_with_inns_and_cathedrals",
    "tests/engine/test_words.py::test_events_and_refusals_read_as_before",
    "tests/ai/test_legal.py::test_every_level_moves_legally",
    "tests/ai/test_no_peeking.py::test_the_choice_does_not_depend_on_the_order_of_the_pile",
    "tests/ai/test_plans.py::test_a_finished_game_is_worth_its_scores",
    "tests/render/test_anchors.py::test_every_segment_anchor_is_inside_its_feature",
    "tests/render/test_anchors.py::test_figures_in_played_games_land_on_their_feature",
    "tests/render/test_art.py::test_fields_are_separated_as_in_catalogue",
    # processes, servers and a browser
    "tests/history/test_replay_html.py::test_page_in_headless_chromium",
    "tests/scale/test_compose.py::test_the_bots_health_check_asks_the_running_process",
    "tests/scale/test_two_processes.py::test_two_processes_apply_every_move_and_timer_once",
    "tests/bot/test_history.py::test_a_game_the_timer_ends_gets_the_pictures_too",
    "tests/bot/test_pseudo_locale.py::test_a_late_post_and_the_final_post_are_translated",
    "tests/bot/test_fair_commands.py::test_a_game_the_timer_ends_says_how_it_was_rated",
)
# The store's tests run on SQLite and PostgreSQL; the quick run keeps SQLite's.
SLOW_PARAMS = ("postgresql",)


def is_slow(nodeid: str) -> bool:
    path, _, name = nodeid.partition("::")
    test, _, params = name.partition("[")
    return (path.startswith(SLOW_FOLDERS) or path in SLOW_FILES
            or f"{path}::{test}" in SLOW_TESTS
            or any(p in params.rstrip("]").split("-") for p in SLOW_PARAMS))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item.nodeid):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _each_test_starts_in_english() -> Iterator[None]:
    """A front end that sets the language for its whole process (the terminal game's
    `use_language`) would otherwise leave it set for the tests that run after it."""
    i18n.use_language(i18n.DEFAULT)
    yield
    i18n.use_language(i18n.DEFAULT)

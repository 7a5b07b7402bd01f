"""The engine's sentences in Spanish: every refusal code and event reason, read and judged.

Each expected sentence below was written by hand against the glossary
(docs/glossary-es.md), not recorded from the code; an expansion's own sentences are
judged here from its test module's `SPANISH` list. Counted things appear in the
singular and the plural. The same items spoken in the pseudo-language leave no English
outside the catalogue's marks, so no sentence skips the catalogue.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.i18n import PSEUDO, speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.words import detail, event, refusal
from carca_bot.words.english import REASONS, REFUSALS

NAMES = ["Ana", "Ben", "Cy"]
TILE = {"tile": "U", "square": (2, -1), "rot": 1, "fits": True}  # where a refused tile went


def no(code: str, **params: Any) -> IllegalMove:
    return IllegalMove(code, **params)


REFUSED: list[tuple[IllegalMove, str]] = [
    (no("game_over"), "la partida ha terminado"),
    (no("wrong_phase", waiting="tile", player=1), "esperando a que Ben coloque una loseta"),
    (no("wrong_phase", waiting="placed", player=0),
     "Ana ha colocado una loseta y debe terminar el turno"),
    (no("wrong_phase", waiting="wagon", player=2),
     "esperando a que Cy mueva su carromato o lo devuelva a la reserva"),
    (no("wrong_phase", waiting="abbey_round", player=0),
     "esperando a que Ana coloque su abadía o renuncie a ella"),
    (no("not_your_turn", who=0, waiting="tile", player=1),
     "no es el turno de Ana: esperando a que Ben coloque una loseta"),
    (no("not_your_turn", who=7, waiting="finished", player=None),
     "no es el turno de jugador 8: la partida ha terminado"),
    (no("not_a_player", name="Zoe"), "'Zoe' no juega en esta partida"),
    (no("start_not_in_supply", tile="D"),
     "la loseta inicial D no está entre las losetas de esta partida"),
    (no("no_tiles_left"), "no quedan losetas que robar"),
    (no("unknown_tile", tile="ZZ"), "no existe ninguna loseta 'ZZ'"),
    (no("tile_not_in_supply", tile="AM3"), "no queda ninguna loseta AM3 por robar"),
    (no("lake_last"),
     "el lago se coloca el último, después de todas las demás losetas de río"),
    (no("river_first"), "primero van las losetas de río: roba del montón del río"),
    (no("not_drawable", tile="P"), "la loseta P no se puede robar ahora"),
    (no("discard_fits", tile="R"),
     "la loseta R cabe en el tablero, así que no se puede descartar"),
    (no("end_not_now", waiting="placed", player=1),
     "la partida solo puede terminar antes de que empiece un turno: Ben ha colocado una "
     "loseta y debe terminar el turno"),
    (no("tile_square_taken", **TILE),
     "la loseta U no puede ir en 2,-1 girada 90: la casilla 2,-1 ya está ocupada"),
    (no("tile_no_neighbour", **{**TILE, "fits": False}),
     "la loseta U no puede ir en 2,-1 girada 90: la casilla 2,-1 no toca por ningún borde "
     "una loseta colocada (la loseta U no cabe en ningún sitio: descártala)"),
    (no("tile_edge_mismatch", side=3, edge="city", other=(1, -1), shows="road", **TILE),
     "la loseta U no puede ir en 2,-1 girada 90: su borde oeste es ciudad, pero la loseta "
     "de 1,-1 tiene camino en ese borde"),
    (no("tile_edge_mismatch", side=0, edge="river", other=(2, -2), shows="field"),
     "su borde norte es río, pero la loseta de 2,-2 tiene campo en ese borde"),
    (no("river_closed"), "el río ya está cerrado"),
    (no("river_elsewhere", river_at=(0, 3)),
     "una loseta de río debe continuar el río en 0,3"),
    (no("river_inlet", side=2), "su río debe unirse al río por su lado S"),
    (no("river_u_turn", turn="left"),
     "el río no puede girar a la izquierda dos veces seguidas (sería un giro en U)"),
    (no("river_u_turn", turn="right"),
     "el río no puede girar a la derecha dos veces seguidas (sería un giro en U)"),
    (no("river_three_turns", turn="left"),
     "el río no puede girar a la izquierda tres veces seguidas"),
    (no("river_three_turns", turn="right"),
     "el río no puede girar a la derecha tres veces seguidas"),
    (no("cult_crowded", building="shrine", other="monastery"),
     "un santuario no puede estar junto a más de un monasterio"),
    (no("cult_crowded", building="monastery", other="shrine", abbey=True, square=(4, 4)),
     "la abadía no puede ir en 4,4: un monasterio no puede estar junto a más de un santuario"),
    (no("cult_partner_taken", building="monastery", other="shrine", partner=(1, 1)),
     "el santuario de 1,1 ya tiene un monasterio al lado"),
    (no("cult_partner_taken", building="shrine", other="monastery", partner=(0, 2)),
     "el monasterio de 0,2 ya tiene un santuario al lado"),
    (no("no_abbey", who=2), "Cy no tiene ninguna abadía que colocar"),
    (no("abbey_square_taken", square=(3, 0)), "la casilla 3,0 ya está ocupada"),
    (no("abbey_not_hole", square=(5, 5)),
     "una abadía solo puede ir en un hueco: la casilla 5,5 no está rodeada de losetas por "
     "los cuatro lados"),
    (no("skip_not_now"),
     "solo se puede renunciar a la abadía en la ronda de abadías del final de la partida"),
    (no("one_figure"), "solo se puede colocar una figura (o retirar el abad) por turno"),
    (no("deploy_and_recall"),
     "en un turno se puede colocar una figura o retirar el abad, pero no las dos cosas"),
    (no("unknown_figure", figure="dragon", on="N"),
     "no se puede colocar el dragon en N: no existe ninguna figura 'dragon'"),
    (no("figure_not_in_hand", who=1, figure="mayor", on="N"),
     "no se puede colocar el alcalde en N: Ben no tiene ningún alcalde en su reserva"),
    (no("figure_not_in_hand", who=0, figure="follower", on="C"),
     "no se puede colocar el seguidor en C: Ana no tiene ningún seguidor en su reserva"),
    (no("deploy_nothing_named", figure="abbot", on="WL"),
     "no se puede colocar el abad en WL: 'WL' no indica nada en la loseta recién colocada"),
    (no("garden_abbot_only", figure="wagon", on="G"),
     "no se puede colocar el carromato en G: solo un abad puede ponerse en un jardín"),
    (no("figure_not_allowed", figure="abbot", on="NL", where="field"),
     "no se puede colocar el abad en NL: un abad no puede ponerse en un campo"),
    (no("figure_not_allowed", figure="mayor", on="C", where="abbey"),
     "no se puede colocar el alcalde en C: un alcalde no puede ponerse en una abadía"),
    (no("figure_not_allowed", figure="wagon", on="SL", where="field"),
     "no se puede colocar el carromato en SL: un carromato no puede ponerse en un campo"),
    (no("feature_occupied", figure="follower", on="N", kind="city"),
     "no se puede colocar el seguidor en N: esa ciudad ya está ocupada"),
    (no("feature_occupied", figure="follower", on="E", kind="road"),
     "no se puede colocar el seguidor en E: ese camino ya está ocupado"),
    (no("feature_occupied", figure="abbot", on="C", kind="building"),
     "no se puede colocar el abad en C: ese edificio ya está ocupado"),
    (no("joins_no_follower", figure="follower", on="N", kind="city"),
     "no se puede colocar el seguidor en N: ninguno de tus seguidores está en esa ciudad"),
    (no("joins_no_follower", figure="follower", on="E", kind="road"),
     "no se puede colocar el seguidor en E: ninguno de tus seguidores está en ese camino"),
    (no("joins_no_follower", figure="follower", on="SL", kind="field"),
     "no se puede colocar el seguidor en SL: ninguno de tus campesinos está en ese campo"),
    (no("joins_completed", figure="follower", on="N", kind="city"),
     "no se puede colocar el seguidor en N: esta loseta completa esa ciudad"),
    (no("joins_completed", figure="follower", on="W", kind="road"),
     "no se puede colocar el seguidor en W: esta loseta completa ese camino"),
    (no("barn_not_corner", figure="barn", on="N"),
     "no se puede colocar el establo en N: un establo va en una esquina (NW, NE, SE o SW), "
     "no en 'N'"),
    (no("barn_corner_not_field", figure="barn", on="SE"),
     "no se puede colocar el establo en SE: un establo necesita cuatro losetas que se junten "
     "en la esquina SE, todas con campo en ella"),
    (no("barn_field_taken", figure="barn", on="NW"),
     "no se puede colocar el establo en NW: ese campo ya tiene un establo"),
    (no("no_abbot_on_board", who=1), "Ben no tiene ningún abad en el tablero que retirar"),
    (no("abbot_completes"),
     "esta loseta completa el edificio del abad, que puntúa de todos modos"),
    (no("one_token"), "solo se puede colocar una ficha de túnel por turno"),
    (no("no_tunnels"), "no se puede colocar la ficha: esta partida no tiene túneles"),
    (no("no_such_pair", pairs=1),
     "no se puede colocar la ficha: no existe ese par de fichas: cada jugador tiene 1 par"),
    (no("no_such_pair", pairs=2),
     "no se puede colocar la ficha: no existe ese par de fichas: cada jugador tiene 2 pares"),
    (no("pair_used"),
     "no se puede colocar la ficha: las dos fichas de ese par ya están en el tablero"),
    (no("token_no_tile", square=(9, 9)),
     "no se puede colocar la ficha: no hay ninguna loseta en 9,9"),
    (no("token_nothing_named", on="Q", square=(1, 0)),
     "no se puede colocar la ficha: 'Q' no indica nada en la loseta de 1,0"),
    (no("no_tunnel_entrance", on="E", square=(1, 0)),
     "no se puede colocar la ficha: el lado E de la loseta de 1,0 no tiene entrada de túnel"),
    (no("entrance_taken"),
     "no se puede colocar la ficha: esa entrada de túnel ya tiene una ficha"),
    (no("wagon_nothing_named", on="X", square=(0, -1)),
     "'X' en 0,-1 no indica nada en el tablero"),
    (no("wagon_onto", kind="field"), "un carromato no puede moverse a un campo"),
    (no("wagon_onto", kind="garden"), "un carromato no puede moverse a un jardín"),
    (no("wagon_complete"),
     "un carromato solo puede moverse a una construcción sin completar"),
    (no("wagon_occupied"), "esa construcción está ocupada"),
    (no("wagon_chased_from"),
     "el carromato no puede volver al edificio del que lo expulsaron"),
    (no("wagon_c2_range", wagon_at=(1, 0)),
     "con la regla c2 el carromato solo se mueve a su propia casilla 1,0 o a una de las 8 "
     "que la rodean"),
    (no("wagon_c1_link"),
     "con la regla c1 el carromato solo se mueve a una construcción conectada directamente "
     "con la que ha puntuado"),
]


def score(players: tuple[int, ...], points: int, reason: str, final: bool = False,
          **params: Any) -> Event:
    return Event("score", players, points, reason=reason, params={"final": final, **params},
                 final=final)


HAPPENED: list[tuple[Event, str]] = [
    (score((0,), 1, "road", final=True, tiles=1),
     "Ana: +1 por camino sin completar de 1 loseta (1 por loseta)"),
    (score((), 0, "road", tiles=3, final=False),
     "camino completado de 3 losetas (1 por loseta): nadie puntúa"),
    (score((0, 2), 8, "city", tiles=3, pennants=1, each=2, final=False),
     "Ana y Cy: +8 por ciudad completada de 3 losetas y 1 escudo (2 por loseta y escudo)"),
    (score((0, 1, 2), 2, "city", final=True, tiles=1, pennants=0, each=1),
     "Ana, Ben y Cy: +2 por ciudad sin completar de 1 loseta (1 por loseta y escudo)"),
    (score((1,), 12, "city", final=True, tiles=9, pennants=3, each=1),
     "Ben: +12 por ciudad sin completar de 9 losetas y 3 escudos (1 por loseta y escudo)"),
    (score((1,), 4, "city", tiles=2, pennants=0, each=2),
     "Ben: +4 por ciudad completada de 2 losetas (2 por loseta y escudo)"),
    (score((1,), 9, "building", name="monastery", final=False),
     "Ben: +9 por monasterio completado (9)"),
    (score((1,), 9, "building", name="abbey", final=False),
     "Ben: +9 por abadía completada (9)"),
    (score((2,), 2, "building", final=True, name="shrine", neighbours=1),
     "Cy: +2 por santuario sin completar con 1 loseta vecina (1 + 1)"),
    (score((2,), 6, "building", final=True, name="garden", neighbours=5),
     "Cy: +6 por jardín sin completar con 5 losetas vecinas (1 + 5)"),
    (score((0,), 4, "abbot_recalled", counted="building", final=True, name="monastery",
           neighbours=3),
     "Ana: +4 por abad retirado: monasterio sin completar con 3 losetas vecinas (1 + 3)"),
    (score((0,), 3, "barn_placed", cities=1, per_city=3),
     "Ana: +3 por un establo colocado en el campo: 1 ciudad completada (3 por ciudad)"),
    (score((1,), 2, "barn_joined", cities=2, per_city=1),
     "Ben: +2 por campesinos unidos al campo de un establo: 2 ciudades completadas "
     "(1 por ciudad)"),
    (score((0, 1), 3, "farmers_final", final=True, cities=1, per_city=3),
     "Ana y Ben: +3 por campesinos en un campo que toca 1 ciudad completada (3 por ciudad)"),
    (score((2,), 8, "barn_final", final=True, cities=2, per_city=4),
     "Cy: +8 por establo en un campo que toca 2 ciudades completadas (4 por ciudad)"),
    (score((0,), 1, "title_final", final=True, title="king", kind="city", count=1),
     "Ana: +1 por el Rey: 1 ciudad completada en el tablero (1 por cada una)"),
    (score((1,), 7, "title_final", final=True, title="robber", kind="road", count=7),
     "Ben: +7 por el Ladrón: 7 caminos completados en el tablero (1 por cada uno)"),
    (Event("king", (2,), reason="title_taken", params={"title": "king", "kind": "city",
                                                       "size": 4}),
     "Cy: se lleva al Rey: ha completado la ciudad más grande hasta ahora (4 losetas)"),
    (Event("robber", (0,), reason="title_taken", params={"title": "robber", "kind": "road",
                                                         "size": 3}),
     "Ana: se lleva al Ladrón: ha completado el camino más largo hasta ahora (3 losetas)"),
    (Event("challenge", (1,), reason="challenge",
           params={"winner": "shrine", "winner_at": (1, 1), "loser": "abbey",
                   "loser_at": (2, 1)}),
     "Ben: reto de fe: el santuario de 1,1 se completó primero y los seguidores que estaban "
     "en la abadía de 2,1 vuelven a la reserva sin puntos"),
    (Event("discard", (0,), reason="discarded", params={"tile": "RV-lake"}),
     "Ana: la loseta RV-lake no cabe en ningún sitio y se retira de la partida"),
    (Event("wagon_returned", (1,), reason="wagon_stuck"),
     "Ben: el carromato no tiene adónde ir y vuelve a la reserva"),
    (Event("wagon_returned", (2,), reason="wagon_returned"),
     "Cy: el carromato vuelve a la reserva"),
    (Event("wagon_moved", (2,), reason="wagon_moved", params={"on": "C", "square": (-1, 3)}),
     "Cy: el carromato se mueve a C en -1,3"),
]




def _judged_with_their_expansion() -> list[tuple[IllegalMove | Event, str]]:
    """The sentences an expansion's own test module judges: its `SPANISH` list (so adding an
    expansion touches its own tests, not this file)."""
    found: list[tuple[IllegalMove | Event, str]] = []
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        if path.stem != "test_words_es":
            found.extend(getattr(import_module(f"tests.engine.{path.stem}"), "SPANISH", []))
    return found


_ELSEWHERE = _judged_with_their_expansion()
REFUSED += [(err, text) for err, text in _ELSEWHERE if isinstance(err, IllegalMove)]
HAPPENED += [(ev, text) for ev, text in _ELSEWHERE if isinstance(ev, Event)]


@pytest.mark.parametrize(("err", "spanish"), REFUSED, ids=lambda v: getattr(v, "code", ""))
def test_refusals_in_spanish(err: IllegalMove, spanish: str) -> None:
    with speaking("es"):
        assert refusal(err, NAMES) == spanish


@pytest.mark.parametrize(("ev", "spanish"), HAPPENED, ids=lambda v: getattr(v, "reason", ""))
def test_events_in_spanish(ev: Event, spanish: str) -> None:
    with speaking("es-MX"):
        assert event(ev, NAMES) == spanish


def test_every_code_and_reason_is_judged_in_spanish() -> None:
    assert {err.code for err, _ in REFUSED} == set(REFUSALS)
    assert {ev.reason for ev, _ in HAPPENED} == set(REASONS)


def test_no_sentence_skips_the_catalogue() -> None:
    """Spoken in the pseudo-language, only data is left outside the marks."""
    data = frozenset({*NAMES, "RV", "lake", "dragon", "AM3", "ZZ", "Zoe", "NW", "NE",
                      "SE", "SW", "WL", "NL", "SL"})
    with speaking(PSEUDO):
        said = [refusal(err, NAMES) for err, _ in REFUSED]
        said += [event(ev, NAMES) for ev, _ in HAPPENED]
        said += [detail(ev) for ev, _ in HAPPENED]
    assert [(text, untranslated(text, data)) for text in said
            if untranslated(text, data)] == []
    assert untranslated("⟦á {x} ⟦b⟧ the end⟧") == []
    assert untranslated("⟦á ⟦b⟧⟧ the end") == ["the", "end"]


def test_english_is_the_default_and_the_source() -> None:
    err, _ = REFUSED[19]
    assert refusal(err, NAMES) == ("U cannot go at 2,-1 turned 90: its west edge is city but "
                                   "the tile at 1,-1 shows road there")
    assert event(HAPPENED[2][0], NAMES) == ("Ana and Cy +8 for completed city of 3 tiles and "
                                            "1 pennant (2 per tile and pennant)")
    assert event(HAPPENED[3][0], NAMES) == ("Ana, Ben and Cy +2 for incomplete city of 1 tile "
                                            "(1 per tile and pennant)")

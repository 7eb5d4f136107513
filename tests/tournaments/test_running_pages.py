"""The pages of a running and a finished tournament: matches, standings per turn, results, profile, conto."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse

from games.rng import SeededRng
from tests.piattaforma.factories import sign_in
from tests.tournaments.running_helpers import full_tournament, play_out, play_turn
from tournaments import running
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db
F = Tournament.Format


def test_running_lobby_shows_the_matches_and_your_table(staff, client):
    t, players = full_tournament(staff, 4, format=F.DANESE, turns=2)
    url = reverse("tournaments:lobby", args=[t.pk])
    me = players[0]
    mine = TournamentMatch.objects.get(Q(line_a=str(me.pk)) | Q(line_b=str(me.pk)), tournament=t, turn=1)
    other = TournamentMatch.objects.filter(tournament=t, turn=1).exclude(pk=mine.pk).get()
    sign_in(client, me)
    page = client.get(url).content.decode()
    assert 'data-testid="matches"' in page
    assert f'data-testid="my-table" href="{reverse("lobby:table", args=[mine.table_id])}"' in page
    assert reverse("lobby:table", args=[other.table_id]) in page and "Guarda" in page
    client.logout()
    page = client.get(url).content.decode()  # anonymous: may watch, has no table of his own
    assert 'data-testid="my-table"' not in page and "Guarda" in page
    play_turn(t, SeededRng(2))
    page = client.get(url).content.decode()
    assert 'data-testid="standings"' in page and "Dopo il turno 1" in page and "VP" in page
    # each nickname in the standings leads to the player's public card (rules 004: "cliccando sul nickname")
    standings = page[page.index('data-testid="standings"') :]
    for p in players:
        card = reverse("moderation:player_card", args=[p.nickname])
        assert f'<a class="card-link" href="{card}">{p.nickname}</a>' in standings


def test_finished_tournament_results_profile_and_conto(staff, client):
    t, players = full_tournament(staff, 4, format=F.KO)
    play_out(t, SeededRng(3))
    paid = running.tournament_pay(tournament_id=t.pk)
    winner_id = max(paid["prizes"], key=paid["prizes"].get)
    winner = next(p for p in players if p.pk == winner_id)
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert 'data-testid="results"' in page and winner.nickname in page and "36,00" in page  # 4 × 9,00
    card = reverse("moderation:player_card", args=[winner.nickname])
    assert f'<a class="card-link" href="{card}">{winner.nickname}</a>' in page
    sign_in(client, winner)
    profile = client.get(reverse("profile")).content.decode()
    assert 'data-testid="my-tournaments"' in profile and t.name in profile and "1°" in profile
    conto = client.get(reverse("wallet:statement")).content.decode()
    assert "Vincita torneo" in conto and "36,00" in conto
    sign_in(client, players[0] if players[0] != winner else players[1])
    other = client.get(reverse("profile")).content.decode()
    assert t.name in other and "36,00" not in other


def test_the_lobby_stamp_changes_with_each_result_and_turn_and_stops_at_the_end(staff, client):
    """The lobby page asks for the stamp while the tournament runs and reloads when it changes."""
    from tests.lobby.helpers import play_hand_randomly
    from tests.tournaments.running_helpers import open_tables

    t, players = full_tournament(staff, 4, format=F.DANESE, turns=2)
    url, state_url = reverse("tournaments:lobby", args=[t.pk]), reverse("tournaments:my_state", args=[t.pk])
    sign_in(client, players[0])
    page = client.get(url).content.decode()
    first = client.get(state_url).json()["stamp"]
    assert f'data-tournament-live="{state_url}" data-stamp="{first}"' in page
    seen = {first}
    for table in open_tables(t):  # each match's end, then the next turn, is a new stamp
        play_hand_randomly(table, SeededRng(table.pk), max_steps=3000)
        seen.add(client.get(state_url).json()["stamp"])
    running.tournament_advance(tournament_id=t.pk)
    seen.add(client.get(state_url).json()["stamp"])
    assert len(seen) == 4
    assert client.get(state_url).json()["stamp"] in seen  # asking again changes nothing
    play_out(t, SeededRng(5))
    assert 'data-tournament-live="' not in client.get(url).content.decode()  # finished: no poll


def test_the_info_panel_shows_the_turn_and_the_players_left(staff, client):
    t, _players = full_tournament(staff, 8, format=F.KO)
    url = reverse("tournaments:lobby", args=[t.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="turn">1<' in page and 'data-testid="players-left">8<' in page
    play_turn(t, SeededRng(6))
    page = client.get(url).content.decode()
    assert 'data-testid="turn">2<' in page and 'data-testid="players-left">4<' in page
    play_out(t, SeededRng(6))
    assert 'data-testid="players-left"' not in client.get(url).content.decode()  # over: nobody in the race
    d, _ = full_tournament(staff, 4, format=F.DANESE, turns=2)
    page = client.get(reverse("tournaments:lobby", args=[d.pk])).content.decode()
    assert 'data-testid="players-left">4<' in page  # a girone: everyone plays every turn


def test_a_pairs_standings_row_links_both_partners_to_their_cards(staff, client):
    t, _ = full_tournament(staff, 8, game="tresette", table="4", lines="random_pairs", turns=2)
    play_turn(t, SeededRng(5))
    from tournaments import selectors

    rows = selectors.standings_by_turn(tournament=t)[0]["rows"]
    assert all(len(r["players"]) == 2 and r["name"] == " / ".join(r["players"]) for r in rows)
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    first = rows[0]["players"]
    cards = [reverse("moderation:player_card", args=[n]) for n in first]
    links = [f'<a class="card-link" href="{card}">{n}</a>' for card, n in zip(cards, first, strict=True)]
    assert f"{links[0]} / {links[1]}" in page

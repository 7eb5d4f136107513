"""The pages of a running and a finished tournament: matches, standings per turn, results, profile, conto."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse

from games.rng import SeededRng
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
    client.force_login(me)
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


def test_finished_tournament_results_profile_and_conto(staff, client):
    t, players = full_tournament(staff, 4, format=F.KO)
    play_out(t, SeededRng(3))
    paid = running.tournament_pay(tournament_id=t.pk)
    winner_id = max(paid["prizes"], key=paid["prizes"].get)
    winner = next(p for p in players if p.pk == winner_id)
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert 'data-testid="results"' in page and winner.nickname in page and "36,00" in page  # 4 × 9,00
    client.force_login(winner)
    profile = client.get(reverse("profile")).content.decode()
    assert 'data-testid="my-tournaments"' in profile and t.name in profile and "1°" in profile
    conto = client.get(reverse("wallet:statement")).content.decode()
    assert "Vincita torneo" in conto and "36,00" in conto
    client.force_login(players[0] if players[0] != winner else players[1])
    other = client.get(reverse("profile")).content.decode()
    assert t.name in other and "36,00" not in other

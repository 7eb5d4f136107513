"""Back office: a table's rake is typed and shown as a percentage, its money in euro."""

import pytest
from django import forms

from piattaforma import roles
from tests.lobby.factories import poker_table
from tests.piattaforma.factories import UserFactory, sign_in
from wallet.forms import PercentField, format_percent, format_percent_input

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "basis_points"), [("5", 500), ("2,5", 250), ("2,25 %", 225), ("0", 0), ("10%", 1000)]
)
def test_a_percentage_cleans_to_basis_points(typed, basis_points):
    assert PercentField().clean(typed) == basis_points


@pytest.mark.parametrize("typed", ["2.5", "2,555", "-5", "cinque", "1234"])
def test_what_is_not_a_percentage_is_refused_in_italian(typed):
    with pytest.raises(forms.ValidationError) as caught:
        PercentField().clean(typed)
    assert "virgola" in str(caught.value) or "percentuale" in str(caught.value)


def test_empty_means_what_the_field_says():
    assert PercentField(required=False, blank_means=0).clean("") == 0


@pytest.mark.parametrize(("bp", "shown"), [(500, "5"), (250, "2,5"), (225, "2,25"), (0, "0"), (1000, "10")])
def test_basis_points_read_as_percentages(bp, shown):
    assert format_percent_input(bp) == shown and format_percent(bp) == f"{shown} %"


def test_the_tables_list_shows_euro_and_percent_never_cents(client):
    table = poker_table()
    table.rake_bp, table.min_buy_in, table.max_buy_in = 250, 1_000, 50_000
    table.save(update_fields=["rake_bp", "min_buy_in", "max_buy_in"])
    sign_in(client, UserFactory(role=roles.STAFF))
    html = client.get("/backoffice/lobby/table/").content.decode()
    assert "2,5 %" in html and "€ 10,00" in html and "€ 500,00" in html
    assert ">50000<" not in html and ">250<" not in html
    change = client.get(f"/backoffice/lobby/table/{table.pk}/change/").content.decode()
    assert 'name="rake_bp" value="2,5"' in change

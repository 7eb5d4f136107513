"""Fuzzed table actions: anything a client can send is either a legal move or refused cleanly."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import registry
from games.engine import EngineError, spec_matches
from lobby import door
from lobby.errors import TableError
from lobby.models import HandStep, Seat
from tests.lobby.factories import poker_table
from tests.lobby.helpers import runtime, seat_players
from tests.wallet.factories import funded_player

json_scalars = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
action_types = st.sampled_from(
    ["passo", "busso", "punto", "rilancio", "vedo", "invito", "sitout", "parol", "gioca", "boh", ""]
)
actions_strategy = st.fixed_dictionaries(
    {"type": action_types},
    optional={"amount": json_values, "card": json_values, "take": json_values, "x": json_values},
) | st.dictionaries(st.text(max_size=6), json_values, max_size=4)


@pytest.mark.django_db
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(action=actions_strategy, who=st.integers(0, 2))
def test_fuzzed_actions_are_refused_or_legal_and_never_corrupt(action, who):
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    before = runtime(table)
    seat = Seat.objects.get(table=table, user=users[who])
    engine = registry.get("poker5")
    legal = any(spec_matches(s, action) for s in engine.legal_actions(before.state, seat.number))
    steps = HandStep.objects.count()  # examples share the test's database transaction
    try:
        door.table_act(table_id=table.pk, user=users[who], action=action, version=before.version)
    except (EngineError, TableError) as exc:
        assert exc.code and exc.message
        assert not legal, (action, exc.code)
        after = runtime(table)
        assert after.version == before.version and after.state == before.state
        assert HandStep.objects.count() == steps
    else:
        assert legal, action
        assert runtime(table).version == before.version + 1

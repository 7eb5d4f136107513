"""Reports ("Segnala"): the context captured at that moment, merging, ranking, bad input refused."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from moderation import actions
from moderation.errors import ModerationError
from moderation.models import Report, ReportEntry, Sanction
from tests.moderation.factories import conversation, say
from tests.piattaforma.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return UserFactory(nickname="bullo"), UserFactory(nickname="vittima"), UserFactory(nickname="testimone")


def test_reporting_a_line_captures_the_conversation_around_it_at_that_moment(people):
    bully, victim, _ = people
    lines = conversation([bully, victim], 20)
    reported = lines[14]
    entry, merged = actions.report_file(
        reporter=victim, line_id=reported.pk, reason="insult", note="mi insulta"
    )
    assert not merged
    ids = [c["id"] for c in entry.context]
    assert ids == [x.pk for x in lines[4:20]]  # ten before, the line, five after
    assert [c["reported"] for c in entry.context].count(True) == 1
    assert next(c for c in entry.context if c["reported"])["text"] == "riga numero 14"
    say(bully, "una riga dopo la segnalazione")
    entry.refresh_from_db()
    assert len(entry.context) == 16  # captured once, not a live view
    report = entry.report
    assert (report.target, report.status, report.entries_count, entry.channel) == (
        bully,
        "open",
        1,
        "table:1",
    )


def test_a_censored_line_is_reported_with_what_was_shown(people):
    bully, victim, _ = people
    line = say(bully, "sei un cretino")
    entry, _ = actions.report_file(reporter=victim, line_id=line.pk, reason="insult")
    shown = next(c for c in entry.context if c["reported"])
    assert shown["text"] == "sei un *******" and line.text == "sei un cretino"


def test_reports_on_the_same_player_merge_into_one_case(people):
    bully, victim, witness = people
    line = say(bully, "sei scarso")
    first, merged1 = actions.report_file(reporter=victim, line_id=line.pk, reason="insult")
    second, merged2 = actions.report_file(reporter=witness, line_id=line.pk, reason="intimidation")
    third, merged3 = actions.report_file(reporter=victim, nickname="BULLO", channel="table:1", reason="flood")
    assert (merged1, merged2, merged3) == (False, True, True)
    assert Report.objects.count() == 1
    report = Report.objects.get()
    assert report.entries_count == 3 and {e.report_id for e in (first, second, third)} == {report.pk}
    # the same reporter reporting the same line again adds nothing
    again, merged = actions.report_file(reporter=witness, line_id=line.pk, reason="racism")
    assert merged and again.pk == second.pk and ReportEntry.objects.count() == 3
    report.refresh_from_db()
    assert report.entries_count == 3 and report.severity == 4  # intimidation; the repeat's racism not taken


def test_a_closed_case_is_not_reopened_a_new_one_starts(people):
    bully, victim, _ = people
    line = say(bully, "sei scarso")
    entry, _ = actions.report_file(reporter=victim, line_id=line.pk, reason="insult")
    Report.objects.filter(pk=entry.report_id).update(status="closed")
    again, merged = actions.report_file(reporter=victim, line_id=line.pk, reason="insult")
    assert not merged and again.report_id != entry.report_id


def test_ranking_weighs_severity_reporters_and_repeat_offenders():
    players = [UserFactory() for _ in range(6)]
    mild, severe, crowd, repeat = players[:4]
    reporters = players[4:]
    actions.report_file(reporter=reporters[0], line_id=say(mild, "uffa").pk, reason="capitals")
    actions.report_file(reporter=reporters[0], line_id=say(severe, "bah").pk, reason="racism")
    for r in reporters:
        actions.report_file(reporter=r, line_id=say(crowd, f"mah {r.pk}").pk, reason="capitals")
    Sanction.objects.create(user=repeat, kind="warning", reason="prima volta")
    actions.report_file(reporter=reporters[0], line_id=say(repeat, "boh").pk, reason="capitals")
    score = {r.target_id: r.score for r in Report.objects.all()}
    assert score[severe.pk] > score[mild.pk]
    assert score[crowd.pk] > score[mild.pk]
    assert score[repeat.pk] > score[mild.pk]
    assert Report.objects.first().target_id == severe.pk  # the queue's order


def test_reliable_reporters_weigh_more():
    reliable, unreliable, a, b = (UserFactory() for _ in range(4))
    for reporter, decision in ((reliable, "warn"), (unreliable, "dismiss")):
        for _ in range(3):
            target = UserFactory()
            entry, _ = actions.report_file(reporter=reporter, line_id=say(target, "x y").pk, reason="insult")
            Report.objects.filter(pk=entry.report_id).update(status="closed", decision=decision)
    e1, _ = actions.report_file(reporter=reliable, line_id=say(a, "uno").pk, reason="insult")
    e2, _ = actions.report_file(reporter=unreliable, line_id=say(b, "due").pk, reason="insult")
    assert e1.reliability == pytest.approx(4 / 5) and e2.reliability == pytest.approx(1 / 5)
    e1.report.refresh_from_db()
    e2.report.refresh_from_db()
    assert e1.report.score > e2.report.score


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"reason": "nonsense"}, "report_bad_reason"),
        ({"reason": ""}, "report_bad_reason"),
        ({"reason": "insult", "note": "x" * 501}, "report_note_too_long"),
        ({"reason": "insult", "line_id": 999_999}, "report_no_line"),
        ({"reason": "insult", "nickname": "nessuno"}, "report_no_player"),
        ({"reason": "insult"}, "report_no_player"),
        ({"reason": "insult", "nickname": "vittima"}, "report_self"),
        ({"reason": "insult", "nickname": "bullo", "channel": "table:1; drop"}, "report_bad_channel"),
    ],
)
def test_bad_reports_are_refused_and_change_nothing(people, kwargs, code):
    _, victim, _ = people
    with pytest.raises(ModerationError) as info:
        actions.report_file(reporter=victim, **kwargs)
    assert info.value.code == code and info.value.message
    assert not Report.objects.exists() and not ReportEntry.objects.exists()


def test_a_held_or_blocked_line_cannot_be_reported_by_players(people):
    bully, victim, _ = people
    with pytest.raises(ModerationError):
        actions.chat_screen(author=bully, channel="table:1", text="porco dio")
    from moderation.models import ChatLine

    blocked = ChatLine.objects.get(author=bully)
    with pytest.raises(ModerationError) as info:
        actions.report_file(reporter=victim, line_id=blocked.pk, reason="blasphemy")
    assert info.value.code == "report_no_line"


def test_too_many_reports_in_an_hour(people):
    _, victim, _ = people
    for _ in range(actions.REPORTS_PER_HOUR):
        actions.report_file(reporter=victim, line_id=say(UserFactory(), "ciao").pk, reason="insult")
    count = ReportEntry.objects.count()
    with pytest.raises(ModerationError) as info:
        actions.report_file(reporter=victim, line_id=say(UserFactory(), "ciao").pk, reason="insult")
    assert info.value.code == "report_too_many" and ReportEntry.objects.count() == count
    later = timezone.now() + timedelta(hours=1, minutes=1)
    actions.report_file(reporter=victim, line_id=say(UserFactory(), "ciao").pk, reason="insult", now=later)


# --- the endpoint ---------------------------------------------------------------------------------


def post(client, body, raw=None):
    url = reverse("moderation:report_api")
    return client.post(url, raw if raw is not None else json.dumps(body), content_type="application/json")


def test_the_endpoint_lists_reasons_and_files_reports(client, people):
    bully, victim, _ = people
    line = say(bully, "sei scarso")
    client.force_login(victim)
    reasons = client.get(reverse("moderation:report_api")).json()["reasons"]
    assert {"value": "blasphemy", "label": "Bestemmie"} in reasons and len(reasons) == 11
    response = post(client, {"line": line.pk, "reason": "insult", "note": "ripetutamente"})
    assert response.status_code == 201
    data = response.json()
    assert data["merged"] is False and "Grazie" in data["message"]
    response = post(client, {"nickname": "bullo", "channel": "table:1", "reason": "flood"})
    assert response.status_code == 201 and response.json()["merged"] is True
    assert ReportEntry.objects.count() == 2


@pytest.mark.parametrize(
    "body",
    [
        None,
        {"line": "1", "reason": "insult"},
        {"line": True, "reason": "insult"},
        {"nickname": 5, "reason": "insult"},
        {"nickname": "bullo", "reason": ["insult"]},
        {"nickname": "bullo", "reason": "insult", "note": None},
    ],
)
def test_the_endpoint_refuses_bad_input(client, people, body):
    client.force_login(people[1])
    response = post(client, body, raw="{nope" if body is None else None)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert not ReportEntry.objects.exists()


HOSTILE_BODIES = {
    "deep": "[" * 100_000 + "]" * 100_000,
    "deep_object": '{"note": ' + "[" * 5000 + "]" * 5000 + "}",
    "lone_surrogate": '{"nickname": "bullo", "reason": "insult", "note": "\\ud800"}',
    "nul_escaped": '{"nickname": "bullo", "reason": "insult", "note": "a\\u0000b"}',
    "nul_in_key": '{"nickname": "bullo", "reason": "insult", "a\\u0000": 1}',
    "nan": '{"line": NaN, "reason": "insult"}',
    "huge_int": '{"line": ' + "9" * 5000 + ', "reason": "insult"}',
    "not_utf8": b'{"nickname": "bullo", "reason": "insult", "note": "\xff"}',
}


@pytest.mark.parametrize("raw", HOSTILE_BODIES.values(), ids=HOSTILE_BODIES.keys())
def test_the_endpoint_refuses_hostile_json_without_a_500(client, people, raw):
    # read with plain json.loads: the deep array was a RecursionError (500), the lone surrogate
    # and the NUL reached the database (500 on PostgreSQL)
    client.force_login(people[1])
    response = post(client, None, raw=raw)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert not ReportEntry.objects.exists()


@pytest.mark.parametrize("raw", HOSTILE_BODIES.values(), ids=HOSTILE_BODIES.keys())
def test_the_notices_endpoint_refuses_hostile_json_without_a_500(client, people, raw):
    client.force_login(people[1])
    url = reverse("moderation:notices_api")
    response = client.post(url, raw, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


@pytest.mark.parametrize("name", ["moderation:report_api", "moderation:notices_api"])
def test_a_form_posted_to_a_json_endpoint_is_refused_without_a_500(client, people, name):
    # the form's body was read as a form first (middleware, CSRF): request.body then raised
    client.force_login(people[1])
    for data in ({"nickname": "bullo", "reason": "insult"}, {"read": "1"}):
        response = client.post(reverse(name), data)  # multipart, as a browser form sends it
        assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert not ReportEntry.objects.exists()


def test_the_endpoint_answers_refusals_with_their_code(client, people):
    client.force_login(people[1])
    response = post(client, {"nickname": "vittima", "reason": "insult"})
    assert response.status_code == 400 and response.json()["code"] == "report_self"


def test_the_endpoint_wants_a_logged_in_player(client, people):
    line = say(people[0], "ciao")
    assert post(client, {"line": line.pk, "reason": "insult"}).status_code == 403
    assert client.get(reverse("moderation:report_api")).status_code == 403
    assert not ReportEntry.objects.exists()


def test_notices_are_each_players_own(client, people):
    bully, victim, _ = people
    now = timezone.now()
    mine = actions.notice_send(user_id=victim.pk, code="report_handled", text="grazie", now=now)
    theirs = actions.notice_send(user_id=bully.pk, code="moderation_warn", text="attento", now=now)
    client.force_login(victim)
    url = reverse("moderation:notices_api")
    assert [n["id"] for n in client.get(url).json()["notices"]] == [mine.pk]
    response = client.post(url, json.dumps({"read": [mine.pk, theirs.pk]}), content_type="application/json")
    assert response.status_code == 200 and response.json()["notices"] == []
    theirs.refresh_from_db()
    assert theirs.read_at is None  # another player's notice is untouched
    for bad in ("{x", json.dumps({"read": "1"}), json.dumps({"read": ["1"]})):
        assert client.post(url, bad, content_type="application/json").status_code == 400

"""The moderators' queue: who may see and decide, each decision's effect and notices, mutes ending on time."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from moderation import actions, selectors
from moderation.errors import ModerationError
from moderation.models import Notice, Report, Sanction
from piattaforma import roles
from piattaforma.models import AuditLog, User
from tests.moderation.factories import ReportFactory, say
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def case():
    """An open case: 'bullo' insulted at a table, reported by 'vittima' and 'testimone'."""
    bully = UserFactory(nickname="bullo", email="bullo.segreto@example.invalid")
    victim, witness = UserFactory(nickname="vittima"), UserFactory(nickname="testimone")
    line = say(bully, "sei un incapace")
    ReportFactory(reporter=victim, line=line, note="mi offende")
    return ReportFactory(reporter=witness, line=line).report


@pytest.fixture
def moderator():
    return UserFactory(nickname="mod1", role=roles.MODERATORS)


@pytest.fixture
def staff():
    return UserFactory(nickname="capo", role=roles.STAFF)


def snapshot():
    """What a refused decision must leave untouched."""
    return (
        list(Report.objects.values_list("pk", "status", "claimed_by_id", "decision")),
        Sanction.objects.count(),
        Notice.objects.count(),
        AuditLog.objects.filter(action__startswith="moderation.").exclude(action="moderation.claim").count(),
        list(User.objects.values_list("pk", "status")),
    )


# --- who may see the queue ------------------------------------------------------------------------


def pages(case):
    return [reverse("moderation:queue"), reverse("moderation:case", args=[case.pk])]


def test_players_and_visitors_never_see_the_queue(client, case):
    for url in pages(case):
        assert client.get(url).status_code == 302  # to the login page
    sign_in(client, UserFactory())
    for url in pages(case):
        assert client.get(url).status_code == 403
    before = snapshot()
    assert client.post(reverse("moderation:claim", args=[case.pk])).status_code == 403
    data = {"decision": "mute", "reason": "insulti ripetuti", "minutes": 10}
    assert client.post(reverse("moderation:decide", args=[case.pk]), data).status_code == 403
    assert snapshot() == before
    with pytest.raises(ModerationError) as info:
        actions.report_claim(report_id=case.pk, moderator=UserFactory())
    assert info.value.code == "not_moderator"


@pytest.mark.parametrize("who", ["moderator", "staff"])
def test_moderators_and_staff_see_the_queue_with_nicknames_only(client, case, who, request):
    sign_in(client, request.getfixturevalue(who))
    for url in pages(case):
        html = client.get(url).content.decode()
        assert "bullo" in html
        assert "bullo.segreto@example.invalid" not in html and "1990" not in html  # no e-mail, no birth date
    html = client.get(pages(case)[1]).content.decode()
    assert (
        "sei un *******" in html and "(scritto: sei un incapace)" in html
    )  # what was shown, what was written
    assert "mi offende" in html and "vittima" in html
    assert "Tavolo 1 ·" in html and "table:1" not in html  # where it was said, in words
    assert "Ammonizioni automatiche nei tornei: 0 effettive (0 ricevute)." in html


def test_moderators_never_see_the_ledger_or_personal_data(client, moderator, staff):
    sign_in(client, moderator)
    for name in ("backoffice:wallet_account_changelist", "backoffice:piattaforma_user_changelist"):
        assert client.get(reverse(name)).status_code == 403
    assert client.get(reverse("backoffice:moderation_report_changelist")).status_code == 200
    sign_in(client, staff)
    for name in ("backoffice:wallet_account_changelist", "backoffice:piattaforma_user_changelist"):
        assert client.get(reverse(name)).status_code == 200


def test_the_header_shows_a_moderator_no_conto_and_a_player_his_balance(client, moderator, staff):
    """A moderator's header has no balance chip (€ 0,00), no "Conto", no ledger links; a player's has."""
    wallet_links = (reverse("wallet:balance"), reverse("wallet:statement"), "header-balance", "€ 0,00")
    sign_in(client, moderator)
    for name in ("lobby:lobby", "moderation:queue", "profile"):
        html = client.get(reverse(name)).content.decode()
        for needle in wallet_links:
            assert needle not in html, (name, needle)
        assert 'data-testid="header-role"' in html and 'data-testid="nav-moderation"' in html
    sign_in(client, staff)
    html = client.get(reverse("lobby:lobby")).content.decode()
    assert 'data-testid="header-balance"' in html and 'data-testid="nav-moderation"' in html
    sign_in(client, UserFactory())
    html = client.get(reverse("lobby:lobby")).content.decode()
    assert 'data-testid="header-balance"' in html and reverse("wallet:balance") in html
    assert 'data-testid="nav-moderation"' not in html and 'data-testid="header-role"' not in html


def test_the_queue_lists_cases_by_score(client, case, moderator):
    worse = UserFactory(nickname="razzista")
    ReportFactory(reporter=UserFactory(), line=say(worse, "bah"), reason="racism")
    sign_in(client, moderator)
    html = client.get(reverse("moderation:queue")).content.decode()
    assert html.index('data-case="') < html.index("razzista") < html.index("bullo")


# --- claiming -------------------------------------------------------------------------------------


def test_a_claimed_case_is_one_moderators_until_his_claim_goes_stale(case, moderator):
    other = UserFactory(role=roles.MODERATORS)
    now = timezone.now()
    actions.report_claim(report_id=case.pk, moderator=moderator, now=now)
    case.refresh_from_db()
    assert (case.status, case.claimed_by) == ("claimed", moderator)
    with pytest.raises(ModerationError) as info:
        actions.report_claim(report_id=case.pk, moderator=other, now=now + timedelta(minutes=5))
    assert info.value.code == "report_claimed"
    with pytest.raises(ModerationError) as info:
        actions.report_decide(report_id=case.pk, moderator=other, decision="dismiss", reason="non vero")
    assert info.value.code == "report_not_claimed"
    actions.report_claim(report_id=case.pk, moderator=other, now=now + timedelta(minutes=16))
    case.refresh_from_db()
    assert case.claimed_by == other
    assert AuditLog.objects.filter(action="moderation.claim").count() == 2


def test_deciding_needs_a_claim(case, moderator):
    with pytest.raises(ModerationError) as info:
        actions.report_decide(report_id=case.pk, moderator=moderator, decision="warn", reason="linguaggio")
    assert info.value.code == "report_not_claimed"


# --- decisions ------------------------------------------------------------------------------------


def claimed(case, moderator):
    actions.report_claim(report_id=case.pk, moderator=moderator)
    return case


def decide(case, moderator, **kwargs):
    """Claim the case and decide it."""
    return actions.report_decide(report_id=claimed(case, moderator).pk, moderator=moderator, **kwargs)


def notices(nickname):
    return list(Notice.objects.filter(user__nickname=nickname).values_list("code", "text", "data"))


def reporters_told(case):
    for nick in ("vittima", "testimone"):
        [(code, text, _)] = notices(nick)
        assert code == "report_handled" and "bullo" in text


def audited(case, moderator, decision, reason):
    log = AuditLog.objects.get(action=f"moderation.{decision}")
    assert (log.actor, log.target_type, log.target_id, log.reason) == (
        moderator,
        "moderation.Report",
        str(case.pk),
        reason,
    )
    assert log.data["player"] == "bullo"
    return log


def test_dismiss(case, moderator):
    decide(case, moderator, decision="dismiss", reason="scherzo tra amici")
    case.refresh_from_db()
    assert (case.status, case.decision, case.decided_by) == ("closed", "dismiss", moderator)
    assert not Sanction.objects.exists() and notices("bullo") == []
    reporters_told(case)
    audited(case, moderator, "dismiss", "scherzo tra amici")


def test_warn(case, moderator):
    decide(case, moderator, decision="warn", reason="linguaggio offensivo")
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.user.nickname, sanction.ends_at, sanction.by) == (
        "warning",
        "bullo",
        None,
        moderator,
    )
    [(code, text, _)] = notices("bullo")
    assert code == "moderation_warn" and "ammonizione" in text and "linguaggio offensivo" in text
    reporters_told(case)
    audited(case, moderator, "warn", "linguaggio offensivo")
    # a warning does not stop him writing
    assert actions.chat_screen(author=case.target, channel="table:1", text="scusate").text == "scusate"


def test_mute_for_ten_minutes_ends_on_time(case, moderator, monkeypatch):
    start = timezone.now()
    decide(case, moderator, decision="mute", reason="insulti ripetuti", minutes=10, now=start)
    end = start + timedelta(minutes=10)
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.starts_at, sanction.ends_at) == ("mute", start, end)
    [(code, text, data)] = notices("bullo")
    local_end = timezone.localtime(end).strftime("%H:%M")
    assert code == "moderation_mute" and local_end in text and data == {"until": end.isoformat()}
    reporters_told(case)
    log = audited(case, moderator, "mute", "insulti ripetuti")
    assert log.data["minutes"] == 10 and log.data["until"] == end.isoformat()
    bully = case.target
    for at in (start + timedelta(seconds=1), end - timedelta(seconds=1)):
        monkeypatch.setattr("django.utils.timezone.now", lambda at=at: at)
        with pytest.raises(ModerationError) as info:
            actions.chat_screen(author=bully, channel="table:1", text="ciao")
        assert info.value.code == "chat_muted" and local_end in info.value.message
    monkeypatch.setattr("django.utils.timezone.now", lambda: end)
    assert actions.chat_screen(author=bully, channel="table:1", text="eccomi").text == "eccomi"


def test_the_case_page_proposes_the_ladders_next_rung_for_repeat_offences(client, case, moderator):
    """Warning, then mutes of 10 minutes, 1 hour, 1 day, then chat suspensions of 7 and 30 days,
    by the chat sanctions of the last 90 days; older ones no longer count."""
    bully = case.target
    now = timezone.now()
    expected = [
        ("warn", None, None),
        ("mute", 10, None),
        ("mute", 60, None),
        ("mute", 1440, None),
        ("suspend_chat", None, 7),
        ("suspend_chat", None, 30),
        ("suspend_chat", None, 30),
    ]
    for prior, (decision, minutes, days) in enumerate(expected):
        got = selectors.suggested_decision(user_id=bully.pk, now=now)
        assert (got["prior"], got["decision"], got["minutes"], got["days"]) == (
            prior,
            decision,
            minutes,
            days,
        )
        Sanction.objects.create(user=bully, kind="mute", reason="x", starts_at=now - timedelta(days=prior))
    later = now + timedelta(days=91)  # 91 days on, every one of them is out of the window
    assert selectors.suggested_decision(user_id=bully.pk, now=later)["prior"] == 0
    sign_in(client, moderator)
    actions.report_claim(report_id=case.pk, moderator=moderator)
    html = client.get(reverse("moderation:case", args=[case.pk])).content.decode()
    assert "Proposta per reiterazione: Sospendi la chat (7 provvedimenti negli ultimi 90 giorni)." in html
    assert (
        '<option value="suspend_chat" selected>' in html
        and 'name="days" id="days" min="1" max="365" value="30"' in html
    )


def test_suspend_chat(case, moderator):
    start = timezone.now()
    decide(case, moderator, decision="suspend_chat", reason="recidivo", days=7, now=start)
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.ends_at) == ("chat_suspension", start + timedelta(days=7))
    with pytest.raises(ModerationError) as info:
        actions.chat_screen(author=case.target, channel="table:1", text="ciao", now=start + timedelta(days=6))
    assert info.value.code == "chat_suspended"
    assert notices("bullo")[0][0] == "moderation_suspend_chat"
    audited(case, moderator, "suspend_chat", "recidivo")


def test_escalate_then_staff_suspend_the_account(case, moderator, staff):
    decide(case, moderator, decision="escalate", reason="possibile collusione")
    case.refresh_from_db()
    assert (case.status, case.claimed_by) == ("escalated", None)
    assert Notice.objects.count() == 0  # nothing is decided yet
    with pytest.raises(ModerationError) as info:
        actions.report_claim(report_id=case.pk, moderator=moderator)
    assert info.value.code == "report_escalated"
    assert case.pk not in [
        c["id"] for c in __import__("moderation.selectors").selectors.queue(user=moderator)
    ]

    assert case.pk in [c["id"] for c in selectors.queue(user=staff)]
    actions.report_decide(
        report_id=case.pk, moderator=staff, decision="suspend_account", reason="collusione accertata"
    )
    case.refresh_from_db()
    case.target.refresh_from_db()
    assert (case.status, case.decision, case.target.status) == ("closed", "suspend_account", "suspended")
    assert AuditLog.objects.filter(action="user.set_status", actor=staff).exists()
    audited(case, staff, "suspend_account", "collusione accertata")
    reporters_told(case)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"decision": "ban_forever", "reason": "motivo valido"}, "bad_decision"),
        ({"decision": "suspend_account", "reason": "motivo valido"}, "bad_decision"),  # staff only
        ({"decision": "warn", "reason": "  no "}, "reason_required"),
        ({"decision": "mute", "reason": "motivo valido"}, "bad_duration"),
        ({"decision": "mute", "reason": "motivo valido", "minutes": 0}, "bad_duration"),
        ({"decision": "mute", "reason": "motivo valido", "minutes": 1441}, "bad_duration"),
        ({"decision": "mute", "reason": "motivo valido", "minutes": "10"}, "bad_duration"),
        ({"decision": "suspend_chat", "reason": "motivo valido", "days": 366}, "bad_duration"),
    ],
)
def test_bad_decisions_are_refused_and_change_nothing(case, moderator, kwargs, code):
    claimed(case, moderator)
    before = snapshot()
    with pytest.raises(ModerationError) as info:
        actions.report_decide(report_id=case.pk, moderator=moderator, **kwargs)
    assert info.value.code == code
    assert snapshot() == before


def test_a_closed_case_takes_no_second_decision(case, moderator):
    decide(case, moderator, decision="dismiss", reason="nulla di grave")
    before = snapshot()
    with pytest.raises(ModerationError) as info:
        actions.report_decide(report_id=case.pk, moderator=moderator, decision="warn", reason="ripensamento")
    assert info.value.code == "report_not_open" and snapshot() == before


# --- through the pages ----------------------------------------------------------------------------


def test_claim_and_mute_through_the_pages(client, case, moderator):
    sign_in(client, moderator)
    response = client.post(reverse("moderation:claim", args=[case.pk]))
    assert response.status_code == 302
    html = client.get(reverse("moderation:case", args=[case.pk])).content.decode()
    assert 'data-testid="decide-form"' in html and "suspend_account" not in html
    data = {"decision": "mute", "reason": "insulti in chat", "minutes": "10", "days": "7"}
    response = client.post(reverse("moderation:decide", args=[case.pk]), data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("moderation:queue")
    assert "Decisione registrata" in response.content.decode()
    assert Sanction.objects.get().kind == "mute"


def test_bad_form_input_is_refused_in_italian(client, case, moderator):
    sign_in(client, moderator)
    client.post(reverse("moderation:claim", args=[case.pk]))
    before = snapshot()
    for data in (
        {"decision": "mute", "reason": "ok ok ok", "minutes": "dieci"},
        {"decision": "x", "reason": "abc"},
        {"decision": "mute", "reason": "ok ok ok", "minutes": "0"},
    ):
        response = client.post(reverse("moderation:decide", args=[case.pk]), data, follow=True)
        assert response.status_code == 200
        assert "non valid" in response.content.decode() or "da 1 a 1440" in response.content.decode()
    assert snapshot() == before


def test_the_back_office_leads_moderators_to_the_queue(client, case, moderator):
    sign_in(client, moderator)
    html = client.get(reverse("backoffice:moderation_report_changelist")).content.decode()
    assert reverse("moderation:case", args=[case.pk]) in html


def test_nobody_reviews_a_case_about_himself(moderator):
    ReportFactory(reporter=UserFactory(), line=say(moderator, "uffa"))
    report = Report.objects.get(target=moderator)
    before = snapshot()
    for call in (actions.report_claim, actions.report_decide):
        extra = {"decision": "dismiss", "reason": "non è vero"} if call is actions.report_decide else {}
        with pytest.raises(ModerationError) as info:
            call(report_id=report.pk, moderator=moderator, **extra)
        assert info.value.code == "report_own"
    assert snapshot() == before

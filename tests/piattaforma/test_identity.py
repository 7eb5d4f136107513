"""Identity: the codice fiscale at sign-up, identity documents (upload, private storage, staff
review) and the verification that withdrawals need."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from piattaforma import actions, roles
from piattaforma.identity import codice_fiscale_for, codice_fiscale_problems
from piattaforma.models import AuditLog, IdentityDocument, User
from tests.piattaforma.factories import UserFactory, sign_in
from tests.piattaforma.test_accounts import signup_data
from tests.wallet.conftest import ledger_snapshot
from wallet import actions as wallet_actions
from wallet.errors import IdentityNotVerified

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64

# Giovanna Scopetti, F, born 2 March 1985 in Napoli (F839)
GIOVANNA = {"first_name": "Giovanna", "last_name": "Scopetti", "date_of_birth": date(1985, 3, 2), "sex": "F"}
GIOVANNA_CF = "SCPGNN85C42F839M"  # the same person as tests.piattaforma.test_accounts.signup_data


def codes(code: str, **overrides) -> list[str]:
    return [p.code for p in codice_fiscale_problems(code, **{**GIOVANNA, **overrides})]


# --- the codice fiscale -------------------------------------------------------------------------------


def test_valid_codes_agree_with_their_data():
    assert codice_fiscale_for(**GIOVANNA, birthplace="Napoli") == GIOVANNA_CF
    assert codes(GIOVANNA_CF) == []
    assert codes(" scpgnn85c42f839m ") == []  # spaces and lower case are normalised
    # a well-known example: Mario Rossi, born in Roma on 17 May 1990
    assert (
        codice_fiscale_problems(
            "RSSMRA90E17H501W",
            first_name="Mario",
            last_name="Rossi",
            date_of_birth=date(1990, 5, 17),
            sex="M",
        )
        == []
    )


def test_omocode_is_accepted():
    from codicefiscale import codicefiscale as cf

    omocode = next(c for c in cf.decode(GIOVANNA_CF)["omocodes"] if c != GIOVANNA_CF)
    assert codes(omocode) == []


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("SCPGNN85C42F839", ["cf_format"]),  # 15 characters
        ("SCPGNN85C42F839MX", ["cf_format"]),  # 17
        ("SCP-NN85C42F839M", ["cf_format"]),
        ("1CPGNN85C42F839M", ["cf_format"]),  # a digit where a letter goes
        ("SCPGNN85C42F839A", ["cf_check_char"]),  # wrong check character
        ("SCPGNN85C72F839X", None),  # day 72-40 = 32: no such date
    ],
)
def test_malformed_codes(code, expected):
    found = codes(code)
    if expected is None:
        assert found and found[0] in {"cf_invalid", "cf_check_char"}
    else:
        assert found == expected


def test_codes_inconsistent_with_the_person():
    assert codes(GIOVANNA_CF, last_name="Rossi") == ["cf_last_name"]
    assert codes(GIOVANNA_CF, first_name="Maria") == ["cf_first_name"]
    assert codes(GIOVANNA_CF, date_of_birth=date(1985, 3, 3)) == ["cf_birth_date"]
    assert codes(GIOVANNA_CF, date_of_birth=date(1986, 3, 2)) == ["cf_birth_date"]
    assert codes(GIOVANNA_CF, sex="M") == ["cf_sex"]  # a man's day is 1-31, a woman's 41-71
    several = codes(GIOVANNA_CF, sex="M", last_name="Verdi")
    assert set(several) == {"cf_sex", "cf_last_name"}


def signup(client, **overrides):
    return client.post(reverse("signup"), signup_data(**overrides))


@pytest.mark.django_db
def test_signup_stores_the_identity_unverified(client):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(nickname="Scopone")
    assert (user.first_name, user.last_name, user.sex, user.codice_fiscale) == (
        "Giovanna",
        "Scopetti",
        "F",
        GIOVANNA_CF,
    )
    assert not user.identity_verified


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"codice_fiscale": "SCPGNN85C42F839A"}, "Il carattere di controllo"),
        ({"codice_fiscale": "SCPGNN85"}, "deve avere 16 caratteri"),
        ({"date_of_birth": "1985-03-12"}, "non corrisponde alla data di nascita"),
        ({"sex": "M"}, "non corrisponde al sesso"),
        ({"last_name": "Capelli"}, "non corrisponde al cognome"),
        ({"first_name": "Maria"}, "non corrisponde al nome"),
        ({"codice_fiscale": ""}, "Campo obbligatorio"),
    ],
)
def test_signup_refuses_a_bad_codice_fiscale_with_a_clear_message(client, overrides, message):
    response = signup(client, **overrides)
    assert response.status_code == 200
    form = response.context["form"]
    assert message in " ".join(form.errors["codice_fiscale"])
    assert not User.objects.filter(nickname="Scopone").exists()


@pytest.mark.django_db
def test_one_account_per_codice_fiscale(client):
    UserFactory(codice_fiscale=GIOVANNA_CF)
    response = signup(client)
    assert (
        "Esiste già un conto di gioco con questo codice fiscale."
        in response.context["form"].errors["codice_fiscale"]
    )
    assert not User.objects.filter(nickname="Scopone").exists()


@pytest.mark.django_db
def test_factory_and_demo_accounts_have_valid_codes():
    from piattaforma.management.commands.seed_demo import DEMO_BIRTH, DEMO_IDENTITIES, demo_identity

    for user in UserFactory.create_batch(3):
        assert (
            codice_fiscale_problems(
                user.codice_fiscale,
                first_name=user.first_name,
                last_name=user.last_name,
                date_of_birth=user.date_of_birth,
                sex=user.sex,
            )
            == []
        )
    for nickname in DEMO_IDENTITIES:
        ident = demo_identity(nickname)
        assert ident.pop("codice_fiscale_base") == ident["codice_fiscale"]  # no omocodia in the demo
        assert codice_fiscale_problems(ident.pop("codice_fiscale"), date_of_birth=DEMO_BIRTH, **ident) == []


# --- documents ------------------------------------------------------------------------------------------


@pytest.fixture
def newcomer(db):
    return UserFactory(identity_verified_at=None)


def upload(name, content, content_type="application/pdf"):
    return SimpleUploadedFile(name, content, content_type=content_type)


@pytest.mark.parametrize(("name", "content"), [("carta.pdf", PDF), ("foto.png", PNG), ("foto.JPG", JPEG)])
def test_upload_accepts_pdf_and_images_and_stores_privately(newcomer, name, content):
    document = actions.identity_document_upload(
        user=newcomer, kind=IdentityDocument.Kind.IDENTITY_CARD, upload=upload(name, content)
    )
    assert document.status == IdentityDocument.Status.PENDING
    assert document.original_name == name and document.size == len(content)
    storage = storages["identity_documents"]
    assert document.file.storage is storage
    assert name not in document.file.name  # stored under a random name
    with storage.open(document.file.name) as fh:
        assert fh.read() == content
    with pytest.raises(ValueError):  # no public URL
        document.file.url  # noqa: B018
    assert AuditLog.objects.filter(action="identity.document_upload", target_id=str(document.pk)).exists()


@pytest.mark.parametrize(
    ("name", "content", "code"),
    [
        ("carta.pdf", PNG, "document_invalid"),  # the bytes are not a PDF
        ("carta.exe", PDF, "document_invalid"),  # a PDF's bytes under another name
        ("script.html", b"<script>alert(1)</script>", "document_invalid"),
        ("vuoto.pdf", b"", "document_invalid"),
        ("carta.gif", b"GIF89a" + b"\x00" * 20, "document_invalid"),
    ],
)
def test_upload_refuses_other_types_and_writes_nothing(newcomer, name, content, code):
    before = (IdentityDocument.objects.count(), AuditLog.objects.count())
    with pytest.raises(actions.IdentityError) as exc:
        actions.identity_document_upload(user=newcomer, kind="patente", upload=upload(name, content))
    assert exc.value.code == code
    assert (IdentityDocument.objects.count(), AuditLog.objects.count()) == before


@override_settings(IDENTITY_DOCUMENT_MAX_BYTES=1024)
def test_upload_refuses_a_file_too_large(newcomer):
    with pytest.raises(actions.DocumentTooLarge) as exc:
        actions.identity_document_upload(
            user=newcomer, kind="patente", upload=upload("big.pdf", PDF + b"0" * 2000)
        )
    assert exc.value.code == "document_too_large"
    assert "al massimo" in exc.value.message
    assert not IdentityDocument.objects.exists()


def stored_files(user) -> int:
    storage = storages["identity_documents"]
    folder = f"documenti/{user.pk}"
    return len(storage.listdir(folder)[1]) if storage.exists(folder) else 0


def test_one_document_in_review_at_a_time(newcomer):
    actions.identity_document_upload(user=newcomer, kind="patente", upload=upload("a.pdf", PDF))
    files = stored_files(newcomer)
    with pytest.raises(actions.DocumentPending):
        actions.identity_document_upload(user=newcomer, kind="patente", upload=upload("b.pdf", PDF))
    assert IdentityDocument.objects.count() == 1
    assert stored_files(newcomer) == files  # the refused upload's file was removed


def test_identity_page_upload_and_errors(client, newcomer):
    sign_in(client, newcomer)
    page = client.get(reverse("identity"))
    assert "Identità non ancora verificata" in page.content.decode()
    bad = client.post(reverse("identity"), {"kind": "patente", "file": upload("x.txt", b"hello")})
    assert bad.status_code == 400
    assert "Il file deve essere un PDF" in bad.content.decode()
    assert not IdentityDocument.objects.exists()
    ok = client.post(reverse("identity"), {"kind": "patente", "file": upload("patente.pdf", PDF)})
    assert ok.status_code == 302
    page = client.get(reverse("identity"))
    assert "Documento in revisione" in page.content.decode()
    assert "In revisione" in page.content.decode()


def test_anonymous_is_sent_to_login(client, db):
    response = client.get(reverse("identity"))
    assert response.status_code == 302 and "/account/accedi/" in response["Location"]


# --- review ---------------------------------------------------------------------------------------------


@pytest.fixture
def pending(newcomer):
    return actions.identity_document_upload(user=newcomer, kind="passaporto", upload=upload("p.pdf", PDF))


def test_staff_approves_and_the_player_may_withdraw(pending, newcomer):
    staff = UserFactory(role=roles.STAFF)
    wallet_actions.deposit_create(user=newcomer, amount=10_000, idempotency_key="d")
    with pytest.raises(IdentityNotVerified) as exc:
        wallet_actions.withdrawal_request(user=newcomer, amount=1_000, idempotency_key="w0")
    assert exc.value.code == "identity_not_verified"
    actions.identity_document_review(document_id=pending.pk, actor=staff, approve=True)
    newcomer.refresh_from_db()
    assert newcomer.identity_verified
    assert AuditLog.objects.filter(action="identity.document_approve", actor=staff).exists()
    result = wallet_actions.withdrawal_request(user=newcomer, amount=1_000, idempotency_key="w1")
    assert result["status"] == "pending"


def test_reject_needs_a_reason_and_the_player_sees_it(client, pending, newcomer):
    staff = UserFactory(role=roles.STAFF)
    with pytest.raises(actions.ReviewInvalid):
        actions.identity_document_review(document_id=pending.pk, actor=staff, approve=False, reason="")
    actions.identity_document_review(
        document_id=pending.pk, actor=staff, approve=False, reason="Documento scaduto nel 2020"
    )
    newcomer.refresh_from_db()
    assert not newcomer.identity_verified
    sign_in(client, newcomer)
    page = client.get(reverse("identity")).content.decode()
    assert "Rifiutato" in page and "Documento scaduto nel 2020" in page
    assert "Carica il documento" in page  # he may upload another one
    with pytest.raises(actions.ReviewInvalid):  # decided once
        actions.identity_document_review(document_id=pending.pk, actor=staff, approve=True)


@pytest.mark.parametrize("role", [roles.PLAYERS, roles.MODERATORS])
def test_players_and_moderators_may_not_review(pending, newcomer, role):
    actor = UserFactory(role=role)
    with pytest.raises(actions.ReviewNotAllowed) as exc:
        actions.identity_document_review(document_id=pending.pk, actor=actor, approve=True)
    assert exc.value.code == "permission_denied"
    pending.refresh_from_db()
    newcomer.refresh_from_db()
    assert pending.status == IdentityDocument.Status.PENDING and not newcomer.identity_verified


def test_staff_may_not_review_his_own_document(db):
    staff = UserFactory(role=roles.STAFF, identity_verified_at=None)
    document = actions.identity_document_upload(user=staff, kind="patente", upload=upload("p.pdf", PDF))
    with pytest.raises(actions.ReviewNotAllowed):
        actions.identity_document_review(document_id=document.pk, actor=staff, approve=True)


def test_document_file_is_for_reviewing_staff_only(client, pending, newcomer):
    url = reverse("identity_document_file", args=[pending.pk])
    assert client.get(url).status_code == 302  # anonymous: to the login
    for user, status in [
        (newcomer, 403),  # his own document: not served back either
        (UserFactory(), 403),
        (UserFactory(role=roles.MODERATORS), 403),
    ]:
        sign_in(client, user)
        assert client.get(url).status_code == status
    assert not AuditLog.objects.filter(action="identity.document_view").exists()  # refused: no line
    reviewer = UserFactory(role=roles.STAFF)
    sign_in(client, reviewer)
    response = client.get(url)
    assert response.status_code == 200
    assert AuditLog.objects.get(action="identity.document_view", target_id=str(pending.pk)).actor == reviewer
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="documento-{pending.pk}.pdf"'
    assert b"".join(response.streaming_content) == PDF


def test_backoffice_review_queue(client, pending, newcomer):
    changelist = "/backoffice/piattaforma/identitydocument/"
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.get(changelist).status_code == 403
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    page = client.get(changelist)
    assert page.status_code == 200 and newcomer.nickname in page.content.decode()
    detail = client.get(f"{changelist}{pending.pk}/change/").content.decode()
    assert (
        reverse("identity_document_file", args=[pending.pk]) in detail and newcomer.codice_fiscale in detail
    )
    # reject through the admin action: first the reason page, then the decision
    form = client.post(changelist, {"action": "reject", "_selected_action": [pending.pk]})
    assert "Motivazione del rifiuto" in form.content.decode()
    client.post(
        changelist, {"action": "reject", "_selected_action": [pending.pk], "reason": "Foto illeggibile"}
    )
    pending.refresh_from_db()
    assert pending.status == IdentityDocument.Status.REJECTED and pending.reviewed_by == staff
    second = actions.identity_document_upload(user=newcomer, kind="patente", upload=upload("q.pdf", PDF))
    client.post(changelist, {"action": "approve", "_selected_action": [second.pk]})
    newcomer.refresh_from_db()
    assert newcomer.identity_verified


# --- the withdrawal page ------------------------------------------------------------------------------


def test_withdrawal_page_says_why_and_links_to_the_upload(client, newcomer):
    wallet_actions.deposit_create(user=newcomer, amount=10_000, idempotency_key="d")
    sign_in(client, newcomer)
    page = client.get(reverse("wallet:withdrawal")).content.decode()
    assert "la tua identità sia verificata" in page and reverse("identity") in page
    before = ledger_snapshot()
    response = client.post(reverse("wallet:withdrawal"), {"amount": "10,00", "idempotency_key": "k1"})
    assert response.status_code == 200
    assert "Per prelevare devi prima verificare la tua identità" in response.content.decode()
    assert ledger_snapshot() == before

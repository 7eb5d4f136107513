"""factory_boy factories of the accounts: UserFactory (a verified player, or any role via ``role=``)."""

from datetime import UTC, date, datetime

import factory
from django.contrib.auth.models import Group

from piattaforma import roles
from piattaforma.identity import codice_fiscale_base, codice_fiscale_for
from piattaforma.models import User

PASSWORD = "Password-di-prova-1"
CONSONANTS = "BCDFGLMNPRSTVZH"


def _name(n: int) -> str:
    """A pronounceable name whose codice fiscale letters are three consonants spelling ``n % 3375``."""
    a, b, c = (n // 225) % 15, (n // 15) % 15, n % 15
    return f"{CONSONANTS[a]}a{CONSONANTS[b].lower()}e{CONSONANTS[c].lower()}i"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    nickname = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.nickname}@example.invalid")
    date_of_birth = date(1990, 1, 1)
    password = factory.django.Password(PASSWORD)
    # a person's data whose codice fiscale differs for every account: the surname's three consonants
    # spell the sequence number in base 15 (3,375 surnames), the first name's the overflow
    first_name = factory.Sequence(lambda n: _name(n // 3375))
    last_name = factory.Sequence(lambda n: _name(n))
    sex = "M"
    codice_fiscale = factory.LazyAttribute(
        lambda u: codice_fiscale_for(
            first_name=u.first_name,
            last_name=u.last_name,
            date_of_birth=u.date_of_birth,
            sex=u.sex,
            birthplace="Roma",
        )
    )
    codice_fiscale_base = factory.LazyAttribute(lambda u: codice_fiscale_base(u.codice_fiscale))
    # verified, as every account was before identity checks existed: tests of withdrawals and of
    # anything else keep working; identity tests pass identity_verified_at=None
    identity_verified_at = datetime(2026, 1, 1, tzinfo=UTC)

    @factory.post_generation
    def role(self, create, extracted, **kwargs):
        if create:
            role = extracted or roles.PLAYERS
            self.groups.add(Group.objects.get(name=role))
            if role in (roles.MODERATORS, roles.STAFF):
                self.is_staff = True
                self.save(update_fields=["is_staff"])


def verified_device(user):
    """A confirmed authenticator of ``user`` (staff, moderators): the second factor of his sign-in."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="Autenticatore", confirmed=True)


def verify_session(session, user):
    """Mark ``session`` as verified with ``user``'s authenticator, as ``django_otp.login`` does."""
    from django_otp import DEVICE_ID_SESSION_KEY

    session[DEVICE_ID_SESSION_KEY] = verified_device(user).persistent_id


def sign_in(client, user):
    """``client.force_login(user)``, and for staff and moderators the second factor too.

    The two-factor check stays on in the tests: a staff member signed in with ``force_login`` alone
    is sent to verify, as in production (tests/piattaforma/test_twofa.py).
    """
    from piattaforma import twofa

    client.force_login(user)
    if twofa.required(user):
        session = client.session
        verify_session(session, user)
        session.save()
    return user

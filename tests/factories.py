"""factory_boy factories shared by the suite."""

from datetime import date

import factory
from django.contrib.auth.models import Group

from piattaforma import roles
from piattaforma.models import User

PASSWORD = "Password-di-prova-1"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    nickname = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.nickname}@example.invalid")
    date_of_birth = date(1990, 1, 1)
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def role(self, create, extracted, **kwargs):
        if create:
            role = extracted or roles.PLAYERS
            self.groups.add(Group.objects.get(name=role))
            if role in (roles.MODERATORS, roles.STAFF):
                self.is_staff = True
                self.save(update_fields=["is_staff"])

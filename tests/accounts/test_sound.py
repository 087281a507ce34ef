"""The sound setting: off by default, saved on the account from the settings page, and only a page of an
account that turned it on says so (the sound script plays nothing without it)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from tests.support import client_for

pytestmark = pytest.mark.django_db

SOUND_ON = '<meta name="turnwise-sound" content="on">'


def test_sound_is_off_for_a_new_account_and_its_pages_say_nothing(alice: Any) -> None:
    assert alice.sound is False
    response = client_for(alice).get(reverse("accounts:settings"))
    assert response.status_code == 200
    assert SOUND_ON not in response.content.decode()
    assert 'name="sound"' in response.content.decode()


def test_turning_sound_on_is_saved_and_every_page_then_says_so(alice: Any) -> None:
    client = client_for(alice)
    response = client.post(reverse("accounts:settings"), {"form": "sound", "sound": "on"})
    assert response.status_code == 302
    assert User.objects.get(pk=alice.pk).sound is True
    assert SOUND_ON in client.get(reverse("games:home")).content.decode()
    # Unticked: off again (a checkbox sends nothing when unticked).
    client.post(reverse("accounts:settings"), {"form": "sound"})
    assert User.objects.get(pk=alice.pk).sound is False
    assert SOUND_ON not in client.get(reverse("games:home")).content.decode()


def test_saving_another_form_leaves_the_sound_setting_alone(alice: Any) -> None:
    alice.sound = True
    alice.save(update_fields=["sound"])
    client_for(alice).post(reverse("accounts:settings"), {"form": "email", "email_turns": "never"})
    assert User.objects.get(pk=alice.pk).sound is True

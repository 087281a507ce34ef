"""The vacation's number of days, in the reader's own digits: drawn in them, typed in them (or in ASCII
in any language), and refused with one translated sentence that changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User, Vacation
from games.support.forms import LocalIntegerField
from tests.support import client_for

pytestmark = pytest.mark.django_db

SETTINGS = "/accounts/settings/"

# The range as each language writes it: 1 to the yearly allowance of 21 days (settings.VACATION_DAYS_PER_YEAR).
REFUSAL = {
    "en": "Enter a whole number from 1 to 21.",
    "as": "১ ৰ পৰা ২১ লৈ এটা পূৰ্ণ সংখ্যা দিয়ক।",
    "ne": "१ देखि २१ सम्मको पूर्णाङ्क लेख्नुहोस्।",
}
HINT = {
    "en": "A whole number from 1 to 21.",
    "as": "১ ৰ পৰা ২১ লৈ এটা পূৰ্ণ সংখ্যা।",
    "ne": "१ देखि २१ सम्मको पूर्णाङ्क।",
}
SEVEN = {"en": "7", "as": "\u09ed", "ne": "\u096d"}  # seven (escaped: ruff takes a lone one for a Latin look-alike)


def reader(user: User, language: str) -> Any:
    user.language = language
    user.save(update_fields=["language"])
    return client_for(user)


def days_booked(user: User) -> list[int]:
    return [(v.ends_at - v.starts_at).days for v in Vacation.objects.filter(user=user)]


@pytest.mark.parametrize("language", ["en", "as", "ne"])
def test_the_days_are_drawn_in_the_readers_digits_in_a_text_input_that_states_its_range(
    alice: User, language: str
) -> None:
    page = reader(alice, language).get(SETTINGS).content.decode()
    assert 'type="number"' not in page
    assert (
        f'<input type="text" name="days" value="{SEVEN[language]}" inputmode="numeric" autocomplete="off" '
        'spellcheck="false" size="5" required aria-describedby="id_days_helptext" id="id_days">'
    ) in page
    # The range a screen reader announces with the input (aria-describedby), written as the page writes numbers.
    assert f'<small class="muted" id="id_days_helptext">{HINT[language]}</small>' in page


@pytest.mark.parametrize(
    ("language", "typed", "days"),
    [
        ("ne", "१५", 15),  # Devanagari digits on a Nepali page
        ("as", "১৫", 15),  # Bengali-Assamese digits on an Assamese page
        ("ne", "12", 12),  # ASCII in every language
        ("as", " 3 ", 3),
        ("en", "4", 4),
        ("en", "२", 2),  # a Nepali keyboard on an English page
    ],
)
def test_a_vacation_starts_with_the_days_typed_in_local_or_ascii_digits(
    alice: User, language: str, typed: str, days: int
) -> None:
    response = reader(alice, language).post(SETTINGS, {"form": "vacation", "days": typed})
    assert response.status_code == 302
    assert days_booked(alice) == [days]
    alice.refresh_from_db()
    assert alice.vacation_until is not None and alice.vacation_until > timezone.now() + timedelta(days=days - 1)


@pytest.mark.parametrize("language", ["en", "as", "ne"])
@pytest.mark.parametrize(
    ("typed", "redrawn"),
    [
        ("abc", {"en": "abc", "as": "abc", "ne": "abc"}),  # letters
        ("", {"en": "", "as": "", "ne": ""}),  # empty
        ("0", {"en": "0", "as": "\u09e6", "ne": "\u0966"}),  # zero: below the range
        ("३०", {"en": "30", "as": "৩০", "ne": "३०"}),  # above what is left this year (21), though under 366
        ("1.5", {"en": "1.5", "as": "১.৫", "ne": "१.५"}),  # not whole
        ("-3", {"en": "-3", "as": "-৩", "ne": "-३"}),
        ("٣", {"en": "٣", "as": "٣", "ne": "٣"}),  # another script's digit
        ("1234567890", {"en": "1234567890", "as": "১২৩৪৫৬৭৮৯০", "ne": "१२३४५६७८९०"}),
    ],
)
def test_bad_days_are_refused_with_the_translated_range_and_change_nothing(
    alice: User, language: str, typed: str, redrawn: dict[str, str]
) -> None:
    response = reader(alice, language).post(SETTINGS, {"form": "vacation", "days": typed})
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<span class="field-error" role="alert" id="id_days_error">{REFUSAL[language]}</span>' in page
    # What was typed is drawn again, its digits in the page's, with the input marked invalid.
    value = f' value="{redrawn[language]}"' if typed else ""
    assert f'<input type="text" name="days"{value} inputmode="numeric"' in page
    assert 'aria-invalid="true" aria-describedby="id_days_helptext id_days_error"' in page
    assert days_booked(alice) == []
    alice.refresh_from_db()
    assert alice.vacation_until is None


def test_the_range_is_the_days_left_this_year(alice: User) -> None:
    now = timezone.now()
    # Booked this year (a booking counts from its start, whether it is over or still to come).
    Vacation.objects.create(user=alice, starts_at=now, ends_at=now + timedelta(days=16))
    client = reader(alice, "ne")
    page = client.get(SETTINGS).content.decode()
    assert "१ देखि ५ सम्मको पूर्णाङ्क।" in page
    assert 'value="५"' in page  # the usual seven would be more than is left
    refused = client.post(SETTINGS, {"form": "vacation", "days": "६"}).content.decode()
    assert "१ देखि ५ सम्मको पूर्णाङ्क लेख्नुहोस्।" in refused
    assert client.post(SETTINGS, {"form": "vacation", "days": "५"}).status_code == 302
    assert sorted(days_booked(alice)) == [5, 16]


def test_with_no_days_left_there_is_no_form_to_fill(alice: User) -> None:
    now = timezone.now()
    Vacation.objects.create(user=alice, starts_at=now, ends_at=now + timedelta(days=21))
    page = reader(alice, "as").get(SETTINGS).content.decode()
    assert 'name="days"' not in page
    # Posted anyway (from an older tab): the service refuses it, as before.
    response = client_for(alice).post(SETTINGS, {"form": "vacation", "days": "১"}, follow=True)
    assert "এই বছৰ আপুনি ১ ৰ পৰা \u09e6 দিনলৈ ছুটী" in response.content.decode()
    assert days_booked(alice) == [21]


def test_the_field_reads_both_local_digit_sets_and_ascii_and_nothing_else() -> None:
    field = LocalIntegerField(min_value=1, max_value=999)
    assert [field.clean(v) for v in ("৯০৭", "९०७", "907", "৯0७")] == [907, 907, 907, 907]
    for bad in ("²", "\uff11\uff12", "1_0", "+5", "5e1", "٣"):
        with pytest.raises(ValidationError, match="whole number from 1 to 999"):
            field.clean(bad)

"""Every model and field name of the site's own apps reads in Vietnamese in the admin (issue 13)."""

import pytest
from django.apps import apps
from django.utils import translation

SITE_APPS = ("accounts", "games", "rooms", "tutorials", "ranking", "moderation")
#: Labels that are the same word in both languages.
SAME_IN_BOTH = {"ID", "X", "O"}


def _labels():
    for model in apps.get_models():
        if model._meta.app_label not in SITE_APPS:
            continue
        yield model.__name__, model._meta.verbose_name
        yield model.__name__, model._meta.verbose_name_plural
        for field in model._meta.get_fields():
            if field.concrete and not field.auto_created and hasattr(field, "verbose_name"):
                yield f"{model.__name__}.{field.name}", field.verbose_name


@pytest.mark.parametrize("name, label", list(_labels()), ids=lambda v: v if isinstance(v, str) else None)
def test_every_model_and_field_label_is_translated(name, label):
    with translation.override("en"):
        english = str(label)
    with translation.override("vi"):
        vietnamese = str(label)
    assert vietnamese != english or english in SAME_IN_BOTH, f"{name}: {english!r} is not translated"

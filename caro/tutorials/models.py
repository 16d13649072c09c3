"""A rules guide in one language, with its rendered HTML cached by content hash."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Guide(models.Model):
    """One guide (``key``, e.g. ``"caro-rules"``) in one ``language`` (``"vi"``/``"en"``).

    ``body`` is Markdown with diagram blocks (see :mod:`caro.tutorials.document`). ``html``,
    ``toc`` and ``render_key`` cache the rendering: the cache is valid while ``render_key``
    equals :func:`caro.tutorials.rendering.render_key` of the current inputs. ``seeded_sha``
    is the SHA-256 of the body last loaded from the source files; a body that no longer
    matches it was edited in the admin, and seeding leaves it alone.
    """

    key = models.SlugField(_("key"), max_length=40,
                           help_text=_("The same in every language, e.g. caro-rules; links use it."))
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    slug = models.SlugField(_("URL slug"), max_length=80)
    title = models.CharField(_("title"), max_length=200)
    summary = models.CharField(_("summary"), max_length=300)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    preset = models.CharField(_("rules for \"play now\""), max_length=30, default="caro-vn")
    body = models.TextField(_("body"))
    published = models.BooleanField(_("published"), default=True)
    seeded_sha = models.CharField(_("seeded version"), max_length=64, blank=True, editable=False)
    html = models.TextField(_("rendered page"), blank=True, editable=False)
    toc = models.JSONField(_("table of contents"), default=list, blank=True, editable=False)
    render_key = models.CharField(_("render key"), max_length=64, blank=True, editable=False)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["language", "order", "key"]
        verbose_name = _("guide")
        verbose_name_plural = _("guides")
        constraints = [
            models.UniqueConstraint(fields=["key", "language"], name="guide_key_language"),
            models.UniqueConstraint(fields=["language", "slug"], name="guide_language_slug"),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.language})"

    def get_absolute_url(self) -> str:
        return guide_url(self.language, self.slug)

    @property
    def body_sha(self) -> str:
        return hashlib.sha256(self.body.encode()).hexdigest()


def guide_url(language: str, slug: str) -> str:
    """The URL of a guide: ``/huong-dan/<slug>/`` in Vietnamese, ``/guides/<slug>/`` in English."""
    return reverse(f"tutorials:guide_{language}", args=[slug])


def index_url(language: str) -> str:
    """The guide list URL of ``language``."""
    return reverse(f"tutorials:index_{language}")

"""Guide editing in the Django admin, with a live preview of the prose and diagrams.

Saving checks the whole body (markup, links and every diagram claim); a mistake is shown on the
body field as "Line N: ..." and nothing is saved. The preview endpoint answers the same check
with an HTML fragment (the rendered guide, or the error with the offending line), never a
broken page.
"""

from __future__ import annotations

import logging

from django import forms
from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template.loader import render_to_string
from django.urls import path
from django.utils.translation import gettext as _

from .document import PLAY_TARGETS
from .markup import DiagramError
from .models import Guide, guide_url
from .rendering import render_body, url_map

log = logging.getLogger(__name__)

MAX_BODY = 200_000


def check_body(body: str, language: str, key: str | None = None, slug: str | None = None):
    """Render ``body`` as a guide in ``language`` with every claim checked.

    Links may point to any published guide of that language and to the guide itself (``key``,
    ``slug``). Returns the :class:`~caro.tutorials.document.RenderedGuide`; raises DiagramError.
    """
    if language not in dict(settings.LANGUAGES):
        raise DiagramError(_("Choose the guide's language first."))
    if len(body) > MAX_BODY:
        raise DiagramError(_("The body is too long."))
    urls = url_map(language)
    if key and slug:
        urls[key] = guide_url(language, slug)
    return render_body(body, language, urls, check=True)


class GuideForm(forms.ModelForm):
    class Meta:
        model = Guide
        fields = ["key", "language", "slug", "title", "summary", "order", "preset", "published", "body"]
        widgets = {"body": forms.Textarea(attrs={"rows": 30, "cols": 100, "class": "guide-source",
                                                 "spellcheck": "false"})}

    def clean_preset(self):
        preset = self.cleaned_data["preset"]
        if preset not in PLAY_TARGETS:
            raise forms.ValidationError(_("Unknown rule set. Use one of: %(names)s") % {"names": ", ".join(sorted(PLAY_TARGETS))})
        return preset

    def clean(self):
        data = super().clean()
        body, language = data.get("body"), data.get("language")
        if body and language:
            try:
                check_body(body, language, data.get("key"), data.get("slug"))
            except DiagramError as exc:
                self.add_error("body", str(exc))
        return data


@admin.register(Guide)
class GuideAdmin(admin.ModelAdmin):
    form = GuideForm
    list_display = ("title", "key", "language", "order", "published", "updated_at")
    list_filter = ("language", "published")
    search_fields = ("title", "key", "slug", "body")
    ordering = ("language", "order")
    change_form_template = "admin/tutorials/guide/change_form.html"

    class Media:
        css = {"all": ("tutorials/guides.css", "tutorials/admin-preview.css")}
        js = ("tutorials/admin-preview.js",)

    def get_urls(self):
        extra = [path("preview/", self.admin_site.admin_view(self.preview_view), name="tutorials_guide_preview")]
        return extra + super().get_urls()

    def preview_view(self, request: HttpRequest) -> HttpResponse:
        """POST ``body`` and ``language`` (and optionally ``key``, ``slug``): an HTML fragment with
        the rendered guide, or a clear error naming the line. Staff with change permission only."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_change_permission(request) and not self.has_add_permission(request):
            return HttpResponse(status=403)
        body = request.POST.get("body", "")
        language = request.POST.get("language", "")
        context = {"error": None, "line": None, "source_line": "", "html": "", "toc": []}
        try:
            result = check_body(body, language, request.POST.get("key"), request.POST.get("slug"))
            context.update(html=result.html, toc=result.toc, diagrams=len(result.diagrams))
        except DiagramError as exc:
            lines = body.replace("\r\n", "\n").split("\n")
            context.update(error=exc.message, line=exc.line)
            if exc.line and 0 < exc.line <= len(lines):
                context["source_line"] = lines[exc.line - 1]
        except Exception:  # noqa: BLE001 - the editor must never get a broken page
            log.exception("guide preview failed")
            context["error"] = _("The preview failed unexpectedly. Save is still checked; try again.")
        return HttpResponse(render_to_string("tutorials/admin_preview.html", context, request=request))

"""The report form's target (POST from the game page); everything else is in the admin."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from caro.records.access import game_for
from moderation.reports import ReportError, file_report
from moderation.templatetags.moderation import report_context


@require_POST
def report(request: HttpRequest, game_id: int) -> HttpResponse:
    """File a report of the opponent in game `game_id`, then back to the game page with a message;
    an htmx request (the form on the page) gets the form's box again with the answer in it."""
    game = game_for(game_id, request.user)  # 404 for a private game not over, as for no game
    try:
        file_report(request.user, game, reason=request.POST.get("reason", ""), note=request.POST.get("note", ""))
    except ReportError as exc:
        answer, sent = exc.message, False
    else:
        answer, sent = _("Thank you: your report was sent to the moderators."), True
    if request.htmx:
        return render(request, "moderation/report_form.html",
                      report_context(game, request.user, get_token(request), answer, sent))
    (messages.success if sent else messages.error)(request, answer)
    return redirect(game.get_absolute_url())

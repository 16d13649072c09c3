"""The report form's target (POST from the game page); everything else is in the admin."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from caro.games.models import Game
from moderation.reports import ReportError, file_report
from moderation.templatetags.moderation import report_context


@require_POST
def report(request: HttpRequest, game_id: int) -> HttpResponse:
    """File a report of the opponent in game `game_id`, then back to the game page with a message;
    an htmx request (the form on the page) gets the form's box again with the answer in it."""
    game = Game.objects.select_related("host", "guest").filter(pk=game_id).first()
    if game is None:
        raise Http404
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

"""The leaderboard and profile pages (thin: the queries are in `ranking.pages`)."""

from __future__ import annotations

from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.core.cache import cache
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from caro.partials import render_page_or_part
from ranking import categories, chart, elo, pages
from ranking.models import Rating


@require_safe
def leaderboard(request: HttpRequest, category: str = categories.CARO.slug) -> HttpResponse:
    """Page `?page=N` (`pages.LEADERBOARD_SIZE` players each) of `category` (404 for an unknown
    one): established players first, then provisional ones marked "?", with the viewer's own row
    highlighted, and their place shown also when they are not on this page. An htmx request gets a
    part: a page link (target `leaderboard-table`) the table alone, a category tab the tabs and the
    table (`ranking/leaderboard_body.html`, with the page's title); htmx restoring the page from
    history, and a visit without JavaScript, the whole page."""
    try:
        chosen = categories.get(category)
    except KeyError:
        raise Http404(_("There is no such leaderboard.")) from None
    page = pages.page_number(request.GET.get("page"))
    mine = None
    if request.user.is_authenticated:
        mine = Rating.objects.filter(user=request.user, category=chosen.slug).first()
    key, places = pages.top_state(chosen.slug, get_language(), page)
    cached = cache.get(key)
    if cached is None:
        rows = pages.top(chosen.slug, page)
        # One reverse() for the whole table: profile URLs differ only by the (quoted) username.
        prefix = reverse("ranking:profile", args=["-"])[:-2]
        first = (page - 1) * pages.LEADERBOARD_SIZE + 1
        ranked = [(i, rating, f"{prefix}{quote(rating.user.username, safe='@+')}/")
                  for i, rating in enumerate(rows, start=first)]
        cached = (render_to_string("ranking/top_rows.html", {"rows": ranked}), len(rows))
        cache.set(key, cached, pages.TOP_ROWS_CACHE_S)
    rows_html, shown = cached
    rank = None
    on_page = False
    if mine is not None and mine.listed:
        if mine.user_id in places:  # on this page: their exact place, no COUNT
            rank, on_page = places[mine.user_id], True
        else:  # elsewhere: counted, kept briefly; never a place on this page it is not in
            rank = pages.cached_rank(mine)
            if rank is not None and places and min(places.values()) <= rank <= max(places.values()):
                rank = max(places.values()) + 1
    if on_page:  # the viewer's own row, highlighted
        rows_html = rows_html.replace(f'<tr data-player="{mine.user_id}" class="',
                                      f'<tr data-player="{mine.user_id}" aria-current="true" '
                                      f'data-testid="my-row" class="me ', 1)
    first = (page - 1) * pages.LEADERBOARD_SIZE
    more = shown == pages.LEADERBOARD_SIZE and page < pages.MAX_PAGES
    context = {
        "category": chosen, "categories": categories.CATEGORIES, "rows_html": mark_safe(rows_html),  # noqa: S308 - rendered by the template above
        "shown": shown, "mine": mine, "my_rank": rank, "me_on_page": on_page,
        "provisional_games": elo.PROVISIONAL_GAMES, "active_days": pages.ACTIVE_DAYS,
        "size": pages.LEADERBOARD_SIZE, "page": page, "previous": page - 1 if page > 1 else None,
        "next": page + 1 if more else None, "first_place": first + 1, "last_place": first + shown,
        "my_before": rank is not None and not on_page and rank <= first,
    }
    return render_page_or_part(request, "ranking/leaderboard.html", "ranking/leaderboard_body.html", context,
                               {"leaderboard-table": "ranking/leaderboard_table.html"})


def _chart(history: pages.History, category: categories.Category) -> str:
    points = history.points
    games = len(points) - 1
    summary = ngettext(
        "%(games)s rated game: from %(first)s to %(last)s; highest %(high)s, lowest %(low)s.",
        "%(games)s rated games: from %(first)s to %(last)s; highest %(high)s, lowest %(low)s.", games) % {
        "games": games, "first": points[0], "last": points[-1], "high": max(points), "low": min(points)}
    title = _("Rating history: %(category)s") % {"category": category.name}
    return mark_safe(chart.history_svg(points, title=title, summary=summary,  # noqa: S308 - escaped by chart
                                       element_id=f"chart-{category.slug}"))


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A registered player's public page: ratings per category, a rating chart per rated category,
    win/draw/loss counts and recent games. 404 for an unknown name or a guest."""
    user = pages.visible_profile_user(get_user_model(), username)
    if user is None:
        raise Http404(_("There is no player with this name."))
    by_category = {rating.category: rating for rating in Rating.objects.filter(user=user)}
    cards = []
    for category in categories.CATEGORIES:
        rating = by_category.get(category.slug)
        svg = ""
        if rating is not None and rating.games:
            # The chart changes only with the rating (every rated game and revert saves it).
            key = pages.chart_key(rating, get_language())
            svg = cache.get(key)
            if svg is None:
                history = pages.history(user, category.slug)
                svg = _chart(history, category) if len(history.points) > 1 else ""
                cache.set(key, svg, pages.CHART_CACHE_S)
            svg = mark_safe(svg)  # noqa: S308 - escaped by chart
        cards.append({"category": category, "rating": rating, "chart": svg,
                      "rank": pages.cached_rank(rating, pages.PROFILE_RANK_LIMIT) if rating else None})
    recent = pages.recent_games(user)
    return render(request, "ranking/profile.html", {
        "player": user, "cards": cards, "recent": recent,
        "recent_key": pages.recent_key(recent), "recent_cache_s": pages.RECENT_CACHE_S,
        "is_me": request.user.is_authenticated and request.user.pk == user.pk,
        "provisional_games": elo.PROVISIONAL_GAMES,
    })

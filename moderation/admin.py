"""Moderation in Django admin (issue 11): users, games, rooms, chat, reports and the audit log.

Every action page calls `moderation.services` (permission check, the action, the audit entry);
nothing here writes a restriction, a result or a chat line itself. The lists stay fast on 100,000
games and 20,000 users: related rows come with `list_select_related`, the change pages read each
section with one query, and the full result count is not computed (`show_full_result_count`).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import PlayerAdmin
from accounts.models import User
from accounts.restrictions import ban_of, mute_of, queue_ban_of
from caro.games.admin import GameAdmin
from caro.games.display import game_summary
from caro.games.models import Game, Move, Seat, Side
from caro.games.records import position_at
from caro.records.image import position_svg
from caro.rooms.admin import RoomAdmin
from caro.rooms.models import ChatMessage, Room
from ranking import categories
from ranking.admin import RatingAdmin
from ranking.models import Rating, RatingChange
from moderation import services
from moderation.audit import audit
from moderation.forms import BanForm, DecisionActionForm, DecisionForm, MuteForm, ReasonForm
from moderation.models import AuditEntry, Report

#: Rows shown in each section of a user's page.
SECTION_ROWS = 20


def _change_url(obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def _short_time(moment) -> str:
    """A list's time column: "2026-12-06 15:59" (site time) on one line, narrower than the admin's
    long date format."""
    moment = timezone.localtime(moment)
    return format_html('<time datetime="{}" style="white-space:nowrap">{}</time>', moment.isoformat(),
                       moment.strftime("%Y-%m-%d %H:%M"))


def _table(headers, rows) -> str:
    """A small read-only table for a change page (every cell escaped)."""
    if not rows:
        return gettext("None")
    head = format_html_join("", "<th>{}</th>", ((h,) for h in headers))
    body = format_html_join("", "<tr>{}</tr>", ((format_html_join("", "<td>{}</td>", ((c,) for c in row)),) for row in rows))
    return format_html('<table class="moderation-table"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>', head, body)


class ActionPages:
    """Admin pages for one moderation action each: a form, the service call, a message, back."""

    #: `name -> (form class, permission action of services.PERMISSIONS, title)`; set by subclasses.
    action_pages: dict = {}

    def get_urls(self):
        info = self.model._meta.app_label, self.model._meta.model_name
        extra = [
            path(f"<path:object_id>/{name}/", self.admin_site.admin_view(self._page(name)),
                 name=f"{info[0]}_{info[1]}_{name}")
            for name in self.action_pages
        ]
        return extra + super().get_urls()

    def _page(self, name):
        def view(request, object_id):
            return self.action_view(request, object_id, name)
        return view

    def action_view(self, request, object_id, name):
        form_class, permission, title = self.action_pages[name]
        try:
            pk = self.model._meta.pk.to_python(object_id)
        except ValidationError:
            raise Http404("no such object") from None  # "abc", "1/2": not an id, so nothing to act on
        obj = get_object_or_404(self.get_queryset(request), pk=pk)
        back = _change_url(obj)
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "original": obj,
            "title": f"{title}: {obj}", "back": back, "action_title": title, "action": name,
            "has_view_permission": self.has_view_permission(request, obj),
        }
        if not request.user.has_perm(services.PERMISSIONS[permission]):
            context["refusal"] = services.ModerationError("forbidden").message
            return TemplateResponse(request, "admin/moderation/action.html", context, status=403)
        idle = self.unavailable(obj, name)
        if idle is not None:  # nothing to do (not banned, decided...): say so, offer no form
            context["idle"] = idle
            return TemplateResponse(request, "admin/moderation/action.html", context)
        form = form_class(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                self.perform(request, obj, name, form)
            except services.ModerationError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, gettext("Done: %(action)s.") % {"action": title})
                return redirect(back)
        # The admin's own form markup (fieldset, rows, help, errors once), as on its change pages.
        context["adminform"] = helpers.AdminForm(form, [(None, {"fields": list(form.fields)})], {})
        return TemplateResponse(request, "admin/moderation/action.html", context)

    change_form_template = "admin/moderation/change_form.html"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id)
        links = self.action_links(request, obj) if obj is not None else []
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), "moderation_links": links})

    def action_links(self, request, obj) -> list[tuple[str, str]]:
        """`[(url, title)]` of the action pages the moderator may open for `obj` and that have
        something to do (no "Unban" for a player who is not banned, no decision on a decided report)."""
        info = self.model._meta.app_label, self.model._meta.model_name
        links = [(reverse(f"admin:{info[0]}_{info[1]}_{name}", args=[obj.pk]), title)
                 for name, (_form, permission, title) in self.action_pages.items()
                 if request.user.has_perm(services.PERMISSIONS[permission]) and self.unavailable(obj, name) is None]
        return links

    def unavailable(self, obj, name) -> str | None:
        """Why action `name` has nothing to do for `obj` now (`services.nothing_to_do`: a
        translated sentence), or None. Its page then says so instead of showing a form."""
        refusal = services.nothing_to_do(self.action_pages[name][1], obj)
        return refusal.message if refusal is not None else None


class ViewOnly:
    """Nobody adds, edits or deletes these rows in admin (chat lines, reports, audit entries): they
    change only through `moderation.services` actions, each audited."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# ---------------------------------------------------------------------- users

class BannedFilter(admin.SimpleListFilter):
    title = _("restrictions")
    parameter_name = "restricted"

    def lookups(self, request, model_admin):
        return [("banned", _("Banned now")), ("muted", _("Muted now")), ("queue", _("Barred from seeking now"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "banned":
            return queryset.filter(Q(banned_forever=True) | Q(banned_until__gt=now))
        if self.value() == "muted":
            return queryset.filter(muted_until__gt=now)
        if self.value() == "queue":
            return queryset.filter(queue_banned_until__gt=now)
        return queryset


admin.site.unregister(User)


@admin.register(User)
class ModeratedUserAdmin(ActionPages, PlayerAdmin):
    """Players: search by name or email; ban, unban, mute; recent games, reports and history."""

    list_display = ("username", "display_name", "email", "is_guest", "is_staff", "restriction", "date_joined")
    list_filter = ("is_guest", "is_staff", "is_active", BannedFilter)
    search_fields = ("username", "display_name", "email")
    show_full_result_count = False
    moderation_fields = ("restriction", "recent_games", "reports_against", "rating_history",
                         "moderation_history")
    readonly_fields = moderation_fields
    fieldsets = PlayerAdmin.fieldsets + ((_("Moderation"), {"fields": moderation_fields}),)
    action_pages = {
        "ban": (BanForm, "ban", _("Ban")),
        "unban": (ReasonForm, "unban", _("Unban")),
        "mute": (MuteForm, "mute", _("Mute chat")),
        "unmute": (ReasonForm, "unmute", _("Unmute chat")),
    }

    def perform(self, request, user, name, form):
        data = form.cleaned_data
        if name == "ban":
            services.ban(request.user, user, reason=data["reason"], until=data.get("until"),
                         forever=data.get("forever", False))
        elif name == "unban":
            services.unban(request.user, user, reason=data["reason"])
        elif name == "mute":
            services.mute(request.user, user, until=form.until(), reason=data["reason"])
        else:
            services.unmute(request.user, user, reason=data["reason"])

    @admin.display(description=_("restrictions"))
    def restriction(self, user):
        now = timezone.now()
        parts = []
        for label, value in ((gettext("banned"), ban_of(user, now)), (gettext("muted"), mute_of(user, now)
                             if user.muted_until else None), (gettext("barred from seeking"), queue_ban_of(user, now)
                             if user.queue_banned_until else None)):
            if value is not None:
                until = timezone.localtime(value.until).strftime("%Y-%m-%d %H:%M") if value.until else gettext("forever")
                parts.append(f"{label} ({until})")
        return ", ".join(parts) or "–"

    @admin.display(description=_("recent games"))
    def recent_games(self, user):
        games = list(Game.objects.of_player(user).select_related("host", "guest")
                     .order_by("-created_at")[:SECTION_ROWS])
        counted = set(RatingChange.objects.filter(game__in=games).values_list("game_id", flat=True))
        rows = [(format_html('<a href="{}">#{}</a>', _change_url(g), g.pk),
                 timezone.localtime(g.created_at).strftime("%Y-%m-%d %H:%M"), g.get_kind_display(),
                 g.get_status_display(), _ending(g),
                 _players(g), _rating_state(g, g.pk in counted))
                for g in games]
        more = format_html('<p><a href="{}?player={}">{}</a></p>', reverse("admin:games_game_changelist"),
                           user.pk, gettext("All games of this player"))
        return format_html("{}{}", _table([gettext("game"), gettext("created"), gettext("kind"), gettext("status"),
                                           gettext("ending"), gettext("X – O"), gettext("rated")], rows), more)

    @admin.display(description=_("reports against this player"))
    def reports_against(self, user):
        reports = Report.objects.filter(reported=user).select_related("reporter").order_by("-created_at")[:SECTION_ROWS]
        rows = [(format_html('<a href="{}">#{}</a>', _change_url(r), r.pk),
                 timezone.localtime(r.created_at).strftime("%Y-%m-%d %H:%M"), r.get_reason_display(),
                 r.get_status_display(), str(r.reporter), r.note) for r in reports]
        return _table([gettext("report"), gettext("reported at"), gettext("reason"), gettext("status"),
                       gettext("reported by"), gettext("note")], rows)

    @admin.display(description=_("rating history"))
    def rating_history(self, user):
        changes = (RatingChange.objects.filter(user=user).select_related("game", "opponent")
                   .order_by("-created_at")[:SECTION_ROWS])
        rows = [(timezone.localtime(c.created_at).strftime("%Y-%m-%d %H:%M"), c.category,
                 format_html('<a href="{}">#{}</a>', _change_url(c.game), c.game_id), str(c.opponent or "–"),
                 f"{c.before} → {c.after} ({c.delta:+d})", gettext("yes") if c.reverted_at else "")
                for c in changes]
        return _table([gettext("when"), gettext("category"), gettext("game"), gettext("opponent"),
                       gettext("rating"), gettext("annulled")], rows)

    @admin.display(description=_("moderation history"))
    def moderation_history(self, user):
        entries = AuditEntry.objects.filter(user=user).select_related("actor").order_by("-at")[:SECTION_ROWS]
        rows = [(timezone.localtime(e.at).strftime("%Y-%m-%d %H:%M"), e.get_action_display(),
                 str(e.actor) if e.actor else gettext("automatic"), e.reason) for e in entries]
        return _table([gettext("when"), gettext("action"), gettext("moderator"), gettext("reason")], rows)


# ---------------------------------------------------------------------- games

class CategoryFilter(admin.SimpleListFilter):
    """`?category=<slug>`: the games of one rating category (`ranking.categories`: the kind and, for
    caro, exactly the ranked rules)."""

    title = _("rating category")
    parameter_name = "category"

    def lookups(self, request, model_admin):
        return [(category.slug, category.name) for category in categories.CATEGORIES]

    def queryset(self, request, queryset):
        category = categories.BY_SLUG.get(self.value() or "")
        if category is None:
            return queryset
        queryset = queryset.filter(kind=category.kind, imported={})
        return queryset.filter(rules=category.rules) if category.rules is not None else queryset


class PlayerFilter(admin.SimpleListFilter):
    """`?player=<user id>`: the games in which that user holds a seat (linked from a user's page)."""

    title = _("player")
    parameter_name = "player"

    def lookups(self, request, model_admin):
        value = request.GET.get(self.parameter_name, "")
        user = User.objects.filter(pk=value).first() if value.isascii() and value.isdigit() else None
        return [(str(user.pk), str(user))] if user else []

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isascii() and value.isdigit():
            return queryset.filter(Q(host_id=value) | Q(guest_id=value))
        return queryset


admin.site.unregister(Game)


@admin.register(Game)
class ModeratedGameAdmin(ActionPages, GameAdmin):
    """Games: filters, search by player, the final position and the moves; annul and stop."""

    # Few narrow columns, so the list fits beside the admin's sidebar at 1280 px without a scroll:
    # the players as one "X – O" column, the status with its ending, rated/annulled as one word.
    list_display = ("id", "players", "kind", "outcome", "rating_state", "ply", "created")
    list_filter = ("status", "rated", CategoryFilter, "kind", "annulled", "termination",
                   ("created_at", admin.DateFieldListFilter), PlayerFilter)
    list_select_related = ("host", "guest")
    # search: by player, through GameAdmin.get_search_results (the players first, then their games)
    show_full_result_count = False
    ordering = ("-id",)
    inlines = []
    action_pages = {
        "annul": (ReasonForm, "annul", _("Annul the game")),
        "abort": (ReasonForm, "abort", _("Stop the game")),
    }

    def perform(self, request, game, name, form):
        if name == "annul":
            services.annul(request.user, game, reason=form.cleaned_data["reason"])
        else:
            services.abort(request.user, game, reason=form.cleaned_data["reason"])

    def get_queryset(self, request):
        """The games with `rating_counted` (their result changed ratings: a RatingChange row
        exists), read per row shown (an EXISTS on the changes' game index)."""
        counted = Exists(RatingChange.objects.filter(game=OuterRef("pk")))
        return super().get_queryset(request).select_related("host", "guest", "annulled_by").annotate(
            rating_counted=counted)

    @admin.display(description=_("X – O"))
    def players(self, game):
        """Who played X and who O: a user, the computer and its level, or the record's names; a
        game on one device (one user in both seats) says so instead of naming the user twice."""
        return _players(game)

    @admin.display(description=_("status"), ordering="status")
    def outcome(self, game):
        """The status with how the game ended, each said once: "Finished: Five in a row",
        "Aborted before both players had moved", "Aborted: Stopped by a moderator"."""
        ending = _ending(game)
        if game.status == Game.Status.ABORTED and game.termination == Game.Termination.ABORT:
            return ending
        return f"{game.get_status_display()}: {ending}" if game.termination else game.get_status_display()

    @admin.display(description=_("rated"), ordering="rated")
    def rating_state(self, game):
        return _rating_state(game, game.rating_counted)

    @admin.display(description=_("created"), ordering="created_at")
    def created(self, game):
        return _short_time(game.created_at)

    #: Stored forms a moderator does not read: the rules dict and the position text are shown as
    #: words and as a board (`rules_in_words`, `board`); the status, the ending and the rated flag
    #: as one line each (`outcome`, `rating_state`: an aborted ranked game is not "rated").
    RAW_FIELDS = ("rules", "position", "status", "termination", "rated")

    def get_readonly_fields(self, request, obj=None):
        fields = [name for name in super().get_readonly_fields(request, obj) if name not in self.RAW_FIELDS]
        return ["players", "outcome", "rating_state", "board", "rules_in_words", "move_list", "chat", *fields]

    def get_fields(self, request, obj=None):
        return self.get_readonly_fields(request, obj)

    @admin.display(description=_("rules"))
    def rules_in_words(self, game):
        return game_summary(game)

    def _moves(self, game):
        if getattr(self, "_moves_of", (None,))[0] != game.pk:
            self._moves_of = (game.pk, list(Move.objects.filter(game=game).order_by("ply")))
        return self._moves_of[1]

    @admin.display(description=_("position"))
    def board(self, game):
        moves = self._moves(game)
        svg = position_svg(game, position_at(game, moves, len(moves)))
        svg = svg.split("?>", 1)[-1]  # inline: without the XML declaration
        return format_html('<div class="moderation-board" style="max-width:28rem" data-testid="admin-board">{}</div>',
                           mark_safe(svg))  # noqa: S308 - the renderer escapes its texts

    @admin.display(description=_("moves"))
    def move_list(self, game):
        moves = self._moves(game)
        if not moves:
            return gettext("No moves yet.")
        return format_html_join(" ", "<span>{}. {} {}</span>", ((m.ply, m.side, m.square) for m in moves))

    @admin.display(description=_("chat"))
    def chat(self, game):
        lines = ChatMessage.objects.filter(game=game).select_related("author").order_by("created_at")[:200]
        return _chat_table(lines)


#: The computer's name in the games list, by level.
COMPUTER_NAMES = {"easy": _("Computer (Easy)"), "medium": _("Computer (Medium)"), "hard": _("Computer (Hard)")}


def _players(game) -> str:
    """"X – O" of `game` for the admin's lists: the player drawn X, then the one drawn O
    (`_seat_name`), as the room shows them: after a rematch the loser moves first but keeps their
    mark (`Game.mark_of`); or one name for a game on one device (one user in both seats); or, while
    the game waits for its second player, who waits ("Lan, waiting for an opponent")."""
    if game.is_local:
        return gettext("%(name)s (two players, one device)") % {"name": game.host}
    if game.status == Game.Status.WAITING:
        seated = [_seat_name(game, seat) for seat in (Seat.HOST, Seat.GUEST) if not _open(game, seat)]
        return gettext("%(name)s, waiting for an opponent") % {"name": " – ".join(seated) or "–"}
    seats = sorted((game.seat_playing(side) for side in (Side.X, Side.O)),
                   key=lambda seat: game.mark_of(game.side_of(seat)) != Side.X)
    return " – ".join(_seat_name(game, seat) for seat in seats)


def _open(game, seat: str) -> bool:
    """Nobody, person or computer, holds `seat` of a game played here."""
    return game.player_id_in(seat) is None and game.bot_seat != seat and not game.is_imported


def _ending(game) -> str:
    """How `game` ended, in words, or "–" (not over, or a record without an ending): an abort
    says when ("before both players had moved"), not "Aborted" a second time."""
    if game.termination == Game.Termination.ABORT:
        return gettext("Aborted before both players had moved")
    return game.get_termination_display() or "–"


def _rating_state(game, counted: bool) -> str:
    """The game's rating in a word or two for the admin: "rated" only when its result changed
    ratings (`counted`: it has rating changes), "annulled" (they were refunded), "ranked, in
    play" (a ranked game not over yet), "ranked, not counted" (a ranked game that ended without
    changing ratings: an abort), "casual"."""
    if game.annulled:
        return gettext("annulled")
    if counted:
        return gettext("rated")
    if game.rated:
        return gettext("ranked, not counted") if game.is_over else gettext("ranked, in play")
    return gettext("casual")


def _seat_name(game, seat: str) -> str:
    """The name in `seat` for the games list: the user, the computer with its level, an imported
    record's name, or "–" (an open seat, an unknown name)."""
    if game.bot_seat == seat:
        return str(COMPUTER_NAMES.get(game.bot_level, _("Computer")))
    user = game.player_in(seat)
    if user is not None:
        return str(user)
    if game.is_imported:
        return game.imported.get("names", {}).get(game.side_of(seat)) or "–"
    return "–"


def _chat_table(lines) -> str:
    rows = [(timezone.localtime(m.created_at).strftime("%H:%M:%S"), m.get_channel_display(), str(m.author),
             m.text, gettext("hidden") if m.hidden else "") for m in lines]
    return _table([gettext("time"), gettext("channel"), gettext("author"), gettext("text"), ""], rows)


# ---------------------------------------------------------------------- rooms and chat

class ClosedFilter(admin.SimpleListFilter):
    title = _("closed")
    parameter_name = "closed"

    def lookups(self, request, model_admin):
        return [("yes", _("Closed")), ("no", _("Open"))]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(closed_at__isnull=self.value() == "no")
        return queryset


admin.site.unregister(Room)


@admin.register(Room)
class ModeratedRoomAdmin(ActionPages, RoomAdmin):
    list_display = ("code", "kind", "created_by", "preset", "current_game", "created_at", "closed_at")
    list_filter = ("kind", ClosedFilter)
    list_select_related = ("created_by", "current_game")
    show_full_result_count = False
    readonly_fields = ("created_at", "closed_at", "closed_reason")
    action_pages = {"close": (ReasonForm, "close", _("Close the room"))}

    def perform(self, request, room, name, form):
        services.close_room(request.user, room, reason=form.cleaned_data["reason"])

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


@admin.register(ChatMessage)
class ChatMessageAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("created_at", "room", "channel", "author", "text", "hidden")
    list_filter = ("hidden", "channel")
    list_select_related = ("room", "author")
    search_fields = ("text", "author__username", "author__display_name", "room__code")
    show_full_result_count = False
    actions = ["hide"]
    readonly_fields = ("room", "game", "channel", "author", "text", "created_at", "hidden", "hidden_at", "hidden_by")

    def has_hide_permission(self, request):
        return request.user.has_perm(services.PERMISSIONS["hide"])

    @admin.action(description=_("Hide the selected messages"), permissions=["hide"])
    def hide(self, request, queryset):
        hidden = 0
        for message in queryset.select_related("room", "author", "game"):
            try:
                services.hide_message(request.user, message)
            except services.ModerationError:
                continue
            hidden += 1
        messages.success(request, gettext("%(n)s messages hidden.") % {"n": hidden})


# ---------------------------------------------------------------------- reports and the audit log

@admin.register(Report)
class ReportAdmin(ActionPages, ViewOnly, admin.ModelAdmin):
    """Players' reports: read on the report's page, resolved or dismissed there with a note (action
    pages, as users and games have), or many at once from the list (one note for all)."""

    # Narrow columns, so the list fits beside the sidebar at 1280 px (the reporter under the player).
    list_display = ("id", "reported_at", "players", "reason", "status", "game_ref")
    list_filter = ("status", "reason")
    list_select_related = ("reported", "reporter", "game")
    search_fields = ("reported__username", "reporter__username", "reported__display_name")
    show_full_result_count = False
    actions = ["resolve", "dismiss"]
    action_form = DecisionActionForm
    readonly_fields = ("reporter", "reported", "game_link", "reason", "note", "status", "created_at",
                       "decided_at", "decided_by", "decision_note", "game_chat")
    fields = readonly_fields
    action_pages = {
        "resolve": (DecisionForm, "decide", _("Resolve the report")),
        "dismiss": (DecisionForm, "decide", _("Dismiss the report")),
    }
    DECISIONS = {"resolve": Report.Status.RESOLVED, "dismiss": Report.Status.DISMISSED}

    def perform(self, request, report, name, form):
        services.decide_report(request.user, report, status=self.DECISIONS[name], note=form.cleaned_data["note"])

    def unavailable(self, report, name) -> str | None:
        """A decided report: its decision (what, by whom, when, the note), so its resolve and
        dismiss pages show it instead of a form to decide again (and its page offers neither)."""
        if report.status == Report.Status.OPEN:
            return None
        values = {"decision": report.get_status_display(), "moderator": report.decided_by or gettext("automatic"),
                  "time": timezone.localtime(report.decided_at).strftime("%Y-%m-%d %H:%M") if report.decided_at else "–"}
        text = gettext("This report is already decided: %(decision)s by %(moderator)s, %(time)s.") % values
        if report.decision_note:
            text += " " + gettext("Note: %(note)s") % {"note": report.decision_note}
        return text

    def has_decide_permission(self, request):
        return request.user.has_perm(services.PERMISSIONS["decide"])

    @admin.display(description=_("reported player"), ordering="reported")
    def players(self, report):
        return format_html('{}<br><small>{}</small>', report.reported,
                           gettext("reported by %(name)s") % {"name": report.reporter})

    @admin.display(description=_("reported at"), ordering="created_at")
    def reported_at(self, report):
        return _short_time(report.created_at)

    @admin.display(description=_("game"), ordering="game")
    def game_ref(self, report):
        return format_html('<a href="{}">#{}</a>', _change_url(report.game), report.game_id)

    @admin.display(description=_("game"))
    def game_link(self, report):
        return format_html('<a href="{}">#{}</a> {}', _change_url(report.game), report.game_id, report.game)

    @admin.display(description=_("chat"))
    def game_chat(self, report):
        lines = ChatMessage.objects.filter(game_id=report.game_id).select_related("author").order_by("created_at")[:200]
        return _chat_table(lines)

    def _decide(self, request, queryset, status):
        note = request.POST.get("note", "")  # the action bar's note (DecisionActionForm), for all of them
        done = 0
        for report in queryset:
            try:
                services.decide_report(request.user, report, status=status, note=note)
            except services.ModerationError:
                continue
            done += 1
        messages.success(request, gettext("%(n)s reports decided.") % {"n": done})

    @admin.action(description=_("Resolve the selected reports"), permissions=["decide"])
    def resolve(self, request, queryset):
        self._decide(request, queryset, Report.Status.RESOLVED)

    @admin.action(description=_("Dismiss the selected reports"), permissions=["decide"])
    def dismiss(self, request, queryset):
        self._decide(request, queryset, Report.Status.DISMISSED)


@admin.register(AuditEntry)
class AuditEntryAdmin(ViewOnly, admin.ModelAdmin):
    """The audit log, read-only for everyone (superusers included)."""

    list_display = ("at", "actor", "action", "user", "game", "room_code", "reason")
    list_filter = ("action",)
    list_select_related = ("actor", "user", "game")
    search_fields = ("user__username", "actor__username", "room_code")
    show_full_result_count = False
    readonly_fields = ("at", "actor", "action", "user", "game", "room_code", "chat_message", "reason", "details")


# ---------------------------------------------------------------------- ratings

admin.site.unregister(Rating)


@admin.register(Rating)
class AuditedRatingAdmin(RatingAdmin):
    """Ratings: read-only for moderators; only a superuser edits a rating directly, and each such
    edit is stored in the audit log (action "rating", the value before and after)."""

    editable = ("value",)

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        return [f for f in fields if f not in self.editable] if request.user.is_superuser else fields

    def has_change_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff and (
            request.user.is_superuser or request.user.has_perm("ranking.view_rating"))

    def save_model(self, request, obj, form, change):
        if not change or not request.user.is_superuser:  # has_change_permission already refused these
            return
        before = Rating.objects.get(pk=obj.pk).value
        with transaction.atomic():
            obj.save(update_fields=["value"])
            audit(request.user, AuditEntry.Action.RATING, user=obj.user,
                  reason=gettext("Rating edited in the admin"),
                  details={"category": obj.category, "from": before, "to": obj.value})

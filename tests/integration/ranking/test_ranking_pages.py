"""Leaderboard and profile pages against the real database: who is listed, the viewer's highlighted
row and rank, the profile's ratings, chart, counts and games, escaping, and bounded query counts."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ranking.models import Rating
from ranking.tasks import unlist_inactive
from tests.integration.ranking.builders import account, drawn, won_by

pytestmark = pytest.mark.django_db


def established(user, value, category="caro", games=20, days_ago=1):
    return Rating.objects.create(user=user, category=category, value=value, games=games, wins=games,
                                 peak=value, last_played_at=timezone.now() - timedelta(days=days_ago),
                                 listed=days_ago < 30, established=games >= 10)


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def ranks_shown(html: str) -> list[str]:
    import re
    return re.findall(r'<td class="who"><a href="/nguoi-choi/([^/]+)/">', html)


def test_the_leaderboard_lists_established_active_players_best_first_and_highlights_the_viewer(
        django_assert_max_num_queries):
    users = [account(f"lb{i}") for i in range(5)]
    for user, value in zip(users, (1500, 1700, 1600, 1600, 1900)):
        established(user, value)
    established(account("newcomer"), 2500, games=9)             # provisional: listed after the others
    sleeper = established(account("sleeper"), 2600, days_ago=29)
    sleeper.last_played_at -= timedelta(days=2)
    sleeper.save()
    assert unlist_inactive() == 1                                # inactive: not listed any more
    established(account("othercat"), 2700, category="reversi")   # another category
    client = client_for(users[3])
    # session, user, own rating, own rank (2), the top's cache key, the top 100 (not cached yet)
    with django_assert_max_num_queries(7):
        response = client.get(reverse("ranking:leaderboard", args=["caro"]))
    html = response.content.decode()
    assert response.status_code == 200
    # Equal ratings: the lower user id first; the provisional player after every established one,
    # marked "?", and the line saying why.
    assert ranks_shown(html) == ["lb4", "lb1", "lb2", "lb3", "lb0", "newcomer"]
    assert "<td class=\"num\">2500?</td>" in html and 'data-testid="provisional-why"' in html
    assert html.count('data-testid="my-row"') == 1
    my_row = html[html.index('data-testid="my-row"'):].split("</tr>")[0]
    assert "lb3" in my_row and "<td class=\"num\">4</td>" in my_row


def test_a_viewer_outside_the_top_100_sees_their_own_rank_below_it():
    Rating.objects.bulk_create([
        Rating(user=account(f"top{i}"), category="caro", value=2000 - i, games=30, peak=2000 - i,
               last_played_at=timezone.now(), listed=True, established=True) for i in range(105)
    ])
    me = account("farbelow")
    established(me, 1000)
    html = client_for(me).get(reverse("ranking:leaderboard", args=["caro"])).content.decode()
    assert len(ranks_shown(html)) == 101  # the top 100 and my row
    my_row = html[html.index('data-testid="my-row"'):].split("</tr>")[0]
    assert "<td class=\"num\">106</td>" in my_row and "farbelow" in my_row


def test_a_provisional_viewer_sees_their_place_after_the_established_players_and_why():
    established(account("settled"), 1100)
    me = account("fresh")
    established(me, 1240, games=3)
    html = client_for(me).get(reverse("ranking:leaderboard_default")).content.decode()
    assert ranks_shown(html) == ["settled", "fresh"]
    my_row = html[html.index('data-testid="my-row"'):].split("</tr>")[0]
    assert "<td class=\"num\">2</td>" in my_row and "1240?" in my_row
    standing = html[html.index('data-testid="my-standing"'):][:400]
    # The sentence says the rating is provisional in words: no "?" that reads like a question.
    assert "1240 sau 3 ván" in standing and "1240?" not in standing


def test_leaderboard_pages_come_through_htmx_and_the_own_place_shows_on_another_page():
    Rating.objects.bulk_create([
        Rating(user=account(f"pg{i}"), category="caro", value=2000 - i, games=30, peak=2000 - i,
               last_played_at=timezone.now(), listed=True, established=True) for i in range(150)
    ])
    me = account("pgme")
    established(me, 1990)  # 11th: on page 1
    client = client_for(me)
    page2 = client.get(reverse("ranking:leaderboard_default") + "?page=2", HTTP_HX_REQUEST="true",
                       HTTP_HX_TARGET="leaderboard-table").content.decode()
    assert "<html" not in page2 and len(ranks_shown(page2)) == 52  # 51 players, then my row first
    assert page2.index('data-testid="my-row"') < page2.index("pg100")
    assert 'data-testid="page-previous"' in page2 and 'data-testid="page-next"' not in page2
    full = client.get(reverse("ranking:leaderboard_default")).content.decode()
    assert 'id="leaderboard-table"' in full and 'data-testid="page-next"' in full


HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_category_tab_asked_by_htmx_gets_the_tabs_and_the_table_and_a_page_link_the_table_alone(
        django_assert_max_num_queries):
    established(account("caroone"), 1600)
    established(account("revone"), 1700, category="reversi")
    me = account("tabme")
    established(me, 1500, category="reversi")
    client = client_for(me)
    client.get(reverse("ranking:leaderboard", args=["caro"]))  # the session and the caro top, cached
    url = reverse("ranking:leaderboard", args=["reversi"])
    with django_assert_max_num_queries(7):  # the same as the whole page: session, user, own rating, rank, top
        tab = client.get(url, **HTMX, HTTP_HX_TARGET="leaderboard-body")
    html = tab.content.decode()
    assert tab.status_code == 200 and "<html" not in html and "<h1" not in html, "a tab gets a part of the page"
    assert ranks_shown(html) == ["revone", "tabme"] and "caroone" not in html
    current = html[html.index('class="category-tabs"'):html.index("</nav>")]
    assert current.count('aria-current="page"') == 1
    assert 'data-category="reversi" aria-current="page"' in current, "the chosen tab is marked in the part"
    assert '<title>' in html and html.index("<title>") < html.index("<nav"), "htmx takes the page's title from the part"
    assert 'hx-target="#leaderboard-body"' in current and 'id="leaderboard-table"' in html
    assert 'data-testid="my-row"' in html
    assert {"HX-Request", "HX-Target"} <= {v.strip() for v in tab["Vary"].split(",")}

    table = client.get(url, **HMTX_TABLE).content.decode()
    assert "<nav" not in table and "<title>" not in table and ranks_shown(table) == ["revone", "tabme"]

    whole = client.get(url).content.decode()  # without JavaScript: the whole page, the same tabs and rows
    assert "<html" in whole and whole.count("<title>") == 1 and 'id="leaderboard-body"' in whole
    assert ranks_shown(whole) == ["revone", "tabme"] and 'data-category="reversi" aria-current="page"' in whole
    restored = client.get(url, **HMTX_TABLE, HTTP_HX_HISTORY_RESTORE_REQUEST="true").content.decode()
    assert "<html" in restored, "htmx restoring the page from history gets the whole page"


HMTX_TABLE = {**HTMX, "HTTP_HX_TARGET": "leaderboard-table"}


def test_an_unknown_category_is_a_404():
    assert client_for().get("/bang-xep-hang/chess/").status_code == 404


def test_the_profile_shows_ratings_chart_counts_and_recent_games(django_assert_max_num_queries):
    me = account("profiled", display_name="<b>Bình</b> & co")
    rival = account("rival", display_name="<script>alert(1)</script>")
    won_by(me, rival)
    won_by(rival, me)
    drawn(me, rival)
    won_by(me, rival, kind="reversi")
    client = client_for()
    with django_assert_max_num_queries(12):  # user, ratings, 2 charts, ranks (a provisional one: 3 COUNTs), games, changes
        response = client.get(reverse("ranking:profile", args=["profiled"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "&lt;b&gt;Bình&lt;/b&gt; &amp; co" in html and "<b>Bình</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    caro_card = html[html.index('data-testid="rating-caro"'):html.index('data-testid="rating-reversi"')]
    # 1200 → 1220 (win) → 1200? (loss: E 0.5576, −22 → 1198) → draw (+1) … shown provisional
    assert "?" in caro_card and "<svg" in caro_card and "<polyline" in caro_card
    assert '<span class="w">1 thắng</span>' in caro_card  # Vietnamese by default
    assert html.count('class="rating-chart"') == 2  # one chart per rated category (each holds its plot's SVG)
    recent = html[html.index('data-testid="recent-games"'):]
    assert recent.count("<li") == 4
    assert "/van/" in recent  # links to the game's record page
    assert "+20" in recent and "\u2212" in recent


def test_the_profile_is_english_when_the_reader_chose_english():
    me = account("eng")
    won_by(me, account())
    client = client_for()
    client.cookies["django_language"] = "en"
    html = client.get(reverse("ranking:profile", args=["eng"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 won" in html and "Recent games" in html


def test_unknown_names_and_guests_have_no_profile():
    from accounts.guests import create_guest
    guest = create_guest()
    assert client_for().get(reverse("ranking:profile", args=["nobody-here"])).status_code == 404
    assert client_for().get(reverse("ranking:profile", args=[guest.username])).status_code == 404


def test_the_header_links_to_the_leaderboard():
    html = client_for().get("/").content.decode()
    assert 'href="/bang-xep-hang/"' in html


def test_unlisting_inactive_players_is_an_hourly_beat_job():
    from django.conf import settings

    from caro.celery import app

    app.loader.import_default_modules()
    schedules = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedules.get("ranking.tasks.unlist_inactive") == 3600.0
    assert "ranking.tasks.unlist_inactive" in app.tasks


def test_the_rank_is_exact_and_a_bounded_rank_stops_at_its_limit():
    from ranking import pages

    Rating.objects.bulk_create([
        Rating(user=account(f"b{i}"), category="caro", value=1500 + (i % 3), games=30, peak=1500,
               last_played_at=timezone.now(), listed=True, established=True) for i in range(12)
    ])
    mine = established(account("bounded"), 1501)  # 4 higher (1502), 4 equal with a lower id
    assert pages.rank_of(mine) == 9
    assert pages.rank_of(mine, limit=9) == 9
    assert pages.rank_of(mine, limit=8) is None and pages.rank_of(mine, limit=3) is None


def test_the_rendered_top_rows_are_reused_until_the_top_changes(django_assert_max_num_queries):
    from ranking import pages

    users = [account(f"tc{i}") for i in range(3)]
    ratings = [established(user, value) for user, value in zip(users, (1500, 1600, 1700))]
    url = reverse("ranking:leaderboard", args=["caro"])
    client_for().get(url)
    with django_assert_max_num_queries(3):  # session, the top's cache key; the rows come from the cache
        html = client_for().get(url).content.decode()
    assert ranks_shown(html) == ["tc2", "tc1", "tc0"]
    ratings[0].value = 1800  # a rating change in the top: a new key, the new order at once
    ratings[0].save()
    assert ranks_shown(client_for().get(url).content.decode()) == ["tc0", "tc2", "tc1"]
    viewer = client_for(users[1]).get(url).content.decode()  # the viewer's row highlighted in the cached rows
    assert viewer.count('data-testid="my-row"') == 1
    assert "tc1" in viewer[viewer.index('data-testid="my-row"'):].split("</tr>")[0]
    assert pages.top_key("caro", "vi") != pages.top_key("caro", "en")


def test_a_viewer_in_the_top_rows_gets_their_rank_without_a_count(django_assert_max_num_queries):
    users = [account(f"nc{i}") for i in range(4)]
    for user, value in zip(users, (1500, 1600, 1600, 1700)):
        established(user, value)
    url = reverse("ranking:leaderboard", args=["caro"])
    client = client_for(users[2])
    client.get(url)  # the rows rendered and cached
    # session, user, own rating, the top's rows (key and places); no COUNT for a viewer in the top
    with django_assert_max_num_queries(4) as queries:
        html = client.get(url).content.decode()
    assert not any("COUNT(" in q["sql"] for q in queries.captured_queries)
    my_row = html[html.index('data-testid="my-row"'):].split("</tr>")[0]
    assert "nc2" in my_row and '<td class="num">3</td>' in my_row  # the tie at 1600: the lower id first


def test_the_own_rank_below_the_top_is_counted_once_then_kept_until_the_rating_changes(
        django_assert_max_num_queries):
    from ranking import pages

    Rating.objects.bulk_create([
        Rating(user=account(f"kc{i}"), category="caro", value=2000 - i, games=30, peak=2000 - i,
               last_played_at=timezone.now(), listed=True, established=True) for i in range(102)
    ])
    established(account("kcolder"), 1000)  # equal to mine, an older account: ahead of me
    me = account("kcme")
    mine = established(me, 1000)
    url = reverse("ranking:leaderboard", args=["caro"])
    client = client_for(me)

    def my_rank(html):
        return html[html.index('data-testid="my-row"'):].split("</tr>")[0]

    assert '<td class="num">104</td>' in my_rank(client.get(url).content.decode())  # 102 higher, 1 tied older
    with django_assert_max_num_queries(4) as queries:  # counted once: the rank comes from the cache now
        html = client.get(url).content.decode()
    assert not any("COUNT(" in q["sql"] for q in queries.captured_queries)
    assert '<td class="num">104</td>' in my_rank(html)
    # My own rated game makes a new key at once: the new rank shows on the next view.
    mine.refresh_from_db()
    mine.value = 1950
    mine.save()
    assert '<td class="num">52</td>' in my_rank(client.get(url).content.decode())  # 50 higher, 1 tied older
    # Bounded ranks have their own keys, and "beyond the limit" is kept as such.
    mine.refresh_from_db()
    assert pages.cached_rank(mine, limit=10) is None and pages.cached_rank(mine, limit=10) is None
    assert pages.cached_rank(mine, limit=100) == 52


def test_a_stale_rank_never_claims_a_place_in_the_top_rows(django_assert_max_num_queries):
    from django.core.cache import cache

    from ranking import pages

    Rating.objects.bulk_create([
        Rating(user=account(f"st{i}"), category="caro", value=2000 - i, games=30, peak=2000 - i,
               last_played_at=timezone.now(), listed=True, established=True) for i in range(100)
    ])
    me = account("stme")
    mine = established(me, 1000)
    cache.set(pages.rank_key(mine), 7, pages.RANK_CACHE_S)  # as if counted when I was 7th
    html = client_for(me).get(reverse("ranking:leaderboard", args=["caro"])).content.decode()
    assert html.count('data-testid="my-row"') == 1
    my_row = html[html.index('data-testid="my-row"'):].split("</tr>")[0]
    assert "stme" in my_row and '<td class="num">101</td>' in my_row


def test_the_profile_chart_is_reused_until_the_rating_changes(django_assert_max_num_queries):
    from ranking.models import RatingChange

    player = account("chartee")
    rival = account("chartrival")
    for _ in range(3):
        won_by(player, rival)
    url = reverse("ranking:profile", args=["chartee"])
    first = client_for().get(url).content.decode()
    assert "<polyline" in first
    with django_assert_max_num_queries(11) as queries:
        again = client_for().get(url).content.decode()
    # The history's own query (the ratings before and after each game only) is not made again.
    assert not any(q["sql"].startswith('SELECT "ranking_ratingchange"."before" AS "before"')
                   for q in queries.captured_queries)
    assert again.count("<polyline") == first.count("<polyline")
    won_by(player, rival)  # a new rated game: a new chart at once
    after = client_for().get(url).content.decode()
    points = RatingChange.objects.filter(user=player, category="caro").count() + 1
    line = after[after.index('class="line"'):].split('points="')[1].split('"')[0]
    assert len(line.split()) == points


def test_the_recent_games_list_is_reused_until_a_game_or_a_rating_change_changes_it():
    from ranking.models import RatingChange

    player, rival = account("recentee"), account("recentrival", display_name="Rival một")
    won_by(player, rival)
    url = reverse("ranking:profile", args=["recentee"])
    first = client_for().get(url).content.decode()
    assert first.count("<li class=\"res-") == 1 and "+20" in first
    rival.display_name = "Rival hai"  # only a new name may wait for the kept list
    rival.save(update_fields=["display_name"])
    assert "Rival một" in client_for().get(url).content.decode()
    english = client_for()
    english.cookies["django_language"] = "en"
    assert "against" in english.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()  # kept per language
    won_by(rival, player)  # a new game: the list is made again at once
    after = client_for().get(url).content.decode()
    assert after.count("<li class=\"res-") == 2 and "Rival hai" in after
    RatingChange.objects.filter(user=player).update(reverted_at=timezone.now())  # an annulment's revert
    reverted = client_for().get(url).content.decode()
    assert "+20" not in reverted

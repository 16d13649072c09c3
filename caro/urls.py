from django.conf import settings
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django.views.generic import RedirectView

from caro import views
from caro.records import upload as record_upload
from caro.rooms import views as room_views

# The admin names the site, not Django ("Trang quản trị cho Django" read like a stock install).
admin.site.site_header = _("Caro administration")
admin.site.site_title = _("Caro administration")
admin.site.index_title = _("Moderation and data")

urlpatterns = [
    # GET only from outside; room_create renders it for its POST refused over a limit.
    path("", require_safe(room_views.home), name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=False,
                                             http_method_names=["get", "head"])),
    path("i18n/", include("django.conf.urls.i18n")),
    # gettext() for the page scripts (static/js), from locale/*/LC_MESSAGES/djangojs.po.
    path("jsi18n/", views.PageLanguageCatalog.as_view(), name="javascript-catalog"),
    path(settings.ADMIN_URL, admin.site.urls),
    path("", include("moderation.urls")),
    # Accounts: the guest rename, then django-allauth's sign-up, log-in, passwords and email pages.
    path("tai-khoan/", include("accounts.urls")),
    path("tai-khoan/", include("allauth.urls")),
    path("", include("caro.rooms.urls")),
    path("", include("caro.tutorials.urls")),
    path("", include("caro.records.urls")),
    # Records of games played on the device (the page's records queue posts them; docs/protocol.md).
    path("api/local-games/", record_upload.upload, name="local_game_upload"),
    path("", include("ranking.urls")),
    path("", include("ranking.match_urls")),
    # /sw.js, /manifest.webmanifest and the offline page.
    path("", include("caro.offline.urls")),
    path("", include("lobby.urls")),
]

handler400 = "caro.views.bad_request"
handler404 = "caro.views.page_not_found"
handler500 = "caro.views.server_error"

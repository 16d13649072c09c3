"""django-axes' app under a translated name (axes names its app "Axes", not translatable): the
admin lists its models as "Khóa đăng nhập" in Vietnamese. INSTALLED_APPS names this class instead
of "axes"; its module holds no other app config, so Django finds no second candidate."""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _


class LockoutConfig(AxesAppConfig):
    """axes' own app config (its start-up checks and signals), with a verbose name we translate."""

    verbose_name = _("Log-in lockouts")

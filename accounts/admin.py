from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from accounts import names
from accounts.forms import name_free_for
from accounts.models import User


def username_help() -> str:
    """The site's username rule in words (accounts.names), for the admin's user page."""
    return _("%(min)d to %(max)d characters: letters (Vietnamese ones too), digits, _ and -; no spaces. "
             "No two accounts may have the same name, whatever the case. A guest's name is made by the site.") % {
        "min": names.NAME_MIN_LENGTH, "max": names.NAME_MAX_LENGTH}


class PlayerChangeForm(UserChangeForm):
    """Django's user change form with the site's username rule (accounts.names) instead of
    Django's default ("150 characters or fewer..."): a changed username is checked as sign-up
    checks it; an unchanged one (a guest's "guest-…" name) is kept as it is."""

    class Meta(UserChangeForm.Meta):
        model = User
        # also for a moderator who may only view users: the admin reads a read-only field's help here
        help_texts = {"username": lazy(username_help, str)()}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields.get("username")
        if field is not None:
            field.help_text = username_help()
            field.validators = []  # Django's ASCII/150 rule; clean_username applies ours

    def clean_username(self) -> str:
        name = self.cleaned_data["username"]
        if self.instance.pk and name == self.instance.username:
            return name
        name = names.validate_name(name)
        if not name_free_for(name, self.instance if self.instance.pk else None):
            raise ValidationError(_("An account already has this name. Please choose another one."), code="name_taken")
        return name


@admin.register(User)
class PlayerAdmin(UserAdmin):
    form = PlayerChangeForm
    list_display = ("username", "display_name", "is_guest", "is_staff", "date_joined", "last_login")
    list_filter = ("is_guest", "is_staff", "is_active")
    search_fields = ("username", "display_name", "email")
    fieldsets = UserAdmin.fieldsets + ((_("Player"), {"fields": ("display_name", "is_guest")}),)

"""Forms: allauth's sign-up form with the guest's name offered, and the guest rename form."""

from __future__ import annotations

from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.core import context
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts import names
from accounts.models import User


def name_free_for(name: str, user: User | None = None) -> bool:
    """True unless an account (other than `user`) has `name` as its username, ignoring case."""
    taken = User.objects.filter(is_guest=False, username__iexact=name)
    if user is not None:
        taken = taken.exclude(pk=user.pk)
    return not taken.exists()


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form (ACCOUNT_FORMS["signup"]); a guest finds their name already typed in
    when it is a valid username that no account holds, and so does a visitor who is not a guest yet
    (the name shown in the header since the first page, `accounts.visitors`)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.is_bound:
            return
        request = context.request
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            shown = user.display_name if getattr(user, "is_guest", False) else ""
        else:
            visitor = getattr(request, "visitor", None)
            shown = visitor.name if visitor is not None else ""
        if not shown:
            return
        try:
            name = names.validate_name(shown)
        except ValidationError:
            return
        if name_free_for(name):
            self.fields["username"].initial = name


class GuestNameForm(forms.Form):
    """A guest's new shown name: the rules of accounts.names, no account's username, and no other
    player's shown name."""

    # No max_length here: Django's own message ("at most 40 characters") would contradict the name
    # rule (accounts.names: NAME_MAX_LENGTH), which clean_name reports with the name's length.
    name = forms.CharField(label=_("Your name"), strip=True, error_messages={"required": _("Type a name.")})

    def __init__(self, *args, user: User | None, **kwargs) -> None:
        """`user`: the guest renaming themselves, or None for a visitor who is not a guest yet."""
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_name(self) -> str:
        """The normalised name; ValidationError (translated) when it breaks a rule, an account has it,
        or another player shows it."""
        name = names.validate_name(self.cleaned_data["name"])
        if not name_free_for(name, self.user):
            raise ValidationError(_("An account already has this name. Please choose another one."), code="name_taken")
        others = User.objects.filter(display_name__iexact=name)
        if self.user is not None:
            others = others.exclude(pk=self.user.pk)
        if others.exists():
            # another player shows this name: in a room or its chat one would pass for the other
            raise ValidationError(_("Another player already goes by this name. Please choose another one."),
                                  code="name_in_use")
        return name

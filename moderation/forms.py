"""The small forms of the admin's moderation pages."""

from datetime import timedelta

from django import forms
from django.contrib.admin.helpers import ActionForm
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from moderation.services import MAX_NOTE_CHARS, MAX_REASON_CHARS

#: How long a mute may last, as offered in the admin ("for a while").
MUTE_CHOICES = [
    (15, _("15 minutes")),
    (60, _("1 hour")),
    (24 * 60, _("1 day")),
    (7 * 24 * 60, _("1 week")),
]


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=MAX_REASON_CHARS,
                             widget=forms.Textarea(attrs={"rows": 3}))


class BanForm(ReasonForm):
    """A ban ends at `until` (in the future) or never: `forever`, ticked. Exactly one of the two;
    an empty end with the box unticked is refused, never read as a permanent ban."""

    until = forms.DateTimeField(label=_("Banned until"), required=False,
                                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                help_text=_("Local time of the site. For a permanent ban, leave this empty "
                                            "and tick “Ban permanently”."))
    forever = forms.BooleanField(label=_("Ban permanently"), required=False)

    def clean(self):
        data = super().clean()
        until, forever = data.get("until"), data.get("forever")
        if "until" in self.errors:  # not a date and time: that error says it already
            return data
        if forever and until:
            self.add_error("until", _("Choose an end or a permanent ban, not both."))
        elif not forever and not until:
            self.add_error("until", _("Choose when the ban ends, or tick “Ban permanently”."))
        elif until and until <= timezone.now():
            self.add_error("until", _("The end must be in the future."))
        return data


class MuteForm(ReasonForm):
    minutes = forms.TypedChoiceField(label=_("Mute for"), choices=MUTE_CHOICES, coerce=int, initial=60)

    def until(self):
        return timezone.now() + timedelta(minutes=self.cleaned_data["minutes"])


class DecisionForm(forms.Form):
    """Resolving or dismissing one report, from its own page: what was done, or why nothing was
    (kept in the report and as the audit entry's reason)."""

    note = forms.CharField(label=_("Resolution note"), max_length=MAX_NOTE_CHARS,
                           widget=forms.Textarea(attrs={"rows": 3}),
                           help_text=_("What you did about it, or why nothing: kept with the report and in the "
                                       "audit log."))


class DecisionActionForm(ActionForm):
    """The reports list's action bar: the bulk resolve/dismiss actions take one note for all."""

    note = forms.CharField(label=_("Resolution note:"), max_length=MAX_NOTE_CHARS, required=False)

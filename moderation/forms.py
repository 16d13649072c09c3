"""The small forms of the admin's moderation pages."""

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from moderation.services import MAX_REASON_CHARS

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
    until = forms.DateTimeField(label=_("Banned until"), required=False,
                                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                help_text=_("Local time of the site. Leave empty for a permanent ban."))
    forever = forms.BooleanField(label=_("Ban permanently"), required=False)

    def clean(self):
        data = super().clean()
        if not data.get("forever") and not data.get("until"):
            raise forms.ValidationError(_("Choose an end in the future, or a permanent ban."))
        if data.get("until") and data["until"] <= timezone.now() and not data.get("forever"):
            raise forms.ValidationError(_("Choose an end in the future, or a permanent ban."))
        return data


class MuteForm(ReasonForm):
    minutes = forms.TypedChoiceField(label=_("Mute for"), choices=MUTE_CHOICES, coerce=int, initial=60)

    def until(self):
        return timezone.now() + timedelta(minutes=self.cleaned_data["minutes"])

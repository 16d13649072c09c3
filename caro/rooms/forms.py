from django import forms
from django.utils.translation import gettext_lazy as _

from caro.rooms.services import normalize_code


class JoinByCodeForm(forms.Form):
    """A friend's 6-character room code, typed as shown ("K7M 4QP") or in any case and spacing."""

    code = forms.CharField(
        label=_("Room code"),
        max_length=12,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
                   "placeholder": "K7M 4QP", "inputmode": "text"}
        ),
    )

    def clean_code(self) -> str:
        code = normalize_code(self.cleaned_data["code"])
        if code is None:
            raise forms.ValidationError(_("A room code has 6 letters and digits, like K7M 4QP."))
        return code

"""Forms of the record pages: importing a record, and continuing a position against the computer."""

from django import forms
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from caro.engine.caro import SIZES
from caro.engine.names import RULE_SET_NAMES
from caro.games.kinds import RULE_CHOICES
from caro.games.models import Game
from caro.games.records import MAX_RECORD_BYTES


class ImportForm(forms.Form):
    """A record as a file or pasted text, and the rules to replay a plain move list under (a PSQ
    file brings its board size, a GGF file is Reversi)."""

    file = forms.FileField(label=_("Record file (.psq, .ggf, .txt)"), required=False)
    text = forms.CharField(label=_("Or paste the moves"), required=False, strip=False,
                           widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false", "autocapitalize": "off",
                                                        "placeholder": "H8 I9 J10 …  /  f5d6c3 …"}))
    rules = forms.ChoiceField(label=_("Rules"), initial="caro-vn")
    size = forms.TypedChoiceField(label=_("Board"), coerce=int, initial=15,
                                  choices=[(n, f"{n}×{n}") for n in SIZES])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Pasted text with a NUL is refused by `records.read` as "not a text file", like a file
        # with one; Django's own check would drop the text and the form would call it empty.
        self.fields["text"].validators = [validator for validator in self.fields["text"].validators
                                          if not isinstance(validator, ProhibitNullCharactersValidator)]
        self.fields["rules"].choices = [(slug, gettext(RULE_SET_NAMES[slug])) for slug in RULE_CHOICES]

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None and upload.size > MAX_RECORD_BYTES:
            raise forms.ValidationError(_("The file is too large (over 1 MB). A game record is only a few kilobytes."))
        if upload is None and not (data.get("text") or "").strip():
            raise forms.ValidationError(_("The record is empty: choose a file or paste the moves."))
        return data


class ContinueForm(forms.Form):
    """Where to continue from (a ply of the game) and the computer's level."""

    ply = forms.IntegerField(min_value=0, max_value=1000, widget=forms.HiddenInput)
    level = forms.ChoiceField(label=_("Computer level"), choices=Game.BotLevel.choices, initial="medium")

import re
import secrets

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from caro.engine.caro import PRESETS, SIZES, WIN_LENGTHS
from caro.engine.names import RULE_SET_NAMES
from caro.games.kinds import RULE_CHOICES, kind_for_choice
from caro.rooms.models import Room
from caro.rooms.services import normalize_code


class NewRoomForm(forms.Form):
    """The rules of a new friend room: a preset, and optionally another board size or win length.

    Every field is optional: a bare POST creates a room with the site's default rules.
    """

    preset = forms.ChoiceField(label=_("Rules"), initial="caro-vn", required=False)
    size = forms.TypedChoiceField(label=_("Board"), coerce=int, initial=15, required=False, empty_value=None,
                                  choices=[(n, f"{n}×{n}") for n in SIZES])
    win_length = forms.TypedChoiceField(label=_("Stones in a row to win"), coerce=int, initial=5,
                                        required=False, empty_value=None,
                                        choices=[(n, str(n)) for n in WIN_LENGTHS])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [(slug, gettext(RULE_SET_NAMES[slug])) for slug in RULE_CHOICES]

    def clean(self):
        data = super().clean()
        if not data.get("preset") and "preset" not in self.errors:  # a bare POST: the site default
            data["preset"] = "caro-vn"
        preset = PRESETS.get(data.get("preset"))
        if data.get("preset") and not kind_for_choice(data["preset"]).has_options:  # Reversi: 8×8
            data["size"], data["win_length"] = None, None
        elif preset is not None:
            data["size"] = data.get("size") or preset.rules.size
            data["win_length"] = data.get("win_length") or preset.rules.win_length
        if PRESETS.get(data.get("preset")) and PRESETS[data["preset"]].rules.renju:
            if data.get("size") != 15 or data.get("win_length") != 5:
                raise forms.ValidationError(_("Renju is played on a 15×15 board with five in a row."))
        return data


#: The clocks a friend room offers: `key -> (per-move ms, total ms per player, increment ms)`.
#: Per move: shared/reference/caro-rules-cocaro.txt; total time with an increment: caro-rules-5phut.txt §6.
TIME_CONTROLS = {
    "none": (0, 0, 0),
    "30s": (30_000, 0, 0),
    "1m": (60_000, 0, 0),
    "2m": (120_000, 0, 0),
    **{f"{minutes}+{inc}": (0, minutes * 60_000, inc * 1000) for minutes in (3, 5, 10) for inc in (0, 2, 5)},
}
#: The clock of a room whose host did not choose one: 1 minute per move; Reversi 30 s per move.
DEFAULT_TIME = {"caro": "1m", "reversi": "30s"}


def time_label(key: str) -> str:
    move_ms, bank_ms, increment_ms = TIME_CONTROLS[key]
    if bank_ms and not increment_ms:
        return gettext("%(min)d min in all, no time added") % {"min": bank_ms // 60_000}
    if bank_ms:
        return gettext("%(min)d min + %(inc)d s per move") % {"min": bank_ms // 60_000, "inc": increment_ms // 1000}
    if not move_ms:
        return gettext("No clock")
    if move_ms % 60_000 == 0:
        return gettext("%(n)d min per move") % {"n": move_ms // 60_000}
    return gettext("%(n)d s per move") % {"n": move_ms // 1000}


class FriendRoomForm(NewRoomForm):
    """A friend room: the rules, and the host's options kept for every game of the room."""

    #: One labelled radio button per clock (not a list box): a label wraps on a narrow phone, where
    #: a list box cut the longer choices off ("Mặc định: 1 phút/nước (cờ lật 30 gi").
    time = forms.ChoiceField(label=_("Clock"), required=False, initial="", widget=forms.RadioSelect)
    first = forms.ChoiceField(
        label=_("First move in game 1"), required=False, initial="host",
        choices=[("host", _("Me (the host)")), ("guest", _("My friend")), ("rps", _("Rock-paper-scissors"))],
    )
    takeback = forms.BooleanField(label=_("Allow taking back a move when the opponent agrees"), required=False)
    listed = forms.BooleanField(label=_("Wait in the lobby: anyone may take the free seat"), required=False)
    accounts_only = forms.BooleanField(label=_("Only players with an account may take the seat"), required=False)
    watchable = forms.BooleanField(label=_("Show this room's games on the watch page"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time"].choices = [("", gettext("Default: 1 min per move (Reversi 30 s)"))] + [
            (key, time_label(key)) for key in TIME_CONTROLS
        ]

    def clean(self):
        data = super().clean()
        kind = kind_for_choice(data.get("preset") or "caro-vn")
        move_ms, bank_ms, increment_ms = TIME_CONTROLS[data.get("time") or DEFAULT_TIME[kind.name]]
        data.update(move_time_ms=move_ms, bank_ms=bank_ms, increment_ms=increment_ms)
        data["first"] = data.get("first") or "host"
        return data


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

    def clean(self):
        """`code`: the code of an existing room; else the field's error says what is wrong with what
        was typed (not a code, or a code no room has)."""
        data = super().clean()
        typed = re.sub(r"[\s\-_.]", "", data.get("code") or "").upper()
        if "code" in data:
            code = normalize_code(typed)
            if len(typed) != 6 or not typed.isalnum():
                self.add_error("code", _("A room code has 6 letters and digits, like K7M 4QP."))
            elif code is None or not Room.objects.filter(code=code).exists():
                self.add_error("code", _("No room has the code %(code)s. Check it with your friend.")
                               % {"code": f"{typed[:3]}\u00a0{typed[3:]}"})  # never split over two lines
            else:
                data["code"] = code
        if self.errors:  # the box gets the focus again (and comes into view), ready to correct
            self.fields["code"].widget.attrs["autofocus"] = True
        return data


class ComputerRoomForm(NewRoomForm):
    """A game against the computer: the rules, the level, and which side the player takes."""

    level = forms.ChoiceField(label=_("Level"), initial="easy", required=False,
                              choices=[("easy", _("Easy")), ("medium", _("Medium")), ("hard", _("Hard"))])
    side = forms.ChoiceField(label=_("You play"), initial="X", required=False,
                             choices=[("X", _("First (X, or Black in Reversi)")),
                                      ("O", _("Second (O, or White in Reversi)")), ("random", _("Random"))])

    def clean(self):
        data = super().clean()
        data["level"] = data.get("level") or "easy"
        side = data.get("side") or "X"
        data["side"] = secrets.choice("XO") if side == "random" else side
        return data

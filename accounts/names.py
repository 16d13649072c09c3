"""Player names: the rules a username (accounts) or a shown name (guests) must follow.

One set of rules for both, so a guest who signs up can keep their name:

- NAME_MIN_LENGTH to NAME_MAX_LENGTH characters (after Unicode NFC normalisation and trimming);
- Latin letters (Vietnamese ones with their marks included: "Hùng", "Đạt"), digits 0-9, the
  underscore and the hyphen; no spaces, no letters of other scripts (a Cyrillic "а" would let
  "аdmin" pass for "admin") and none of the Latin look-alikes (LATIN_RANGES, LOOKALIKE_LETTERS);
- not a reserved name (RESERVED_NAMES: the site's staff and system words, compared without case,
  marks, "_" or "-"), and not shaped like a guest's username ("guest-…", "khach…");
- unique case-insensitively among accounts: the database holds a unique index on Lower(username)
  (`User.Meta.constraints`); the forms check it first to give a clear error. A guest's new shown
  name must also differ from every other player's shown name (accounts.forms.GuestNameForm), so a
  guest cannot pass for their opponent.

Every error is a translated `ValidationError`.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: Shortest and longest name, characters.
NAME_MIN_LENGTH = 3
NAME_MAX_LENGTH = 20

#: Names nobody may take (lower case, without "_" and "-"): they would pass for the site or its staff.
RESERVED_NAMES = frozenset({
    "admin", "administrator", "admins", "moderator", "moderators", "mod", "mods", "staff", "system",
    "support", "root", "caro", "caroonline", "guest", "guests", "khach", "khách", "quantri",
    "quảntrị", "quantrivien", "quảntrịviên", "banquantri", "banquảntrị", "hotro", "hỗtrợ",
    "kiemduyet", "kiểmduyệt", "official", "chinhthuc", "chínhthức", "help", "info", "contact",
    "security", "sysadmin", "superuser", "server", "bot", "computer", "maytinh", "máytính",
    "anonymous", "nobody", "null", "none", "undefined", "user", "webmaster", "postmaster",
})
#: A name that starts like a guest's username or the word for "guest" would pass for a guest.
GUEST_LOOKALIKE = re.compile(r"^(guest|khach|khách)", re.IGNORECASE)

_EXTRA = {"_", "-"}

#: The Latin letters a name may use: Basic Latin, Latin-1, Latin Extended-A and -B and Latin
#: Extended Additional (Vietnamese "ơ", "ư", "ạ", "ễ" …), as code point ranges. IPA letters, small
#: capitals and the other phonetic blocks are left out: "ɑdmin", "ᴀᴅᴍɪɴ" or "ꜱᴛᴀꜰꜰ" would pass for
#: a reserved name.
LATIN_RANGES = ((0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x1E00, 0x1EFF))
#: Letters of those blocks that pass for punctuation or for another letter: the clicks (ǀ ǁ ǂ ǃ
#: look like "|" and "!"), the dotless i (ı), the long s (ſ, like "f") and kra (ĸ, like "k").
LOOKALIKE_LETTERS = frozenset("\u01c0\u01c1\u01c2\u01c3\u0131\u017f\u0138")


def normalize(name: str) -> str:
    """The stored form of a typed name: NFC, surrounding spaces removed."""
    return unicodedata.normalize("NFC", name or "").strip()


def _allowed(char: str) -> bool:
    if char in _EXTRA or char in "0123456789":
        return True
    code = ord(char)
    return (char.isalpha() and char not in LOOKALIKE_LETTERS
            and any(low <= code <= high for low, high in LATIN_RANGES))


def _key(name: str) -> str:
    """The name as compared with the reserved list: case-folded, without marks ("ádmin" is
    "admin") and without "_" and "-"."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return bare.casefold().replace("_", "").replace("-", "")


def validate_length(name: str) -> None:
    """ValidationError unless NAME_MIN_LENGTH <= len(name) <= NAME_MAX_LENGTH; a too long name is
    told the limit and its own length, so a pasted text is not refused with a riddle."""
    if len(name) > NAME_MAX_LENGTH:
        raise ValidationError(
            _("A name has at most %(max)d characters; this one has %(count)d.")
            % {"max": NAME_MAX_LENGTH, "count": len(name)},
            code="name_length",
        )
    if len(name) < NAME_MIN_LENGTH:
        raise ValidationError(
            _("A name has %(min)d to %(max)d characters.") % {"min": NAME_MIN_LENGTH, "max": NAME_MAX_LENGTH},
            code="name_length",
        )


def validate_characters(name: str) -> None:
    """ValidationError unless every character is a Latin letter, a digit, "_" or "-"."""
    if not all(_allowed(c) for c in name):
        raise ValidationError(
            _("A name may hold only letters (Vietnamese ones too), digits, “_” and “-”, without spaces."),
            code="name_characters",
        )


def validate_not_reserved(name: str) -> None:
    """ValidationError for a reserved name or one that looks like a guest's."""
    key = _key(name)
    if key in {_key(r) for r in RESERVED_NAMES} or GUEST_LOOKALIKE.match(name) or GUEST_LOOKALIKE.match(key):
        raise ValidationError(_("This name is reserved. Please choose another one."), code="name_reserved")


#: The validators allauth runs on a username (ACCOUNT_USERNAME_VALIDATORS points here).
USERNAME_VALIDATORS = [validate_length, validate_characters, validate_not_reserved]


def validate_name(name: str) -> str:
    """Run every rule but uniqueness on `name` (normalised first); return the normalised name.

    Raises ValidationError (translated) on the first rule broken."""
    name = normalize(name)
    for validator in USERNAME_VALIDATORS:
        validator(name)
    return name

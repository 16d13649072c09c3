"""Record URLs, one clean set per language as the guides have: /van/... (vi), /en/game/... (en)."""

from django.urls import path

from caro.records import views

app_name = "records"

_PREFIX = {"vi": "van/", "en": "en/game/"}
_WORDS = {
    "vi": {"image": "anh.svg", "export": "tai", "continue": "choi-tiep", "import": "nhap/", "mine": "cua-toi/"},
    "en": {"image": "image.svg", "export": "download", "continue": "continue", "import": "import/", "mine": "mine/"},
}

urlpatterns = []
for _lang, _prefix in _PREFIX.items():
    _w = _WORDS[_lang]
    _lang_kwargs = {"language": _lang}
    urlpatterns += [
        path(f"{_prefix}<int:game_id>/", views.record, _lang_kwargs, name=f"game_{_lang}"),
        path(f"{_prefix}<int:game_id>/{_w['image']}", views.image, _lang_kwargs, name=f"image_{_lang}"),
        path(f"{_prefix}<int:game_id>/{_w['export']}/<slug:fmt>", views.export, _lang_kwargs, name=f"export_{_lang}"),
        path(f"{_prefix}<int:game_id>/{_w['continue']}", views.continue_game, _lang_kwargs, name=f"continue_{_lang}"),
        path(f"{_prefix}{_w['import']}", views.import_record, _lang_kwargs, name=f"import_{_lang}"),
        path(f"{_prefix}{_w['mine']}", views.my_games, _lang_kwargs, name=f"mine_{_lang}"),
    ]

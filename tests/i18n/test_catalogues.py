"""Issue 21: every language's catalogue translates every string the pages mark, with no
entry left untranslated or fuzzy, and the compiled catalogues shipped beside them (a
fresh install needs no gettext) say exactly what the catalogues say."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import django
import polib
import pytest
from django.conf import settings
from django.utils.translation import to_locale

from tests.servers import unavailable

pytestmark = pytest.mark.backend_free  # reads the project's files, touches no backend

ROOT = Path(__file__).resolve().parents[2]
APPS_WITH_CATALOGUES = ("tables", "roads")
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]")


def catalogue(app: str, language: str, suffix: str = "po") -> Path:
    return ROOT / app / "locale" / to_locale(language) / "LC_MESSAGES" / f"django.{suffix}"


CATALOGUES = [(app, language) for app in APPS_WITH_CATALOGUES for language in TRANSLATED]
IDS = [f"{app}-{language}" for app, language in CATALOGUES]


def entries(po: polib.POFile | polib.MOFile) -> dict[tuple[str | None, str], object]:
    return {
        (e.msgctxt, e.msgid): (e.msgstr_plural and dict(e.msgstr_plural)) or e.msgstr
        for e in po
        if not e.obsolete and e.msgid
    }


@pytest.mark.parametrize(("app", "language"), CATALOGUES, ids=IDS)
def test_every_entry_is_translated_and_none_is_fuzzy_or_obsolete(app: str, language: str) -> None:
    po = polib.pofile(str(catalogue(app, language)))
    assert len(po) > 0
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    assert [e.msgid for e in po.obsolete_entries()] == []


@pytest.mark.parametrize(("app", "language"), CATALOGUES, ids=IDS)
def test_a_translation_keeps_the_placeholders_of_its_english(app: str, language: str) -> None:
    wrong = []
    for e in polib.pofile(str(catalogue(app, language))):
        # One form in these languages: it stands for every count, so it keeps the plural's.
        wanted = set(PLACEHOLDER.findall(e.msgid_plural or e.msgid))
        for text in e.msgstr_plural.values() if e.msgstr_plural else [e.msgstr]:
            if set(PLACEHOLDER.findall(text)) != wanted:
                wrong.append((e.msgid, text))
    assert wrong == []


@pytest.mark.parametrize(("app", "language"), CATALOGUES, ids=IDS)
def test_the_shipped_compiled_catalogue_says_what_the_catalogue_says(app: str, language: str) -> None:
    compiled = catalogue(app, language, "mo")
    assert compiled.exists(), f"run manage.py compilemessages: {compiled} is missing"
    assert entries(polib.mofile(str(compiled))) == entries(polib.pofile(str(catalogue(app, language))))


def test_every_string_the_code_marks_is_in_every_catalogue(tmp_path: Path) -> None:
    """makemessages, run on a copy of the project, finds no string the catalogues lack
    (nor one they keep that the code no longer has)."""
    if shutil.which("xgettext") is None:
        unavailable("gettext is not installed (apt-get install gettext)")
    for part in ("config", "tables", "roads", "templates", "manage.py"):
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy(source, tmp_path / part)
    environment = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "DJANGO_SETTINGS_MODULE": "config.settings"}
    environment.pop("DATABASE_URL", None)
    environment.pop("REDIS_URL", None)
    command = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--no-location"]
    command += [f"--locale={to_locale(language)}" for language in TRANSLATED]
    subprocess.run(command, cwd=tmp_path, env=environment, check=True, capture_output=True)
    for app, language in CATALOGUES:
        found = {(e.msgctxt, e.msgid) for e in polib.pofile(str(tmp_path / catalogue(app, language).relative_to(ROOT)))}
        shipped = {(e.msgctxt, e.msgid) for e in polib.pofile(str(catalogue(app, language))) if not e.obsolete}
        assert sorted(found - shipped, key=str) == [], f"{app} {language}: run makemessages and translate"
        assert sorted(shipped - found, key=str) == [], f"{app} {language}: entries the code no longer has"


# The admin's words Django's own catalogues lack (tables/desk/admin/locale): every one of
# them, whole, and compiled as written.
DJANGO_ADMIN = Path(django.__file__).resolve().parent / "contrib" / "admin" / "locale"
ADMIN_LOCALE = ROOT / "tables" / "desk" / "admin" / "locale"
ADMIN_CATALOGUES = [(language, domain) for language in TRANSLATED for domain in ("django", "djangojs")]
ADMIN_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


def admin_wanted(language: str, domain: str) -> set[tuple[str | None, str]]:
    """What Django's admin says (its English catalogue lists it) and Django's catalogue
    for ``language`` leaves untranslated or lacks."""
    theirs = polib.pofile(str(DJANGO_ADMIN / to_locale(language) / "LC_MESSAGES" / f"{domain}.po"))
    theirs = {
        key: text
        for key, text in entries(theirs).items()
        if text and not (isinstance(text, dict) and not any(text.values()))
    }
    every = polib.pofile(str(DJANGO_ADMIN / "en" / "LC_MESSAGES" / f"{domain}.po"))
    return {(e.msgctxt, e.msgid) for e in every if e.msgid and not theirs.get((e.msgctxt, e.msgid))}


@pytest.mark.parametrize(("language", "domain"), ADMIN_CATALOGUES)
def test_the_admin_says_every_word_in_the_reviewers_language(language: str, domain: str) -> None:
    ours = ADMIN_LOCALE / to_locale(language) / "LC_MESSAGES" / f"{domain}.po"
    wanted = admin_wanted(language, domain)
    if not wanted:
        assert not ours.exists(), "no catalogue where Django's own says everything"
        return
    po = polib.pofile(str(ours))
    assert {(e.msgctxt, e.msgid) for e in po} == wanted
    assert [e.msgid for e in po.untranslated_entries()] == [] and [e.msgid for e in po.fuzzy_entries()] == []
    for e in po:
        for text in e.msgstr_plural.values() if e.msgstr_plural else [e.msgstr]:
            assert set(ADMIN_PLACEHOLDER.findall(text)) == set(ADMIN_PLACEHOLDER.findall(e.msgid)), e.msgid
    assert entries(polib.mofile(str(ours.with_suffix(".mo")))) == entries(po)

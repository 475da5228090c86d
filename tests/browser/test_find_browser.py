"""Finding a browser for these tests on a contributor's machine (no root, no Debian package)."""

from __future__ import annotations

import stat

import find_browser
import pytest

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs


def executable(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def isolate(monkeypatch, tmp_path):
    """No browser anywhere: an empty PATH and HOME, no override."""
    monkeypatch.delenv(find_browser.VARIABLE, raising=False)
    monkeypatch.delenv("PLAYWRIGHT_BROWSERS_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(find_browser, "APPLICATIONS", ())


def test_no_browser_anywhere_gives_none(monkeypatch, tmp_path):
    isolate(monkeypatch, tmp_path)
    assert find_browser.find_chromium() is None


def test_a_chrome_on_path_is_found(monkeypatch, tmp_path):
    isolate(monkeypatch, tmp_path)
    chrome = executable(tmp_path / "bin" / "google-chrome")
    assert find_browser.find_chromium() == str(chrome)


def test_playwrights_own_download_is_found(monkeypatch, tmp_path):
    isolate(monkeypatch, tmp_path)
    cache = tmp_path / "home" / ".cache" / "ms-playwright"
    chrome = executable(cache / "chromium-1234" / "chrome-linux" / "chrome")
    assert find_browser.find_chromium() == str(chrome)


def test_the_override_wins_and_a_wrong_override_finds_nothing(monkeypatch, tmp_path):
    isolate(monkeypatch, tmp_path)
    executable(tmp_path / "bin" / "chromium")
    chosen = executable(tmp_path / "elsewhere" / "my-chromium")
    monkeypatch.setenv(find_browser.VARIABLE, str(chosen))
    assert find_browser.find_chromium() == str(chosen)
    monkeypatch.setenv(find_browser.VARIABLE, str(tmp_path / "missing"))
    assert find_browser.find_chromium() is None

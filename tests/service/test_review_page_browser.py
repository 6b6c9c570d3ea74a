"""The review page in a real browser (Debian's headless Chromium, driven by Selenium) against `assistant serve`.

Clicks through what a person does: open a conversation, see what was learned and the words it came from,
correct a fact, forget an entity; then checks the graph and the transcripts through the API.
Screenshots go to $HEARTH_SCREENSHOT_DIR (docs/img for the README) or the test's temp dir.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service.serving import serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (scripts/setup.sh installs them: "
           "apt-get install chromium chromium-driver)")


@pytest.fixture
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM or ""
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=1200,1000", "--force-device-scale-factor=1"):
        opts.add_argument(a)
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=DRIVER))  # no driver download
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def _api(info: dict[str, Any], path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(str(info["url"]) + path, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class Page:
    def __init__(self, driver: Any, shots: Path) -> None:
        self.d, self.shots = driver, shots

    def ready(self) -> str:
        return str(self.d.execute_script("return document.body.dataset.ready || ''"))

    def wait_new(self, before: str) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.d, 15).until(lambda d: self.ready() not in ("", before))

    def go(self, url: str) -> None:
        before = self.ready() if self.d.current_url.startswith("http") else ""
        self.d.get(url)
        self.wait_new(before)

    def click(self, el: Any) -> None:
        before = self.ready()
        el.click()
        self.wait_new(before)

    def css(self, sel: str, root: Any = None) -> Any:
        from selenium.webdriver.common.by import By

        return (root or self.d).find_element(By.CSS_SELECTOR, sel)

    def all(self, sel: str, root: Any = None) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list((root or self.d).find_elements(By.CSS_SELECTOR, sel))

    def shot(self, name: str) -> None:
        """The whole page, not just the window."""
        height = int(self.d.execute_script("return document.documentElement.scrollHeight"))
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1200, "height": max(600, min(height, 3000)), "deviceScaleFactor": 1, "mobile": False})
        self.shots.mkdir(parents=True, exist_ok=True)
        assert self.d.save_screenshot(str(self.shots / f"{name}.png"))
        self.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def change_item(page: Page, relation: str, obj: str) -> Any:
    for li in page.all("li.change"):
        if page.css(".rel", li).text == relation and obj in li.text:
            return li
    raise AssertionError(f"no learned {relation} {obj}")


def test_review_page_click_through(data_dir: Path, config_file: Path, tmp_path: Path, browser: Any) -> None:
    shots = Path(os.environ.get("HEARTH_SCREENSHOT_DIR") or tmp_path / "shots")
    page = Page(browser, shots)
    with serving(data_dir, config_file) as info:
        base = str(info["url"])
        # conversations, newest first, with search
        page.go(base + "/")
        assert [a.text for a in page.all("a.conv-link")] == ["c3", "c2", "c1"]
        page.shot("review-conversations")
        box = page.css("form.filters input[name=q]")
        box.send_keys("Utrecht")
        page.click(page.css("form.filters button[type=submit]"))
        assert [a.text for a in page.all("a.conv-link")] == ["c2"]
        page.go(base + "/#/?speaker=maria")
        assert [a.text for a in page.all("a.conv-link")] == ["c3"]
        page.go(base + "/#/?since=2026-01-05&until=2026-04-02")  # "to" includes the day
        assert [a.text for a in page.all("a.conv-link")] == ["c2", "c1"]
        page.go(base + "/#/?offset=1")  # paging: one newer conversation above this page
        assert [a.text for a in page.all("a.conv-link")] == ["c2", "c1"]
        assert [a.text for a in page.all("a.pager")] == ["← newer"]

        # a conversation: the turns, what was learned and the words it came from; a spoken <script> is text
        page.go(base + "/#/c/c3")
        said = page.css("p.said").text
        assert said.startswith("I said <script>window.pwned=1</script><img src=x onerror=")
        assert browser.execute_script("return window.pwned === undefined")
        assert page.all("main script") == [] and page.all("main img") == []
        porto = change_item(page, "lives_in", "Porto")
        assert page.css("blockquote.evidence", porto).text == "My sister Anna lives in Porto."
        assert page.css(".badge", porto).text == "added"
        page.shot("review-conversation")

        # correct a fact: Anna lives in Braga, not Porto (confirmation first)
        page.css("button.act-correct", porto).click()
        page.css("input.correct-value", porto).send_keys("Braga")
        assert _api(info, "/api/entities/Anna")[1]["facts"][-1]["status"] == "current"  # nothing yet
        page.click(page.css("button.confirm-yes", porto))
        assert "Corrected: Anna lives_in Braga (was Porto)" in page.css(".flash").text
        porto = change_item(page, "lives_in", "Porto")
        assert "retracted" in [b.text for b in page.all(".badge", porto)]

        # the entity page: current facts, weight plot, history timeline with the correction
        page.click(page.css("a.entity", porto))
        assert page.css("h1").text.startswith("Anna")
        current = [r.text for r in page.all("table.facts tr.fact")]
        assert any("lives_in Braga" in t for t in current) and not any("lives_in Porto" in t for t in current)
        assert len(page.all("svg.weight-plot polyline")) == len(current)
        assert len(page.all("svg.timeline rect.tl-bar.status-retracted")) == 1
        assert any("retracted (corrected)" in li.text and "Porto" in li.text for li in page.all("ol.history li"))
        page.shot("review-entity")

        # mark a fact no longer true (Cancel first: nothing happens), then forget one
        row = next(r for r in page.all("table.facts tr.fact") if "sister_of" in r.text)
        page.css("button.act-end", row).click()
        page.css("button.confirm-no", row).click()
        assert page.all("button.confirm-yes", row) == [] and page.css("button.act-end", row)
        page.css("button.act-end", row).click()
        page.click(page.css("button.confirm-yes", row))
        assert "Marked no longer true: Anna sister_of Maria" in page.css(".flash").text
        assert any("ended" in li.text and "sister_of Maria" in li.text for li in page.all("ol.history li"))
        row = next(r for r in page.all("table.facts tr.fact") if "Braga" in r.text)
        page.css("button.act-forget-fact", row).click()
        page.click(page.css("button.confirm-yes", row))
        assert "Forgot: Anna lives_in Braga" in page.css(".flash").text
        assert not any("Braga" in li.text for li in page.all("ol.history li"))

        # an unknown entity: the error with its code and hint, no crash
        page.go(base + "/#/e/Nobody")
        assert "[not_found] nothing in memory is called 'Nobody'" in page.css(".error").text

        # forget an entity: Felix, from the conversation where he moved
        page.go(base + "/#/c/c2")
        page.click(page.css("li.change a.entity"))
        assert page.css("h1").text.startswith("Felix")
        assert len(page.all("svg.timeline rect.tl-bar.status-ended")) == 1  # Ghent, until he moved
        page.shot("review-entity-history")
        page.css("button.act-forget-entity").click()
        page.click(page.css("button.confirm-yes"))
        assert "Forgot Felix: 4 fact(s) deleted." in page.css(".flash").text
        assert "Felix" not in [a.text for a in page.all("table.entities a.entity")]
        page.shot("review-memory")

        # the graph and the transcripts, through the API
        code, body = _api(info, "/api/entities/Felix")
        assert code == 404 and body["error"]["code"] == "not_found"
        assert _api(info, "/api/conversations/c2")[1]["changes"] == []
        assert [t["text"] for t in _api(info, "/api/conversations/c2")[1]["turns"]] == [
            "[forgotten] moved to Utrecht last week."]  # forgetting someone takes their name out of what was said
        anna = _api(info, "/api/entities/Anna")[1]["facts"]
        assert {(f["relation"], f["object"], f["status"]) for f in anna} == {
            ("lives_in", "Porto", "retracted"), ("sister_of", "Maria", "ended")}  # Braga was forgotten
        c3 = _api(info, "/api/conversations/c3")[1]["changes"]
        assert {c["object"]: c["arc"]["status"] for c in c3} == {"Maria": "ended", "Porto": "retracted"}


def test_undo_a_merge_and_the_last_correction(data_dir: Path, config_file: Path, tmp_path: Path,
                                              browser: Any) -> None:
    from assistant.cli import main

    shots = Path(os.environ.get("HEARTH_SCREENSHOT_DIR") or tmp_path / "shots")
    page = Page(browser, shots)
    cli = ["--config", str(config_file), "--data-dir", str(data_dir)]
    assert main([*cli, "memory", "add", "my brother", "likes", "chess"]) == 0
    assert main([*cli, "consolidate"]) == 0  # "my brother" is Felix, the brother named in c1
    with serving(data_dir, config_file) as info:
        base = str(info["url"])
        page.go(base + "/#/consolidation")
        merge = page.css("li.merge")
        assert "my brother" in merge.text and "Felix" in merge.text
        assert "'my brother' was learned before a name: Felix holds brother_of toward the user" in merge.text
        page.shot("review-consolidation")
        page.css("button.act-undo-merge", merge).click()
        page.click(page.css("button.confirm-yes", merge))
        assert "Undid the merge: my brother and Felix are two again." in page.css(".flash").text
        assert "undone" in page.css("li.merge").text and page.all("button.act-undo-merge") == []
        assert _api(info, "/api/entities/my%20brother")[1]["entity"]["name"] == "my brother"

        # a correction, then its undo from the Memory page
        page.go(base + "/#/e/Anna")
        row = next(r for r in page.all("table.facts tr.fact") if "Porto" in r.text)
        page.css("button.act-correct", row).click()
        page.css("input.correct-value", row).send_keys("Braga")
        page.click(page.css("button.confirm-yes", row))
        page.go(base + "/#/entities")
        last = page.css(".last-correction")
        assert "Anna lives_in Porto → lives_in Braga" in last.text
        page.css("button.act-undo-correction", last).click()
        page.click(page.css("button.confirm-yes", last))
        assert "Undid the correction: Anna lives_in Porto → lives_in Braga" in page.css(".flash").text
        assert page.all(".last-correction") == []
        anna = _api(info, "/api/entities/Anna")[1]["facts"]
        assert {(f["object"], f["status"]) for f in anna if f["relation"] == "lives_in"} == {
            ("Porto", "current"), ("Braga", "retracted")}

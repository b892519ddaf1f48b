#!/usr/bin/python3
"""Drives the koordq console in headless Chromium (Debian's chromium + chromium-driver, through
python3-selenium) and compares what the page shows with what the CLI prints for the same revision.

Usage: console_browser.py KOORDQ CONSOLE_URL JOURNAL_DIR SCRATCH [--moving] [--follow] [--huge] [--quarantine]
  --moving      the journal is being written (a revision after the head may be the head of later)
  --follow      also check that "follow the head" moves the view as the journal grows
  --huge        instead: a journal of scripts/make-watch-events.py (lists cut, searches, one diff request)
  --quarantine  instead: quarantine the journal under the page (a serve finds it without HEAD)
Prints one line per check (`ok <what>` / `FAIL <what>: <why>`) and exits 1 when any failed.
Screenshots go to SCRATCH/console-*.png.
"""
import json
import os
import re
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

koordq, base, journal, scratch = sys.argv[1:5]
moving = "--moving" in sys.argv or "--follow" in sys.argv
follow_check = "--follow" in sys.argv
huge_check = "--huge" in sys.argv
quarantine_check = "--quarantine" in sys.argv
failures = 0


def check(what, ok, why=""):
    global failures
    if ok:
        print("ok", what)
    else:
        failures += 1
        print("FAIL", what + (": " + why if why else ""))


def cli(*args):
    out = subprocess.run([koordq, *args, "--journal-dir", journal], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + out.stderr.strip())
    return json.loads(out.stdout)


def wait(condition, timeout=30, what="condition"):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as e:  # the page is re-rendering: try again
            last = e
        time.sleep(0.1)
    raise TimeoutError(what + (" (" + str(last) + ")" if last else ""))


options = Options()
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1800",
             "--user-data-dir=" + scratch + "/chromium-profile"):
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def text(element_id):
    return driver.find_element(By.ID, element_id).text


def press(by, selector, keys):
    """Finds the element and sends it `keys`, in one try (wait() tries again when the page re-rendered
    it in between)."""
    driver.find_element(by, selector).send_keys(keys)
    return True


def shown_revision():
    return int(driver.find_element(By.ID, "scrubber").get_attribute("value"))


def rendered_at(revision):
    """The page has rendered `revision`: the instant line and the quota table name it."""
    return ("revision %d" % revision) in text("instant") and driver.find_elements(
        By.CSS_SELECTOR, "#quota-tree table[aria-label='Quota tree at revision %d']" % revision)


def page_quota_used():
    # Read again when the page re-renders the table while it is being read (a one-tuple is truthy).
    return wait(lambda: (read_quota_used(),), what="the quota table")[0]


def read_quota_used():
    used = {}
    for row in driver.find_elements(By.CSS_SELECTOR, "#quota-tree tr[data-quota]"):
        resource = row.get_attribute("data-resource")
        if resource:
            used[(row.get_attribute("data-quota"), resource)] = row.find_element(By.CSS_SELECTOR, ".used-value").text
    return used


def cli_quota_used(revision):
    used = {}
    for q in cli("at", "rev:%d" % revision, "quotas", "-o", "json")["items"]:
        for resource in set(q.get("max", {})) | set(q.get("used", {})):
            used[(q["metadata"]["name"], resource)] = q.get("used", {}).get(resource, "0")
    return used


def page_units(queue):
    # Read again when the page re-renders the table while it is being read (a one-tuple is truthy).
    return wait(lambda: (read_units(queue),), what="the units of queue " + queue)[0]


def read_units(queue):
    rows = wait(lambda: driver.find_elements(By.CSS_SELECTOR, "details[data-queue='%s'] tr[data-unit-row]" % queue)
                or driver.find_elements(By.XPATH, "//details[@data-queue='%s']//p[text()='no units']" % queue),
                what="the units of queue " + queue)
    units = {}
    for row in rows:
        if row.tag_name != "tr":
            return {}
        units[row.get_attribute("data-unit-row")] = (row.find_element(By.CSS_SELECTOR, ".phase").text,
                                                     row.find_element(By.CSS_SELECTOR, ".position").text)
    return units


def cli_units(revision, queue):
    units = {}
    for u in cli("at", "rev:%d" % revision, "queue", queue, "-o", "json")["items"]:
        position = u.get("positionInQueue")
        units[u["metadata"]["namespace"] + "/" + u["metadata"]["name"]] = (
            u["phase"], "" if position is None else str(position))
    return units


def standard_checks():
    stat = subprocess.run([koordq, "journal", "stat", "--journal-dir", journal, "-o", "json"], capture_output=True,
                          text=True, timeout=60)
    head = json.loads(stat.stdout)["records"]
    revision = max(2, head * 2 // 3)

    # Scrubbing to a revision shows what `koordq at rev:N` prints.
    driver.get(base + "?revision=%d" % revision)
    wait(lambda: rendered_at(revision), what="revision %d rendered" % revision)
    check("the page opens at the revision its URL names", shown_revision() == revision)
    page, expected = page_quota_used(), cli_quota_used(revision)
    check("quota usage equals `koordq at rev:%d quotas`" % revision, page == expected,
          "page %s, cli %s" % (sorted(page.items())[:4], sorted(expected.items())[:4]))

    queues = cli("at", "rev:%d" % revision, "queues", "-o", "json")["items"]
    busiest = max(queues, key=lambda q: sum(q.get("phaseCounts", {}).values()))["metadata"]["name"]
    wait(lambda: press(By.CSS_SELECTOR, "details[data-queue='%s'] summary" % busiest, Keys.ENTER),
         what="opening queue " + busiest)  # keyboard only
    page_q, cli_q = page_units(busiest), cli_units(revision, busiest)
    check("queue %s's units, phases and positions equal `koordq at rev:%d queue %s`" % (busiest, revision, busiest),
          page_q == cli_q and len(cli_q) > 0, "page %d units, cli %d" % (len(page_q), len(cli_q)))
    check("the URL carries the open queue", "queue=" + busiest in driver.current_url, driver.current_url)

    # A unit's story, as `koordq explain --at rev:N -o json` tells it.
    unit = sorted(cli_q)[0]
    wait(lambda: press(By.CSS_SELECTOR, "a[data-unit='%s']" % unit, Keys.ENTER), what="opening unit " + unit)
    story = cli("explain", unit, "--at", "rev:%d" % revision, "-o", "json")
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#story li")) == len(story["entries"]),
         what="the story of " + unit)
    seqs = wait(lambda: [int(li.get_attribute("data-seq")) for li in driver.find_elements(By.CSS_SELECTOR, "#story li")],
                what="the story's records")
    check("the story of %s lists the records `koordq explain` lists" % unit,
          seqs == [e["seq"] for e in story["entries"]], "page %s, cli %s" % (seqs[:5], [e["seq"] for e in story["entries"]][:5]))
    first_line = wait(lambda: driver.find_element(By.CSS_SELECTOR, "#story li").text, what="the story's first line")
    check("each story line carries explain's summary", story["entries"][0]["summary"] in first_line, first_line)
    driver.save_screenshot(scratch + "/console-revision.png")

    # A deep link restores the view: reload the URL the page wrote.
    url = driver.current_url
    check("the URL carries the unit", "unit=" in url, url)
    driver.get(url)
    wait(lambda: rendered_at(revision), what="the reloaded view")
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "details[data-queue='%s'][open] tr[data-unit-row]" % busiest),
         what="the queue open again")
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#story li")) == len(story["entries"]), what="the story again")
    check("a deep link restores the revision, the open queue and the unit", shown_revision() == revision)

    # Stepping to the next decision: the next round with decisions after the revision.
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys("n")
    wait(lambda: shown_revision() != revision, what="a step forward")
    stepped = shown_revision()
    export = subprocess.run([koordq, "journal", "export", "--journal-dir", journal, "--from", "rev:%d" % (revision + 1),
                             "--to", "rev:%d" % stepped], capture_output=True, text=True, timeout=120).stdout
    lines = [json.loads(line) for line in export.splitlines() if line.startswith('{"seq"')]
    decided = [r["seq"] for r in lines if r["kind"] == "round" and r["body"]["round"].get("decisions")]
    check("n steps to the next round with decisions", decided == [stepped], "stepped to %d, rounds with decisions %s"
          % (stepped, decided[:5]))
    check("n steps to a later revision", stepped > revision)
    wait(lambda: rendered_at(stepped), what="revision %d rendered" % stepped)
    check("the step lands on a revision whose quotas the CLI confirms", page_quota_used() == cli_quota_used(stepped))
    body.send_keys("p")
    wait(lambda: shown_revision() < stepped, what="a step back")
    check("p steps back before it", shown_revision() < stepped)

    # The difference between two instants.
    driver.get(base + "?revision=%d&compare=%d" % (revision, max(1, revision // 2)))
    wait(lambda: "from revision" in text("diff-body"), what="the difference")
    check("the difference panel lists admitted, left, moved and quota changes",
          all(word in text("diff-body") for word in ("admitted", "left", "moved", "quota changes")))

    # Bad input: a clear message, never a blank page.
    driver.get(base + "?revision=%d" % (head + 1000000))
    wait(lambda: "newer than" in text("status"), what="the message for a revision after the head")
    check("a revision after the head is named in the page and the head is shown",
          shown_revision() == head or moving, text("status"))
    driver.get(base + "?at=1999-01-01T00:00:00Z")
    wait(lambda: "older than" in text("status"), what="the message for a time before the journal")
    check("a time before the journal is named in the page", True)
    driver.get(base + "?revision=%d&unit=nosuch/unit" % revision)
    wait(lambda: "not found" in text("unit-details"), what="the message for an unknown unit")
    check("an unknown unit is named in the page", "nosuch/unit" in text("unit-details"), text("unit-details"))
    driver.get(base + "?revision=abc")
    wait(lambda: "invalid revision" in text("status"), what="the message for a malformed revision")
    check("a malformed revision is named in the page", True)

    if moving:
        driver.get(base)
        wait(lambda: text("journal").startswith("live"), what="the live header")
        check("a running serve's console says it is live", True)
    if follow_check:
        wait(lambda: press(By.ID, "follow", " "), what="ticking follow")
        first = shown_revision()
        wait(lambda: shown_revision() > first, timeout=30, what="following the head")
        check("following the head moves the view as the journal grows", shown_revision() > first)

    driver.save_screenshot(scratch + "/console-end.png")
    # Dark scheme renders too (emulated): the page keeps its panels.
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    driver.get(base + "?revision=%d" % revision)
    wait(lambda: rendered_at(revision), what="the dark page")
    driver.save_screenshot(scratch + "/console-dark.png")
    background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    check("the dark scheme is dark", background in ("rgb(13, 17, 23)",), background)

    labelled = driver.execute_script("""
      return [...document.querySelectorAll('input, select, button')].filter(e =>
        !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).map(e => e.id);""")
    check("every control is labelled", labelled == [], str(labelled))

    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]
              and " 400 " not in e["message"] and " 404 " not in e["message"]]
    check("no errors in the browser console", not errors, str(errors[:3]))

def browser_errors():
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]
            and " 400 " not in e["message"] and " 404 " not in e["message"]]


def requests_named(part):
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes(arguments[0])).length", part)


def cut_note(container):
    notes = driver.find_elements(By.CSS_SELECTOR, "#%s .cut" % container)
    return notes[0].text if notes else ""


def submit_search(input_id, value):
    box = driver.find_element(By.ID, input_id)
    box.clear()
    box.send_keys(value, Keys.ENTER)


def huge_checks():
    """A journal of a huge tree (made by scripts/make-watch-events.py): every list is cut and says
    so, a queue, a quota and a unit are found by name on the server, the difference is one request."""
    head = json.loads(subprocess.run([koordq, "journal", "stat", "--journal-dir", journal, "-o", "json"],
                                     capture_output=True, text=True, timeout=60).stdout)["records"]
    started = time.time()
    driver.get(base + "?revision=%d" % head)
    wait(lambda: rendered_at(head), timeout=90, what="the head of the huge journal rendered")
    print("  first render of revision %d: %.1f s" % (head, time.time() - started))
    check("the quota tree says how many quotas it does not show", "not shown" in cut_note("quota-tree"),
          cut_note("quota-tree"))
    rows = driver.find_elements(By.CSS_SELECTOR, "#quota-tree tr[data-quota]")
    names = [r.get_attribute("data-quota") for r in rows]
    check("the tree is cut from the top: the root and every department are shown",
          "org" in names and any(n.startswith("dept-") for n in names) and len(set(names)) <= 500, str(len(set(names))))
    expected = cli_quota_used(head)
    shown = {k: v for k, v in page_quota_used().items() if k in expected}
    check("the shown quotas' usage equals `koordq at rev:%d quotas`" % head,
          len(shown) > 0 and all(expected[k] == v for k, v in shown.items()), str(list(shown.items())[:3]))
    check("the queue list says how many queues it does not show", "not shown" in cut_note("queue-list"),
          cut_note("queue-list"))

    submit_search("queue-match", "team-00007")
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "details[data-queue]") and all(
        "team-00007" in d.get_attribute("data-queue") for d in driver.find_elements(By.CSS_SELECTOR, "details[data-queue]")),
        what="the queues named like team-00007")
    check("finding a queue by name lists only the queues named like it",
          [d.get_attribute("data-queue") for d in driver.find_elements(By.CSS_SELECTOR, "details[data-queue]")][0] == "team-00007")

    submit_search("queue-match", "team-00000")
    summary = wait(lambda: driver.find_element(By.CSS_SELECTOR, "details[data-queue='team-00000'] summary"))
    summary.send_keys(Keys.ENTER)
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "details[data-queue='team-00000'] tr[data-unit-row]"),
         what="the units of the big queue")
    check("the big queue's units say how many are not shown", "not shown" in cut_note("queue-list"), cut_note("queue-list"))
    submit_search("units-match-team-00000", "job-000124")
    wait(lambda: [r.get_attribute("data-unit-row") for r in driver.find_elements(
        By.CSS_SELECTOR, "details[data-queue='team-00000'] tr[data-unit-row]")] == ["ns-24/job-000124"],
        what="the unit found in the big queue")
    page_q = page_units("team-00000")
    cli_q = {k: v for k, v in cli_units(head, "team-00000").items() if k == "ns-24/job-000124"}
    check("a unit found in its queue shows the phase and position `koordq at` prints", page_q == cli_q,
          "page %s, cli %s" % (page_q, cli_q))

    submit_search("quota-match", "team-00042")
    wait(lambda: "team-00042" in [r.get_attribute("data-quota") for r in driver.find_elements(
        By.CSS_SELECTOR, "#quota-tree tr[data-quota]")], what="the quota found by name")
    found = sorted(set(r.get_attribute("data-quota") for r in driver.find_elements(By.CSS_SELECTOR, "#quota-tree tr[data-quota]")))
    check("finding a quota shows its branch: the quota and its ancestors", found == ["dept-%03d" % (42 % 20), "org", "team-00042"],
          str(found))

    driver.find_element(By.ID, "unit-name").send_keys("job-00")
    driver.find_element(By.ID, "unit-find").send_keys(Keys.ENTER)
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#unit-matches a[data-found]"), what="the units found by name")
    check("finding units by part of the name lists them and says how many are not shown",
          len(driver.find_elements(By.CSS_SELECTOR, "#unit-matches a[data-found]")) == 200
          and "not shown" in cut_note("unit-matches"), cut_note("unit-matches"))
    found_unit = driver.find_element(By.CSS_SELECTOR, "#unit-matches a[data-found]")
    key = found_unit.get_attribute("data-found")
    found_unit.send_keys(Keys.ENTER)
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#story li"), what="the story of a found unit")
    check("a found unit's story is shown and the URL names it", "unit=" + key.replace("/", "%2F") in driver.current_url,
          driver.current_url)
    driver.save_screenshot(scratch + "/console-huge.png")

    compare = max(1, head - 300)
    driver.get(base + "?revision=%d&compare=%d" % (head, compare))
    wait(lambda: "from revision" in text("diff-body"), timeout=90, what="the difference of the huge journal")
    check("the difference is one request, not one per queue",
          requests_named("api/diff") == 1 and requests_named("object=queue&") == 0,
          "diff %d, per queue %d" % (requests_named("api/diff"), requests_named("object=queue&")))
    moved = re.search(r"moved \((\d+)\)", text("diff-body"))
    check("the difference names the units moved by the priorities changed between the two revisions",
          moved is not None and int(moved.group(1)) > 0, text("diff-body")[:200])
    driver.save_screenshot(scratch + "/console-huge-diff.png")
    errors = browser_errors()
    check("no errors in the browser console", not errors, str(errors[:3]))


def quarantine_checks():
    """The journal is quarantined while the page reads it: a serve finds it corrupt (no HEAD beside
    its records), moves it aside and starts a new one in its place."""
    head = json.loads(subprocess.run([koordq, "journal", "stat", "--journal-dir", journal, "-o", "json"],
                                     capture_output=True, text=True, timeout=60).stdout)["records"]
    revision = max(1, head // 2)
    driver.get(base + "?revision=%d" % revision)
    wait(lambda: rendered_at(revision), what="revision %d rendered" % revision)
    os.remove(os.path.join(journal, "HEAD"))
    serve = subprocess.run([koordq, "serve", "--simulate", "--simulate-clock", "virtual", "--simulate-duration", "5s",
                            "--journal-dir", journal, "--metrics-bind-address", "127.0.0.1:0", "--api-handler-port", "0"],
                           cwd=scratch, capture_output=True, text=True, timeout=120)
    check("a serve quarantines the journal without HEAD", "quarantin" in serve.stderr + serve.stdout,
          (serve.stderr + serve.stdout)[-300:])
    wait(lambda: "quarantined to" in text("moved"), timeout=20, what="the page saying the journal was quarantined")
    check("the page says the journal was quarantined and where it went", journal + ".quarantined-" in text("moved"),
          text("moved"))
    driver.find_element(By.TAG_NAME, "body").send_keys("n")
    time.sleep(1.5)
    check("the page stays usable: it still shows an instant and a message, not a blank page",
          bool(driver.find_elements(By.CSS_SELECTOR, "#quota-tree table")) and text("moved") != "", text("status"))
    driver.get(base)
    wait(lambda: "quarantined to" in text("moved"), what="the message after a reload")
    check("a reload says it again", True)
    driver.save_screenshot(scratch + "/console-quarantined.png")
    errors = browser_errors()
    check("no errors in the browser console", not errors, str(errors[:3]))
try:
    if huge_check:
        huge_checks()
    elif quarantine_check:
        quarantine_checks()
    else:
        standard_checks()
except Exception as e:  # a timeout or a driver error is a failed check, with the page saved
    check("the console run", False, "%s: %s" % (type(e).__name__, e))
    try:
        driver.save_screenshot(scratch + "/console-failure.png")
        print("status:", text("status"))
    except Exception:
        pass
finally:
    driver.quit()

sys.exit(1 if failures else 0)

"""Printing HTML files to PDF with headless Chromium, and joining PDFs.

- ``print_pdfs(jobs)``: each (html, pdf) pair printed by one Chromium session
  driven by selenium (its Chrome DevTools command ``Page.printToPDF``; the page's
  own CSS ``@page`` rules set the paper, the margins and the printed header and
  footer). A PDF whose recorded source
  (the SHA-256 of its HTML, kept in the PDF's metadata) matches the HTML is left
  as it is, so a re-run prints only the letters that changed. Letters of one folder
  without scripts are loaded into the open page (``Page.setDocumentContent``) instead
  of navigated to, which is slower; each PDF is stamped and written by a second thread
  while Chromium prints the next.
- ``warm()``: start the Chromium session in the background before the letters are
  ready (``outfall run`` does when the steps the letters come from start), so that
  ``print_pdfs`` finds it running; ``cool()`` closes it if nothing used it.
- Chromium and chromedriver run in their own process group, watched by a small
  process that ends the group when the process that started them is gone (a run
  killed with ``kill -9`` leaves no browser behind).
- ``join_pdfs(parts, out)``: one PDF of the parts in the given order (pypdf), a
  bookmark per part: the batch a clerk prints and mails.
- No Chromium: nothing is printed, and ``PrintReport.unavailable`` says in one
  plain line what to install (``CHROMIUM_HINT``); the caller carries on with
  the HTML.

Chromium and chromedriver are found at OUTFALL_CHROMIUM / OUTFALL_CHROMEDRIVER,
else on PATH (Debian's ``chromium`` and ``chromium-driver`` packages, which
``scripts/install-chromium.sh`` installs).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from outfall.atomic import sweep_stale, write_atomic

CHROMIUM_HINT = (
    "letters written as HTML only: PDFs need Chromium (install the chromium and chromium-driver "
    "packages: scripts/install-chromium.sh)"
)
SOURCE_KEY = "/OutfallSource"  # PDF metadata: sha256 of the HTML it was printed from
RENDERER = "outfall-pdf-1"  # part of the recorded source: a change of print settings reprints everything
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--window-size=1100,1400",
)
PAGE_TIMEOUT_S = 120
# How long any one command may wait for chromedriver's answer. Selenium's own default is no limit:
# a Chromium that stops answering would stop the run with it. Longer than a page may take to load
# or print.
COMMAND_TIMEOUT_S = PAGE_TIMEOUT_S + 60
# How long close() waits for the watchdog to end once asked (SIGTERM) before ending it outright
# (SIGKILL): a watchdog can outlive the signal, and close() must not wait on it for ever.
WATCHDOG_STOP_S = 5
# The watchdog of one Chromium session: when the process that started it is gone (killed outright),
# it ends the session's process group (chromedriver and every Chromium process) and removes the
# session's profile folder. argv: the starter's pid, the process group, the profile folder.
WATCHDOG = (
    "import os, shutil, signal, sys, time\n"
    "parent, group, profile = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]\n"
    "signal.signal(signal.SIGTERM, lambda *_: os._exit(0))\n"
    "while os.getppid() == parent:\n"
    "    time.sleep(0.5)\n"
    "try:\n"
    "    os.killpg(group, signal.SIGKILL)\n"
    "except OSError:\n"
    "    pass\n"
    "shutil.rmtree(profile, ignore_errors=True)\n"
)


class PdfError(RuntimeError):
    """A file that could not be printed or joined."""


@dataclass(frozen=True)
class Browser:
    chromium: Path
    chromedriver: Path


def find_browser() -> Browser | None:
    """Chromium and chromedriver, or None when either is missing."""
    chromium = os.environ.get("OUTFALL_CHROMIUM") or next(
        (p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None
    )
    driver = os.environ.get("OUTFALL_CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not driver or not Path(chromium).exists() or not Path(driver).exists():
        return None
    return Browser(Path(chromium), Path(driver))


def source_digest(html_path: Path) -> str:
    """What a PDF records of the HTML it was printed from."""
    digest = hashlib.sha256(RENDERER.encode())
    digest.update(Path(html_path).read_bytes())
    return digest.hexdigest()


def recorded_source(pdf_path: Path) -> str | None:
    """The source digest a PDF printed here records (None: not one of ours, or unreadable)."""
    from pypdf import PdfReader

    try:
        meta = PdfReader(str(pdf_path)).metadata
    except Exception:  # noqa: BLE001 - a damaged or foreign PDF is simply printed again
        return None
    value = meta.get(SOURCE_KEY) if meta else None
    return str(value) if value else None


def _stamp(pdf: bytes, source: str) -> bytes:
    """The PDF with its source digest in the metadata (Chromium's own metadata kept)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.add_metadata({SOURCE_KEY: source})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@dataclass
class PrintReport:
    """What ``print_pdfs`` did, and how long it took."""

    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)  # (html, why)
    unavailable: str | None = None  # one plain line when nothing could be printed
    browser_start_s: float = 0.0
    printing_s: float = 0.0

    @property
    def seconds_per_pdf(self) -> float | None:
        return self.printing_s / len(self.written) if self.written else None

    def summary(self) -> str:
        if self.unavailable:
            return self.unavailable
        text = f"{len(self.written)} PDFs printed, {len(self.unchanged)} unchanged"
        if self.written:
            text += f" (browser start {self.browser_start_s:.1f} s, {self.seconds_per_pdf:.2f} s per PDF)"
        if self.failed:
            text += f"; {len(self.failed)} could not be printed: " + "; ".join(
                f"{p.name}: {why}" for p, why in self.failed[:3]
            )
        return text


class PdfPrinter:
    """One headless Chromium session that prints many HTML files (started at the first one)."""

    def __init__(self, browser: Browser | None = None):
        self.browser = browser or find_browser()
        self._driver = None
        self._profile: str | None = None
        self._watchdog: subprocess.Popen | None = None
        self._folder: str | None = None  # the folder of the page open now, when a letter may replace it
        self._frame: str | None = None  # that page's frame (Chrome DevTools)
        self._group: int | None = None  # the process group of chromedriver and its Chromium
        self._service = None  # selenium's chromedriver service (its process is ours)
        self.start_s = 0.0

    def __enter__(self) -> PdfPrinter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def available(self) -> bool:
        return self.browser is not None

    @property
    def started(self) -> bool:
        return self._driver is not None

    def _start(self):
        if self._driver is not None:
            return self._driver
        if self.browser is None:
            raise PdfError(CHROMIUM_HINT)
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service

        started = time.perf_counter()
        self._profile = tempfile.mkdtemp(prefix="outfall-pdf-")
        options = webdriver.ChromeOptions()
        options.binary_location = str(self.browser.chromium)
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self._profile}")
        # chromedriver, and the Chromium it starts, in a process group of their own: Ctrl-C at the
        # terminal does not reach them (close() ends them), and the watchdog can end them all.
        service = Service(str(self.browser.chromedriver), popen_kw={"start_new_session": True})
        try:
            self._driver = webdriver.Chrome(options=options, service=service)
        except WebDriverException as exc:
            shutil.rmtree(self._profile, ignore_errors=True)
            first = (
                (exc.msg or str(exc)).strip().splitlines()[0] if (exc.msg or str(exc)) else "no reason given"
            )
            raise PdfError(f"Chromium did not start: {first}") from None
        self._service = service
        self._group = os.getpgid(service.process.pid) if getattr(service, "process", None) else None
        self._watch(service)
        self._driver.command_executor.client_config.timeout = COMMAND_TIMEOUT_S
        self._driver.set_page_load_timeout(PAGE_TIMEOUT_S)
        self._driver.set_script_timeout(PAGE_TIMEOUT_S)
        self.start_s = time.perf_counter() - started
        return self._driver

    def _watch(self, service) -> None:
        process = getattr(service, "process", None)
        if process is None:  # pragma: no cover - a selenium that starts no local service
            return
        try:
            self._watchdog = subprocess.Popen(
                [
                    sys.executable,
                    "-S",
                    "-c",
                    WATCHDOG,
                    str(os.getpid()),
                    str(os.getpgid(process.pid)),
                    str(self._profile),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:  # pragma: no cover - without it only a killed run's cleanup is lost
            self._watchdog = None

    def _load(self, html_path: Path) -> None:
        """Open ``html_path``: into the open page when it comes from the same folder and has no
        scripts (nothing of the page before can then act on it: same base for relative links, no
        script state), else by navigating to it."""
        driver = self._driver
        uri = Path(html_path).resolve().as_uri()
        folder = uri.rsplit("/", 1)[0]
        data = Path(html_path).read_bytes()
        scripted = b"<script" in data.lower()
        if self._folder == folder and self._frame and not scripted:
            try:
                html = data.decode("utf-8")
            except UnicodeDecodeError:
                html = None
            if html is not None:
                driver.execute_cdp_cmd("Page.setDocumentContent", {"frameId": self._frame, "html": html})
                return
        driver.get(uri)
        self._folder, self._frame = None, None
        if not scripted:
            self._frame = driver.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"]["frame"]["id"]
            self._folder = folder

    def pdf_bytes(self, html_path: Path) -> bytes:
        """The PDF of one HTML file, as its own CSS lays it out for print.

        A page with charts drawn on demand (the dashboards' ``window.outfallPrepareForPrint``)
        has every chart drawn, as wide as the paper, first. Printed through selenium's Chrome
        DevTools command (``Page.printToPDF``, the engine behind ``print_page``): chromedriver's
        ``print_page`` gives up on a page that takes Chromium more than 10 s to lay out (the demo's
        sewer page, 78 pages with 40 charts), the DevTools command waits for it."""
        import urllib3

        driver = self._start()
        try:
            return self._print(driver, html_path)
        except urllib3.exceptions.HTTPError:
            # chromedriver did not answer in COMMAND_TIMEOUT_S: the session is ended, and nothing
            # more is printed in this run (the letters stay as HTML)
            self._kill()
            raise PdfError(f"Chromium did not answer within {COMMAND_TIMEOUT_S} s and was stopped") from None

    def _print(self, driver, html_path: Path) -> bytes:
        self._load(html_path)
        driver.execute_async_script(
            "var done=arguments[arguments.length-1];var "
            "prepare=window.outfallPrepareForPrint||window.outfallRenderAll;var go=function(){ "
            "if(prepare){prepare().then(function(){done(true);},function(){done(false);});} else "
            "{done(true);} };if(document.fonts && document.fonts.ready){document.fonts.ready.then(go);} "
            "else {go();}"
        )
        # margins zero and the CSS page size preferred: the page's @page rule sets the paper, the
        # margins and the margin boxes (the printed header and footer)
        result = driver.execute_cdp_cmd(
            "Page.printToPDF",
            {
                "printBackground": True,
                "preferCSSPageSize": True,
                "displayHeaderFooter": False,
                "marginTop": 0,
                "marginBottom": 0,
                "marginLeft": 0,
                "marginRight": 0,
            },
        )
        return base64.b64decode(result["data"])

    def _kill(self) -> None:
        """End the session's process group (chromedriver and its Chromium) without asking them."""
        if self._group is not None:
            try:
                os.killpg(self._group, signal.SIGKILL)
            except OSError:
                pass
            self._group = None
            process = getattr(self._service, "process", None)
            if process is not None:
                try:
                    process.wait(timeout=10)  # chromedriver is our child: reaped, not left a zombie
                except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
                    pass
        self._driver = None
        self._folder = self._frame = None

    def close(self) -> None:
        if self._watchdog is not None:
            self._watchdog.terminate()
            try:
                self._watchdog.wait(timeout=WATCHDOG_STOP_S)
            except subprocess.TimeoutExpired:
                self._watchdog.kill()
                self._watchdog.wait()
            self._watchdog = None
        if self._driver is not None:
            import urllib3

            try:
                self._driver.quit()
            except urllib3.exceptions.HTTPError:  # chromedriver does not answer: ended outright
                self._kill()
            finally:
                self._driver = None
                self._folder = self._frame = None
                self._group = None
        if self._profile:
            shutil.rmtree(self._profile, ignore_errors=True)
            self._profile = None


def print_pdfs(
    jobs: Iterable[tuple[Path, Path]], *, force: bool = False, browser: Browser | None = None
) -> PrintReport:
    """Print each (html, pdf) pair in one Chromium session; unchanged ones are skipped.

    Never raises for a missing or broken Chromium: the report says why nothing was printed."""
    jobs = [(Path(h), Path(p)) for h, p in jobs]
    report = PrintReport()
    todo = []
    for html_path, pdf_path in jobs:
        if not force and pdf_path.exists() and recorded_source(pdf_path) == source_digest(html_path):
            report.unchanged.append(pdf_path)
            sweep_stale(pdf_path)
        else:
            todo.append((html_path, pdf_path))
    if not todo:
        return report
    printer = (_take_warm() if browser is None else None) or PdfPrinter(browser)
    if not printer.available:
        report.unavailable = CHROMIUM_HINT
        return report
    from selenium.common.exceptions import WebDriverException

    if printer.started:  # started ahead by warm(): its start is not part of the printing
        report.browser_start_s = printer.start_s
    # Stamping and writing a PDF (pypdf) is done by a second thread while Chromium
    # prints the next one; a failure to write is raised here, as it would be without the thread.
    writes: list[tuple[Path, Future]] = []
    with printer, ThreadPoolExecutor(max_workers=1, thread_name_prefix="outfall-pdf-write") as writer:
        for html_path, pdf_path in todo:
            was_started = printer.started
            t0 = time.perf_counter()
            try:
                source = source_digest(html_path)
                data = printer.pdf_bytes(html_path)
            except PdfError as exc:  # Chromium did not start: nothing more can be printed
                report.unavailable = f"letters written as HTML only: {exc}"
                break
            except WebDriverException as exc:
                report.failed.append((html_path, (exc.msg or type(exc).__name__).splitlines()[0]))
                continue
            writes.append((pdf_path, writer.submit(_stamp_and_write, pdf_path, data, source)))
            took = time.perf_counter() - t0
            if not was_started:  # this print started the browser: count that apart
                report.browser_start_s = printer.start_s
                took -= printer.start_s
            report.printing_s += took
    for pdf_path, done in writes:
        done.result()
        report.written.append(pdf_path)
    return report


def _stamp_and_write(pdf_path: Path, data: bytes, source: str) -> None:
    write_atomic(pdf_path, _stamp(data, source), durable=False)


# ---------------------------------------------------------------------------
# a session started ahead


_warm: dict = {"thread": None, "printer": None}


def warm(browser: Browser | None = None) -> bool:
    """Start a Chromium session in the background for the next ``print_pdfs`` (once; False when
    there is no Chromium). A session that fails to start is dropped: ``print_pdfs`` then starts
    its own and reports why it could not."""
    if _warm["thread"] is not None:
        return True
    printer = PdfPrinter(browser)
    if not printer.available:
        return False

    def start() -> None:
        try:
            printer._start()
        except Exception:  # noqa: BLE001 - print_pdfs tries again and says why
            printer.close()

    thread = threading.Thread(target=start, name="outfall-pdf-warm", daemon=True)
    _warm.update(thread=thread, printer=printer)
    thread.start()
    return True


def _take_warm() -> PdfPrinter | None:
    thread, printer = _warm["thread"], _warm["printer"]
    if thread is None:
        return None
    thread.join()
    _warm.update(thread=None, printer=None)
    return printer if printer.started else None


def cool() -> None:
    """Close a session ``warm()`` started that no ``print_pdfs`` took."""
    printer = _take_warm()
    if printer is not None:
        printer.close()


def join_pdfs(parts: Sequence[Path], out: Path, *, titles: Sequence[str] | None = None) -> Path:
    """One PDF of ``parts`` in the given order, with a bookmark per part (its title, else its file name).

    Left as it is when it already joins these very parts, in this order, with these titles."""
    from pypdf import PdfWriter

    if titles is not None and len(titles) != len(parts):
        raise PdfError(f"{len(titles)} titles for {len(parts)} PDFs")
    names = list(titles) if titles is not None else [Path(p).stem for p in parts]
    digest = hashlib.sha256(RENDERER.encode())
    for part, name in zip(parts, names):
        if not Path(part).is_file():
            raise PdfError(f"cannot join {part}: no such PDF")
        digest.update(hashlib.sha256(Path(part).read_bytes()).digest() + name.encode() + b"\0")
    source = digest.hexdigest()
    if Path(out).exists() and recorded_source(out) == source:
        sweep_stale(Path(out))
        return Path(out)
    writer = PdfWriter()
    for part, name in zip(parts, names):
        writer.append(str(part), outline_item=name)
    writer.add_metadata({"/Title": Path(out).stem.replace("_", " "), SOURCE_KEY: source})
    buffer = io.BytesIO()
    writer.write(buffer)
    write_atomic(Path(out), buffer.getvalue(), durable=False)
    return Path(out)

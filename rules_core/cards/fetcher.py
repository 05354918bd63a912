"""The only way WeasyPrint may read anything while printing cards: the cards' own asset files.

Every URL a document names (a stylesheet, an image, a font) goes through :class:`AssetFetcher`.
It serves ``file:`` URLs of this package's stylesheet and drawings (``.css``, ``.svg``) and the
drawings the cards make in code (``drawing:``, see :mod:`rules_core.cards.drawings`); it refuses
the rest — the network, ``data:`` URLs, any other file on the machine — so a fleet or ship name that
smuggles in markup or a URL can never make the printer fetch it. Refused URLs are kept in
``refused`` so a caller (or a test) can see what was asked for.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from . import drawings

ASSETS = Path(__file__).resolve().parent  # cards.css and assets/*.svg
CONTENT_TYPES = {".css": "text/css", ".svg": "image/svg+xml"}


class RefusedURL(ValueError):
    """A URL outside the cards' own assets."""


def asset_path(url: str) -> Path:
    """The asset file ``url`` names, or :class:`RefusedURL`."""
    if url.startswith(f"{drawings.SCHEME}:"):
        raise RefusedURL("a drawing is not a file")
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        raise RefusedURL(f"cards fetch only their own files, not {url[:200]!r}")
    path = Path(unquote(parts.path)).resolve()
    if not path.is_relative_to(ASSETS) or path.suffix not in CONTENT_TYPES or not path.is_file():
        raise RefusedURL(f"not one of the cards' asset files: {url[:200]!r}")
    return path


class AssetFetcher(URLFetcher):
    def __init__(self) -> None:
        super().__init__(allowed_protocols=("file", drawings.SCHEME), allow_redirects=False)
        self.refused: list[str] = []
        self.served: list[str] = []

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        if url.startswith(f"{drawings.SCHEME}:"):
            try:
                png = drawings.drawing(url)
            except drawings.UnknownDrawing:
                self.refused.append(url)
                raise RefusedURL(f"no such drawing: {url[:200]!r}") from None
            self.served.append(url)
            return URLFetcherResponse(url, png, {"Content-Type": "image/png"})
        try:
            path = asset_path(url)
        except RefusedURL:
            self.refused.append(url)
            raise
        self.served.append(path.name)
        return URLFetcherResponse(
            path.as_uri(), path.read_bytes(), {"Content-Type": CONTENT_TYPES[path.suffix]}
        )

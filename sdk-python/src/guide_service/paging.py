# Keyset pages walked by themselves: iterate the items (`for guide in …`), or the pages (`.pages()`), each
# fetched only when the loop asks for it.
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    next_cursor: str | None
    """
    Where the next page starts; None when this is the last. The events feed's last page has one too: where
    to go on from later (its walk ends at that page all the same).
    """
    last: bool = False
    """This is the last page, whatever next_cursor says (the events feed's: there is nothing newer yet)."""


class Paginated(Generic[T]):
    """Every item of every page, in order; `.pages()` for the pages with their cursors."""

    def __init__(self, start: str | None, fetch_page: Callable[[str | None], Page[T]]) -> None:
        self._start = start
        self._fetch_page = fetch_page

    def pages(self) -> Iterator[Page[T]]:
        cursor = self._start
        while True:
            page = self._fetch_page(cursor)
            yield page
            if page.last or page.next_cursor is None:
                return
            cursor = page.next_cursor

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.items

    def to_list(self) -> list[T]:
        """Every item of every page, in one list: for small collections."""
        return list(self)

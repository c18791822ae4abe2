# A consumer of the events feed, as a real one is written with the SDK: it resumes from the cursor saved in
# a file, handles each event (printing "handled <id>", slowly when told to), and saves the page's cursor
# once the page's events are handled. tests/test_events.py kills it mid-way and starts it again.
#   python tail_consumer.py BASE_URL API_KEY CURSOR_FILE PAGE_SIZE SECONDS_PER_EVENT
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from guide_service import GuideService


def main(base_url: str, api_key: str, cursor_file: str, page_size: str, seconds_per_event: str) -> None:
    saved = Path(cursor_file)
    client = GuideService(api_key=api_key, base_url=base_url)
    after = saved.read_text() if saved.exists() else None
    for page in client.events.tail(after=after or None, limit=int(page_size), wait=2):
        if page.restarted:
            print("restarted", flush=True)
        for event in page.events:
            time.sleep(float(seconds_per_event))
            print(f"handled {event['id']}", flush=True)
        if page.cursor is not None:
            # Written whole or not at all: a kill mid-write leaves the previous cursor.
            saved.with_suffix(".tmp").write_text(page.cursor)
            os.replace(saved.with_suffix(".tmp"), saved)


if __name__ == "__main__":
    main(*sys.argv[1:])

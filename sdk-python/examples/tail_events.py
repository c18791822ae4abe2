# Following the events feed without a webhook endpoint: catch up from the cursor saved last time (or from
# the oldest event kept), then each new event as it happens. The cursor is saved once a page's events are
# handled, so a consumer stopped at any moment goes on from where it was, at worst with that page again.
import os
from pathlib import Path

from guide_service import GuideService

client = GuideService(api_key=os.environ["GUIDE_API_KEY"], base_url=os.environ["GUIDE_URL"])
saved = Path(os.environ.get("GUIDE_CURSOR_FILE", "events.cursor"))
# Event ids already handled, to skip one that comes again (keep them where the consumer keeps its state).
handled: set[str] = set()

after = saved.read_text() if saved.exists() else None
for page in client.events.tail(after=after, types=["guide.created", "guide.deleted"]):
    if page.restarted:
        print("the saved cursor had expired: starting over from the oldest event kept")
    for event in page.events:
        if event["id"] in handled:
            continue
        handled.add(event["id"])
        if event["type"] == "guide.created":
            print("new guide:", event["data"]["guide"]["title"], flush=True)
        elif event["type"] == "guide.deleted":
            print("guide deleted:", event["data"]["guide"]["id"], flush=True)
    if page.cursor is not None:
        # Written whole or not at all, so that a stop in the middle leaves the cursor before it.
        saved.with_suffix(".tmp").write_text(page.cursor)
        saved.with_suffix(".tmp").replace(saved)

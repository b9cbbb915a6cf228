"""Keep a read-only prompt_toolkit buffer showing the paper typed so far."""

from __future__ import annotations

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document


def sync_paper(buffer: Buffer, text: str) -> None:
    """Show ``text`` in ``buffer`` with the cursor at the end (so the newest line shows)."""
    if text != buffer.text:
        buffer.set_document(Document(text, len(text)), bypass_readonly=True)

"""Private file storage: files nobody reaches by URL (identity documents).

No URL route serves these folders, and ``url()`` refuses, so no template can link to a file by
mistake; staff open a document through ``piattaforma.views.identity_document_file``.
"""

from __future__ import annotations

from django.core.files.storage import FileSystemStorage, InMemoryStorage


class NoURLMixin:
    def url(self, name: str | None) -> str:
        raise ValueError("I file riservati non hanno un indirizzo pubblico.")


class PrivateFileSystemStorage(NoURLMixin, FileSystemStorage):
    """On disk, under ``PRIVATE_MEDIA_ROOT`` (outside static and media)."""


class PrivateInMemoryStorage(NoURLMixin, InMemoryStorage):
    """In memory (tests)."""

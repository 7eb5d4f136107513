"""The players' information pages (mounted at /regole/): open to everyone, signed in or not."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rules import pages


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"sections": pages.sections()})


def page(request: HttpRequest, slug: str) -> HttpResponse:
    found = pages.page(slug)
    if found is None:
        raise Http404(slug)
    context = {"page": found, "sections": pages.sections()}
    if found.context is not None:
        context.update(found.context())
    return render(request, found.template, context)

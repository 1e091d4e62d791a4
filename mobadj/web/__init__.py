"""Read-only game pages: every game's story on the web, from the judge's store.

``mobadj web`` serves them (Starlette and uvicorn, pages from Jinja2 templates) beside the
running judge; ``mobadj web --export DIR`` writes the same pages as static files.  What a
page may show is decided in one place, :mod:`mobadj.web.story`: orders only once their phase
is adjudicated, press only when it was sent to everyone, card games only the observer's view.

Nothing here is imported by the judge except :mod:`mobadj.web.links` (the results mails'
links), so the judge runs without the web libraries loaded.
"""

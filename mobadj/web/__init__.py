"""Read-only game pages: every game's story on the web, from the judge's store.

``mobadj web`` serves them (Starlette and uvicorn, pages from Jinja2 templates) beside the
running judge; ``mobadj web --export DIR`` writes the same pages as static files.  What a
page may show is decided in one place, :mod:`mobadj.web.story`: orders only once their phase
is adjudicated, press only when it was sent to everyone, card games only the observer's view.

The judge imports nothing from here (the pages' addresses, which its results mails link to,
are :mod:`mobadj.judge.links`), so it runs without the web libraries loaded.  What other
packages may use is listed here.
"""

from mobadj.web.app import create_app
from mobadj.web.export import export_site
from mobadj.web.pages import Site
from mobadj.web.serving import server_config

__all__ = ["Site", "create_app", "export_site", "server_config"]

"""kosolve in the browser: the JSON API (:mod:`kosolve.web.api`, no web
framework needed), the self-contained HTML report (:mod:`kosolve.web.report`)
and the local web application (:mod:`kosolve.web.app`, with the extra
``kosolve[web]``).  docs/web.md describes them."""

"""The bench's voters play a reader who loaded the page: every vote form carries a hidden
`token` that verdict made for that form's target (one tool, or one head-to-head pair) when it
made the page, "<unix seconds>.<32 hex>", valid for 24 hours and the same for every reader of
that page. A vote without one is refused (403); one sent less than 2 s after the token's time
is stored but set aside as too fast. So a bench script that votes first loads the page, takes
the token from the form, waits until 2 s have passed since the token's time (once, for all of
its tokens: wait_until_readable), then sends every vote with `token=…` in its body.

Used by bench/bench.py (which hands the tokens to vote.lua and paced_votes.py) and by
bench/paced_votes.py when run on its own.
"""
import html, re, time, urllib.request

# A vote sent sooner than this after its page was made is set aside (domain/counting.h,
# kSecondsToReadAPage); the margin covers the server's whole-second clock.
SECONDS_TO_READ_A_PAGE = 2
MARGIN = 0.05


def _page(base, path):
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        if answer.status != 200:
            raise SystemExit(f"verdict answered {answer.status} for {path}")
        return answer.read().decode("utf-8")


def _form_token(page, form_start, path):
    """The token of the form that begins with `form_start` on `page`."""
    start = page.find(form_start)
    if start < 0:
        raise SystemExit(f"{path} has no form {form_start}")
    end = page.find("</form>", start)
    found = re.search(r'<input type="hidden" name="token" value="([^"]+)">', page[start:end])
    if not found:
        raise SystemExit(f"the form {form_start} on {path} carries no token")
    token = html.unescape(found.group(1))
    if not re.fullmatch(r"[1-9]\d*\.[0-9a-f]{32}", token):
        raise SystemExit(f"the form {form_start} on {path} carries an unexpected token {token!r}")
    return token


def tool_token(base, slug):
    """The token of the vote form on the tool's page (GET /tools/SLUG), for POST
    /tools/SLUG/vote. `base`: "http://127.0.0.1:PORT"."""
    path = f"/tools/{slug}"
    return _form_token(_page(base, path),
                       f'<form class="vote-form" method="post" action="/tools/{slug}/vote">', path)


def pair_token(base, pair):
    """The token of the head-to-head form on the comparison's page (GET /compare/PAIR), for
    POST /compare/PAIR/vote."""
    path = f"/compare/{pair}"
    return _form_token(_page(base, path),
                       f'<form class="h2h" method="post" action="/compare/{pair}/vote">', path)


def tool_tokens(base, slugs):
    return {slug: tool_token(base, slug) for slug in slugs}


def made_at(token):
    return int(token.split(".", 1)[0])


def wait_until_readable(tokens):
    """Sleep until at least 2 s have passed since the latest token's time, so no vote sent
    with any of them is set aside as too fast. Returns the seconds slept."""
    tokens = list(tokens)
    if not tokens:
        return 0.0
    wait = max(made_at(t) for t in tokens) + SECONDS_TO_READ_A_PAGE + MARGIN - time.time()
    if wait > 0:
        time.sleep(wait)
        return wait
    return 0.0

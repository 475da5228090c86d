"""axe-core in a page: the script injected once per page, and only the violations sent back.

Measured on the longest page (course/pitfalls/, ~3,300 elements): the run itself is nearly all
of a run's cost (colour contrast, target sizes, scrollable regions and landmarks lead), so every
rule still runs. What goes is overhead around it: the 570 kB script sent and compiled again
before each run (0.2-0.8 s), and the passes, incomplete and inapplicable lists sent back as
~60 kB of JSON that nobody reads.

Most of that run was colour contrast on highlighted code: on the longest page ~2,400 of its
~3,600 elements are code tokens, in ~160 distinct looks. Contrast is a function of the text's
colour, size and weight and of what is painted behind it, so within one code block a token that
looks exactly like one already checked is left to that one (``LOOKS_CHECKED``; every other rule
still sees it). A run on the longest page went from 1.44 to 0.95 s; test_pages.py shows that
faint code is still found wherever checking every token finds it.

Measured and left out (December 2026): flattening every code block's token spans to plain text
before axe runs halves a bare axe run (6,000 elements down to 1,600) but saved only ~21% of a long
page's survey on top of the look dedup above, before paying for the specimen run that would have
to check the token colours instead; leaving the site navigation out of each page's run saved ~11%
of axe and is kept (the navigation is checked once per kind of page).
"""

from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT

BLOCKING = {"serious", "critical"}  # the impacts that fail a test
OPTIONS = {"resultTypes": ["violations"]}  # as axe-playwright-python's default: all rules run

# The rules a colour scheme can change the verdict of: axe's enabled rules about colour
# (test_pages.py checks this is the list the bundled axe has). A switch to dark repaints the page
# and changes nothing else, so in dark these alone run again: a page's whole-page run in dark
# cost as much as in light (about 2.3 s a page, most of the browser tests' time).
COLOUR_RULES = ("color-contrast", "link-in-text-block")
ENABLED_COLOUR_RULES = """() => axe._audit.rules
    .filter(rule => rule.enabled !== false && rule.tags.includes('cat.color'))
    .map(rule => rule.id).sort()"""
REPEATED = "data-jd-repeated-look"  # on a code token whose look its block has had checked

RUN = """async ([context, options]) => {
    const results = await axe.run(context ?? document, options);
    return results.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.map(n => n.target.map(String).join(' ')),
    }));
}"""

UNMARK = "a => document.querySelectorAll(`[${a}]`).forEach(e => e.removeAttribute(a))"

# A token's look: its own text and paint properties, each ancestor's paint, its code block. A
# token stands for its look only where axe judges it: whole inside every box that clips it, and
# clear of every positioned element that could be drawn over it (a copy button, a fixed header):
# axe cannot tell the background of a covered token and calls it "incomplete", not a violation,
# which would hide its repeats (test_pages.py shows both).
# Marks are made afresh per run (UNMARK first), as a scheme switch changes the looks.
# Returns [looks checked, tokens marked].
LOOKS_CHECKED = """attribute => {
    const TEXT = ['color', 'fontSize', 'fontWeight', 'fontStyle', 'textShadow', 'opacity',
                  'webkitTextStrokeWidth', 'webkitTextStrokeColor', 'backgroundColor',
                  'backgroundImage', 'filter', 'mixBlendMode'];
    const PAINT = ['color', 'backgroundColor', 'backgroundImage', 'opacity', 'filter',
                   'mixBlendMode'];
    const memo = (compute) => { const seen = new Map(); const get = element => {
        if (!element) return null;
        if (!seen.has(element)) seen.set(element, compute(element, get(element.parentElement)));
        return seen.get(element);
    }; return get; };
    const paint = memo((element, above) => {
        const style = getComputedStyle(element);
        return PAINT.map(p => style[p]).join() + '<' + (above ?? '');
    });
    const clip = memo((element, above) => {
        const box = above ?? {left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity};
        const style = getComputedStyle(element);
        const scrolls_the_page = element === document.documentElement || element === document.body;
        if (scrolls_the_page || style.overflowX + style.overflowY === 'visiblevisible') return box;
        const own = element.getBoundingClientRect();
        return {left: Math.max(box.left, own.left), top: Math.max(box.top, own.top),
                right: Math.min(box.right, own.right), bottom: Math.min(box.bottom, own.bottom)};
    });
    const overlays = [...document.body.querySelectorAll('*')]
        .filter(e => ['absolute', 'fixed', 'sticky'].includes(getComputedStyle(e).position))
        .map(e => [e, e.getBoundingClientRect()]).filter(([, r]) => r.width > 0 && r.height > 0);
    const clear = (token, box) => overlays.every(([e, r]) => e.contains(token) ||
        r.right <= box.left || r.left >= box.right || r.bottom <= box.top || r.top >= box.bottom);
    const stands_for_its_look = token => {
        const box = token.getBoundingClientRect(), inside = clip(token.parentElement);
        return box.width > 0 && box.left >= inside.left && box.right <= inside.right &&
            box.top >= inside.top && box.bottom <= inside.bottom && clear(token, box);
    };
    const checked = new Set();
    let marked = 0;
    document.querySelectorAll('pre').forEach((block, index) => {
        for (const token of block.querySelectorAll('span:not(:has(*))')) {
            const style = getComputedStyle(token);
            const look = `${index}|${TEXT.map(p => style[p]).join()}<${paint(token.parentElement)}`;
            if (checked.has(look)) {
                token.setAttribute(attribute, '');
                marked += 1;
            } else if (stands_for_its_look(token)) {
                checked.add(look);
            }
        }
    });
    return [checked.size, marked];
}"""


# axe's colour-contrast rule leaves the marked tokens out; set once, when axe is injected.
SKIP_REPEATED = """attribute => axe.configure({rules: [
    {id: 'color-contrast', selector: `*:not([${attribute}])`}]})"""


def violations(page, context: str | dict | None = None, rules: tuple[str, ...] = ()) -> list[dict]:
    """Every axe violation on the page (or in the ``context``: a selector, or axe's include and
    exclude lists), any impact; of the given ``rules`` only, when some are given."""
    prepare(page)
    only = {"runOnly": {"type": "rule", "values": list(rules)}} if rules else {}
    return page.evaluate(RUN, [context, OPTIONS | only])


def prepare(page, every_token: bool = False) -> list[int]:
    """axe in the page, and the code tokens whose look was checked marked (none if
    ``every_token``): [looks checked, tokens marked]."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
        page.evaluate(SKIP_REPEATED, REPEATED)
    page.evaluate(UNMARK, REPEATED)
    return [0, 0] if every_token else page.evaluate(LOOKS_CHECKED, REPEATED)


def blocking(found: list[dict], targets: int = 5) -> list[str]:
    """One line per serious or critical violation, with where it is (its first targets)."""
    return [
        f"{v['impact']} {v['id']}: {v['help']} at " + ", ".join(v["targets"][:targets])
        for v in found
        if v["impact"] in BLOCKING
    ]

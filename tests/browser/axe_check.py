"""axe-core in a page: the script injected once per page, and only the violations sent back.

Measured on the longest page (course/pitfalls/, ~3,300 elements): the run itself is nearly all
of a run's cost (colour contrast, target sizes, scrollable regions and landmarks lead), so every
rule still runs. What goes is overhead around it: the 570 kB script sent and compiled again
before each run (0.2-0.8 s), and the passes, incomplete and inapplicable lists sent back as
~60 kB of JSON that nobody reads.

Most of that run was colour contrast, most of it on text that looks exactly like other text: on
the longest page ~4,100 elements have text of their own, in 64 distinct looks. Contrast is a
function of the text's colour, size and weight and of what is painted behind it, so text that
looks exactly like text already checked is left to that (``LOOKS_CHECKED``; every other rule
still sees it). First done per code block for code tokens (a contrast run on the longest page
went from 1.44 to 0.95 s), then for all text on the page: ~400 elements left to check there,
and its contrast run with the marking from 3.5-4.3 s to 2.2-2.7 s (a loaded machine).
test_pages.py plants faint text of each kind that could hide its look's faults and shows each
is still found, and only where checking every element finds it.

Measured and left out (December 2026): flattening every code block's token spans to plain text
before axe runs halves a bare axe run (6,000 elements down to 1,600) but saved only ~21% of a long
page's survey on top of the look dedup above, before paying for the specimen run that would have
to check the token colours instead; leaving the site navigation out of each page's run saved ~11%
of axe and is kept (the navigation is checked once per kind of page).

What the rest is (December 2026, CPU of every process, all 56 pages in one tab): injecting axe and
marking looks 15 s in light and 7 s in dark, axe's run in light 61 s, the switch to dark 15 s,
axe's run in dark 34 s. A dark run of the longest page (~0.75 s) is mostly what axe redoes on
every run over the whole document, whatever the context: its tree (~0.13 s) and the grid of every
element's box and stacking order that contrast looks behind text with (~0.3 s); then ~165
elements judged (~1.5 ms each). A profile of 8 pages' axe stages: contrast 34% (its grid 15%),
gathering and matching nodes 18%, ``LOOKS_CHECKED`` 12%, each checked element's HTML 3% (and its
garbage). Kept: folded text left out (``LOOKS_CHECKED`` -30%, a dark run -8%: medians of 5 on 4
long pages) and no HTML (a light run -10%). Left out: keeping axe's tree and grid for the dark
run (only through axe's internals, whose cached styles would be light's); V8 flags
(``--always-sparkplug``, ``--no-lazy-feedback-allocation``: a page's first run still costs ~25%
more than a second); axe as a ``<script src>`` (routed: more CPU); letting a block's title stand
for its look by axe's own rule for ::before and ::after (a quarter of the text's area: ~3% of a
page's axe); an in-page click for the switch (~0.1 s a page, but no test would then click each
page's toggle as a reader does); sharing looks across pages (a page's test would pass on a fault
first seen on another page).
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
REPEATED = "data-jd-repeated-look"  # on text whose look axe has checked on another element

RUN = """async ([context, options]) => {
    const results = await axe.run(context ?? document, options);
    return results.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.map(n => n.target.map(String).join(' ')),
    }));
}"""

UNMARK = "a => document.querySelectorAll(`[${a}]`).forEach(e => e.removeAttribute(a))"

# A text's look: its own text and paint properties and each ancestor's paint. Contrast is a
# function of these and of what is drawn behind the text, so text that looks exactly like text
# axe judges is left to that text (``LOOKS_CHECKED``; every other rule still sees it). Only text
# clear of trouble is left out or stands for its look: whole inside every box that clips it, and
# clear of every positioned element that could be drawn over or under it (a copy button, a fixed
# header); outside form controls. The one that stands for a look must also be text axe gives a
# verdict on, not "incomplete", or its look's faults would be hidden: two or more characters with
# a letter or digit (axe skips punctuation and calls one character short), shown (not hidden by
# opacity or visibility), with no positioned ::before or ::after with a background on it or
# around it (axe gives up on those). Text folded away in a closed <details> (all but its first
# summary) is left out whatever its look: axe calls it hidden and judges none of it. (After a
# scheme switch its colours lag: Material stops transitions while it switches, but folded text is
# styled only when first read, later, and eases in from the old scheme. Its looks then matched
# nothing, and ~2,000 tokens of the longest page went to axe in dark. The page survey now opens
# every closed block before axe runs, so this spares the other callers.) test_pages.py plants a
# fault against each of these.
# Marks are made afresh per run (UNMARK first), as a scheme switch changes the looks, and only
# inside what axe runs on (``scope``): a look checked outside it would hide text inside it.
# Returns [looks checked, elements marked].
LOOKS_CHECKED = """([attribute, include, exclude]) => {
    const TEXT = ['color', 'fontSize', 'fontWeight', 'fontStyle', 'textShadow', 'opacity',
                  'webkitTextStrokeWidth', 'webkitTextStrokeColor', 'backgroundColor',
                  'backgroundImage', 'filter', 'mixBlendMode', 'visibility'];
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
    const pseudo_with_background = memo((element, above) => above || ['::before', '::after']
        .map(which => getComputedStyle(element, which))
        .some(s => s.content !== 'none' && s.position === 'absolute' &&
              (s.backgroundImage !== 'none' || !/^rgba\\(.*, 0\\)$/.test(s.backgroundColor))));
    const overlays = [...document.body.querySelectorAll('*')]
        .filter(e => ['absolute', 'fixed', 'sticky'].includes(getComputedStyle(e).position))
        .map(e => [e, e.getBoundingClientRect()]).filter(([, r]) => r.width > 0 && r.height > 0);
    const clear = (element, box) => overlays.every(([e, r]) => e.contains(element) ||
        r.right <= box.left || r.left >= box.right || r.bottom <= box.top || r.top >= box.bottom);
    const in_the_clear = element => {
        const box = element.getBoundingClientRect(), inside = clip(element.parentElement);
        return box.width > 0 && box.left >= inside.left && box.right <= inside.right &&
            box.top >= inside.top && box.bottom <= inside.bottom && clear(element, box);
    };
    const judged = (element, text) => text.length > 1 && /[\\p{L}\\p{N}]/u.test(text) &&
        element.checkVisibility({opacityProperty: true, visibilityProperty: true}) &&
        !pseudo_with_background(element);
    const own_text = element => [...element.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)
        .map(n => n.data).join('').replace(/\\s+/g, ' ').trim();
    const in_scope = element => (!include || element.closest(include)) &&
        !(exclude && element.closest(exclude)) &&
        !element.closest('button, input, select, textarea, label, option');
    const folded = memo((element, above) => above || (element.parentElement?.localName ===
        'details' && !element.parentElement.open &&
        element !== element.parentElement.querySelector(':scope > summary')));
    const checked = new Set();
    let marked = 0;
    for (const element of document.body.querySelectorAll('*')) {
        if (folded(element)) {
            element.setAttribute(attribute, '');
            marked += 1;
            continue;
        }
        const text = own_text(element);
        if (!text || !in_scope(element) || !in_the_clear(element)) continue;
        const style = getComputedStyle(element);
        const look = `${TEXT.map(p => style[p]).join()}<${paint(element.parentElement)}`;
        if (checked.has(look)) {
            element.setAttribute(attribute, '');
            marked += 1;
        } else if (judged(element, text)) {
            checked.add(look);
        }
    }
    return [checked.size, marked];
}"""


# Set once, when axe is injected: its colour-contrast rule leaves the marked text out, and no
# result carries its element's HTML (axe serializes each checked element, whole, to cut it to 300
# characters: the body's, the article's; RUN reads none of it).
CONFIGURE = """attribute => axe.configure({noHtml: true, rules: [
    {id: 'color-contrast', selector: `*:not([${attribute}])`}]})"""


def violations(page, context: str | dict | None = None, rules: tuple[str, ...] = ()) -> list[dict]:
    """Every axe violation on the page (or in the ``context``: a selector, or axe's include and
    exclude lists), any impact; of the given ``rules`` only, when some are given."""
    prepare(page, context)
    only = {"runOnly": {"type": "rule", "values": list(rules)}} if rules else {}
    return page.evaluate(RUN, [context, OPTIONS | only])


def prepare(page, context: str | dict | None = None, every_element: bool = False) -> list[int]:
    """axe in the page, and the text in ``context`` whose look was checked marked (none if
    ``every_element``): [looks checked, elements marked]."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
        page.evaluate(CONFIGURE, REPEATED)
    page.evaluate(UNMARK, REPEATED)
    return [0, 0] if every_element else page.evaluate(LOOKS_CHECKED, [REPEATED, *scope(context)])


def scope(context: str | dict | None) -> tuple[str | None, str | None]:
    """axe's context as two CSS selectors: what is in it (None: the page), what is left out."""
    if context is None or isinstance(context, str):
        return context, None
    include = ", ".join(selector for selector, *_ in context.get("include", [])) or None
    exclude = ", ".join(selector for selector, *_ in context.get("exclude", [])) or None
    return include, exclude


def blocking(found: list[dict], targets: int = 5) -> list[str]:
    """One line per serious or critical violation, with where it is (its first targets)."""
    return [
        f"{v['impact']} {v['id']}: {v['help']} at " + ", ".join(v["targets"][:targets])
        for v in found
        if v["impact"] in BLOCKING
    ]

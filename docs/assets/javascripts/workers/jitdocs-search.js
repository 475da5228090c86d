// The site's search worker: Material for MkDocs' own worker (its file is named in this script's
// query string, `?material=search.<hash>.min.js`: engine/site/overrides/main.html points the page
// here), with a few changes, so that a learner's question finds the section that answers it.
// tests/search/quality.py measures them (issue #52).
"use strict"

// 1. A page's own entry weighs as much as one of its sections. Material multiplies the page's
// entry (the text above its first section) by `1 + (1 + s) ** 2` and a section by `1 + s ** 2`,
// s being the share of the query's words found: 2.5 times a section's when every word is found,
// about 2.6 when half to two thirds are, as for most questions. So the page's opening came first
// for any question on it, above the section that answers it. Its lunr boost, set here before
// Material indexes it, undoes that (1 / 2.6), and a little more: the opening holds the page's
// title, whose words most of its sections are about, so at 0.38 it still came first for questions
// one of them answers ("jit cache keeps growing": the long-runs page). 0.2 to 0.3 measure alike.
const PAGE_WEIGHT = 0.25

// 2. A pasted error message finds its entry. A section whose text opens with an error as Python
// prints it (`<code>TracerBoolConversionError: Attempted boolean ...</code>`, as every entry of
// the error index does) gets the message's first words as a field of their own, weighed as its
// heading: they name the error and start what a reader pastes. The first words only: the rest
// (values, advice) would match unrelated questions, as whole messages in headings once did.
const QUOTED_ERROR = /^<p><code>[A-Z][\w.]*: (.*?)<\/code>/s
const MESSAGE_WORDS = 6
// At 3 (a third of a heading's 10), "Abstract tracer value encountered" tied with the
// debugging chapter's section on tracer leaks, and lost it when a section was added elsewhere;
// at 4 the first five words of 26 of the index's 45 messages find their entry first (17 at 3),
// with no question of the suites lost. At 5, held-out questions are lost.
const MESSAGE_WEIGHT = 4
function addMessageField({ config, docs }) {
  config.fields.message = { boost: MESSAGE_WEIGHT }
  for (const doc of docs) {
    const quoted = QUOTED_ERROR.exec(doc.text)
    if (quoted) doc.message = quoted[1].split(/\s+/).slice(0, MESSAGE_WORDS).join(" ")
  }
}

let stemming = false  // whether the index's words were stemmed (mkdocs.yml: search: pipeline)
addEventListener("message", event => {
  if (!self.lunr || !event.data || event.data.type !== 0) return  // not lunr's set-up message
  stemming = (event.data.data.config.pipeline || []).includes("stemmer")
  for (const doc of event.data.data.docs)
    if (!doc.location.includes("#")) doc.boost = (doc.boost ?? 1) * PAGE_WEIGHT
  addMessageField(event.data.data)
})

addEventListener("message", noteQuery)  // 8. below: the sections' texts, and each query asked

// Zensical's worker (no lunr: its own engine; the end of this file) gets each query from here,
// rewritten, since this listener is added before its script sets its own.
let separator, indexed, asked
addEventListener("message", event => {
  if (self.lunr || !event.data) return  // Material's worker reads queries through lunr's parser
  const { type, data } = event.data
  if (type === 0) {
    separator = data.config.separator
    indexed = indexedWords(data.items, separator)
  } else if (type === 2 && typeof data.input === "string" && separator) {
    data.input = zensicalQuery(data.input, separator)
    asked = data
  }
})

const material = new URLSearchParams(self.location.search).get("material") || ""
if (!/^search\.[0-9a-f]+\.min\.js$/.test(material))
  throw new Error(`jitdocs-search.js: no Material search worker named (${material})`)
importScripts(material)
const lunr = self.lunr  // absent from another engine's worker (Zensical's): see the end

// 3. A query's words are read as the index's were. Material gives each word typed a trailing
// wildcard (so that a word still being typed matches), and lunr runs no pipeline on a wildcard
// word: "recompiling*" never met the indexed stem "recompil", and "a*" or "how*" matched every
// word that starts so, outweighing the words that carry the question. So here a word is trimmed
// and stemmed, and keeps its wildcard; an English stop word is dropped (when other words are
// left), except Python's keywords and `jnp.where`: "if", "for" or "where" name what a question is
// about. The
// index keeps every word (mkdocs.yml's pipeline has no stopWordFilter), so those are found;
// as whole words, since "for*" would match "format" and "forward". Material reads the parsed
// query through the same parser, so the words it marks as found, and highlights, are these.
const KEYWORDS = new Set(["if", "else", "for", "while", "and", "or", "not", "where"])
// Prepositions lunr's list lacks, which a question wraps around its subject ("inside jit").
const MORE_STOP_WORDS = new Set(["inside", "within", "under", "using", "via", "through"])
const WILDCARD_WORD = /^([^*]+)\*$/

// 4. The site's subject, "jit" and "jax" (in any form: "jitted", "jits"), is dropped from a
// query that has other words: nearly every question and every section holds it, so it tells the
// sections apart no better than a stop word, yet wherever a heading held it ("Nested jits"), it
// outweighed the words that carry the question.
const SUBJECT = new Set(["jit", "jax"])  // as stemmed

// The clause's term as the index holds its word, or undefined when the word is to be dropped
// (and `dropping` is on).
function asIndexed(word, dropping) {
  const token = lunr.trimmer(new lunr.Token(word, {}))
  const bare = token.toString()
  if (!bare) return undefined
  const keyword = KEYWORDS.has(bare)
  const stop = MORE_STOP_WORDS.has(bare) || (!keyword && !lunr.stopWordFilter(token))
  const indexed = stemming ? lunr.stemmer(token).toString() : bare
  if (dropping && (stop || SUBJECT.has(indexed))) return undefined
  return keyword ? indexed : `${indexed}*`
}

// 5. The word itself outweighs the words it begins. lunr gives every word a wildcard expands to
// the whole weight of the word typed, so a section holding many of them ("value", "values",
// "ValueError") outscored one holding the word itself many times. So each word is searched
// twice: as itself, with its weight, and as a beginning, with a part of it.
const COMPLETION_WEIGHT = 0.3

// 6. A word with the prefix "re" also finds its root, at half weight: the stemmer keeps the
// prefix, so "recompiling" (stem "recompil") never found "compile", nor "retraces" "trace". A
// root of four letters or more (a whole word after "re", not "turn" of "return").
const ROOT_WEIGHT = 0.5
const PREFIXED = /^re(.{4,})\*$/
function root(clause, term) {
  const prefixed = PREFIXED.exec(term)
  return prefixed ? [{ ...clause, term: `${prefixed[1]}*`, boost: clause.boost * ROOT_WEIGHT }] : []
}

// 7. A learner's word also finds the words the site uses for the same thing, at 0.7 of its
// weight, as a site search's synonym list does: "slow" finds a section about a callback's "cost",
// "collect" one that stacks outputs. Only words of this subject whose sense holds in any question
// ("recompile" finding "retrace" lifted sections about tracing above the cache-miss reports, so
// only "retrace" finds "recompile"), each read as the index is (stemmed). Measured on 151
// questions: MAINTAINERS.md and the git history of CONTRIBUTING.md;
// tests/browser/test_search_quality.py holds what two of them find.
const SYNONYM_WEIGHT = 0.7
const SYNONYMS = {  // the learner's word: the site's words
  slow: ["cost", "overhead"], slower: ["cost", "overhead"], benchmark: ["timing"],
  collect: ["stack", "accumulate"], accumulate: ["stack"], nested: ["inner", "outer"],
  exception: ["error", "raise"], crash: ["error"], retrace: ["recompile"],
  gradient: ["grad"], derivative: ["grad"], differentiation: ["grad"],
  dynamic: ["traced"], conditional: ["cond", "branch"], branch: ["cond"],
  parameter: ["argument"], arg: ["argument"], vectorize: ["vmap"],
  rng: ["key", "random"], prng: ["key", "random"], seed: ["key"], double: ["float64"],
  gpu: ["device"], serialize: ["export"], free: ["release"], freed: ["release"],
}
// stem: stems, made at the first query (set-up says whether words are stemmed)
let synonyms
function stem(word) {
  const token = new lunr.Token(word, {})
  return (stemming ? lunr.stemmer(token) : token).toString()
}
function synonymsOf(clause, stemmed) {
  synonyms ??= new Map(
    Object.entries(SYNONYMS).map(([word, others]) => [stem(word), others.map(stem)]))
  const boost = clause.boost * SYNONYM_WEIGHT
  return (synonyms.get(stemmed) ?? []).map(term => ({ ...clause, term, boost }))
}

function readAsIndexed(query, dropping = true) {
  const read = query.clauses.flatMap(clause => {
    const word = WILDCARD_WORD.exec(clause.term)
    if (!word || clause.usePipeline) return [clause]  // lunr runs the pipeline on it itself
    const term = asIndexed(word[1], dropping)
    if (!term) return []
    if (!term.endsWith("*")) return [{ ...clause, term }]
    const boost = clause.boost * COMPLETION_WEIGHT
    const whole = term.slice(0, -1)
    return [{ ...clause, term: whole }, { ...clause, term, boost }, ...root(clause, term),
      ...synonymsOf(clause, whole)]
  })
  if (read.length) query.clauses = read
  else if (dropping) readAsIndexed(query, false)  // only such words: keep them all
}

if (lunr) {
  const parse = lunr.QueryParser.prototype.parse
  lunr.QueryParser.prototype.parse = function () {
    const query = parse.call(this)
    readAsIndexed(query)
    return query
  }
}

// 8. Meaning beside words (issue #72): a reader's words are rarely the section's ("keep" for
// "cache"), so the sections are also ranked by meaning (jitdocs-meaning.js, its data loaded on
// the first search, not with the page), and the two rankings fused by reciprocal rank: a
// section's score is the sum over the rankings of weight / (K + its rank). Sections stay the
// unit, grouped by page as Material groups them, so its list shows the fused order. Until the
// data is loaded the first search shows the words' ranking, then the fused one.
// Chosen on the tuning suite (questions.toml) alone: the semantic ranking at a quarter of the
// words' weight, K = 4, is the most weight under which no question or word form that the words'
// ranking answers first, or in its first three pages, is lost (0.3 loses a word form; K = 8
// loses one at 0.15). The semantic ranking brings in its first 50 sections.
const FUSION_K = 4
const MEANING_WEIGHT = 0.25
const MEANING_DEPTH = 50
const QUERY = 2, RESULT = 3  // Material's SearchMessageType
const MEANING_DATA = "../../search/"  // from this worker's folder: vocab, table, sections
let entries = new Map()  // the index's entries by location, for a section only meaning finds
const asking = []  // the queries Material has not answered yet, in order
let answered = null, meaning = null, loading = null
// tests/search/quality.py measures each ranking alone ("lexical", "semantic"); readers get both.
const mode = () => self.jitdocsSearchMode ?? "fused"

function noteQuery(event) {
  if (!self.lunr || !event.data) return
  if (event.data.type === 0)
    entries = new Map(event.data.data.docs.map(doc => [doc.location, doc]))
  else if (event.data.type === QUERY && typeof event.data.data === "string") {
    asking.push(event.data.data)
    // Material asks an empty query as the page loads: that is no search yet
    if (mode() !== "lexical" && event.data.data.trim()) loadMeaning()
  }
}

// The model's data, fetched once (the first search starts it); then the last answer again, fused.
function loadMeaning() {
  loading ??= Promise.resolve().then(() => {
    importScripts("jitdocs-meaning.js")
    return self.jitdocsMeaning.load(new URL(MEANING_DATA, self.location.href))
  }).then(loaded => {
    meaning = loaded
    if (answered && !asking.length) post(fuse(answered))
    return meaning
  }, error => console.warn("jitdocs-search.js: searching by words alone:", error) ?? null)
  return loading
}
self.jitdocsLoadMeaning = loadMeaning  // tests/search/run_worker.js waits for it

function fuse({ query, result }) {
  const lexical = result.data.items.flat().filter(entry => entry.score > 0)
  const found = new Map(lexical.map(entry => [entry.location, entry]))
  const scores = new Map()
  const add = (location, score) => scores.set(location, (scores.get(location) ?? 0) + score)
  if (mode() !== "semantic")
    lexical.forEach(({ location }, rank) => add(location, 1 / (FUSION_K + rank + 1)))
  meaning.rank(query).slice(0, MEANING_DEPTH)
    .forEach((location, rank) => add(location, MEANING_WEIGHT / (FUSION_K + rank + 1)))
  const groups = new Map()
  for (const location of [...scores.keys()].sort((a, b) => scores.get(b) - scores.get(a))) {
    const page = location.split("#")[0]
    const entry = { ...(found.get(location) ?? plain(location)), score: scores.get(location) }
    groups.set(page, [...(groups.get(page) ?? []), entry])
  }
  for (const [page, group] of groups)  // Material lists a page's own entry in its group, at 0
    if (!group.some(entry => entry.location === page)) group.push({ ...plain(page), score: 0 })
  return { ...result, data: { ...result.data, items: [...groups.values()] } }
}
function plain(location) {
  const { title = "", text = "" } = entries.get(location) ?? {}
  return { location, title, text, terms: {} }
}

const post = lunr ? self.postMessage.bind(self) : null
if (lunr) self.postMessage = message => {
  if (message?.type !== RESULT || !asking.length) return post(message)
  answered = { query: asking.shift(), result: message }
  post(meaning && mode() !== "lexical" ? fuse(answered) : message)
}

// Zensical's engine, which the MkDocs build does not use. It has no stemmer and no word weights:
// a section is listed only if every word of the query begins a word of it, and ranked by where
// they are found (its heading, then the names of its page and part, then its text) and how
// close together.
// So a learner's question ("how do I stop jit recompiling") listed nothing: some word of it
// ("how", "do", "recompiling") is in no section that answers. The rules above that Zensical
// can take are applied to the query, as a tree of words its parser would have made: stop words
// and the site's subject dropped, Python's keywords whole words, every other word cut to a stem
// (so that it begins each of its forms) and, where the site says it otherwise, either word
// (its root after "re", a synonym). Page weights and the error message field need lunr.
const STOP_WORDS = new Set(("a an the is are was were be been being do does did how what why " +
  "when which who to of in on at by with from into about it its this that these those i my me " +
  "you your we our they them their can could should would will may might must get gets got " +
  "there than then so as has have had just also only very too any some all each every no same " +
  "other such own more most much many way ways").split(" "))
const SUBJECT_FORM = /^(jit|jax)(s|ted|ting|ed|ing)?$/  // the subject, in any form
const ENDING = /(ations?|ies|ing|ed|es|e|s)$/  // cut so that the stem begins every form
function zensicalStem(word) {
  const cut = word.replace(ENDING, "")
  return cut.length >= 4 ? cut : word
}
// Every word of the index, sorted, so that a query's word that begins none can be left out.
function indexedWords(items, separatorPattern) {
  const split = new RegExp(separatorPattern, "u")
  const words = new Set()
  for (const { title, text } of items)
    for (const word of `${title} ${text}`.replace(/<[^>]*>/g, " ").normalize("NFKD")
      .toLowerCase().split(split)) words.add(word)
  return [...words].sort()
}
function beginsSome(stem) {
  let low = 0, high = indexed.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (indexed[middle] < stem) low = middle + 1
    else high = middle
  }
  return low < indexed.length && indexed[low].startsWith(stem)
}
function beginning(data, range) {
  return { type: "value", data: { field: "*", value: { type: "prefix", data }, range } }
}
function zensicalQuery(input, separatorPattern) {
  const words = []
  const split = new RegExp(separatorPattern, "gu")
  let start = 0
  for (const found of [...input.matchAll(split), { index: input.length, 0: "" }]) {
    if (found.index > start) words.push({ word: input.slice(start, found.index), start })
    start = found.index + found[0].length
  }
  const kept = words.filter(({ word }) => {
    const bare = word.normalize("NFKD").toLowerCase()
    return KEYWORDS.has(bare) || !(STOP_WORDS.has(bare) || MORE_STOP_WORDS.has(bare) ||
      SUBJECT_FORM.test(bare))
  })
  const operands = (kept.length ? kept : words).map(({ word, start }, index) => {
    const bare = word.normalize("NFKD").toLowerCase()
    const range = { start, end: start + word.length, value: index }
    if (KEYWORDS.has(bare)) return { type: "value", data: { field: "*", value: bare, range } }
    const stem = zensicalStem(bare)
    const prefixed = /^re(.{4,})$/.exec(stem)
    const others = [...(prefixed ? [prefixed[1]] : []),
      ...(SYNONYMS[bare] ?? SYNONYMS[stem] ?? []).map(zensicalStem)]
    const either = [stem, ...others].filter(beginsSome).map(one => beginning(one, range))
    if (either.length < 2) return either[0]
    return { type: "operator", data: { operator: "or", operands: either } }
  }).filter(Boolean)
  return { type: "operator", data: { operator: "and", operands } }
}

// A query whose words no section holds all of is asked again with fewer of them: every way of
// leaving out one word, then two..., and the first number left that lists anything answers,
// with the choice that lists the most sections (its words go together in the site's text).
// Without it, a question of six words was likely to list nothing. At most ASKS more questions
// (a pasted message of twelve words could take thousands), then it lists nothing.
const ASKS = 200
function relaxing(post) {
  let answers = null  // while asking again: the worker's answers, kept from the page
  return message => {
    if (answers) return void answers.push(message)
    const words = asked?.input?.data?.operands ?? []
    if (message?.type !== 3 || message.data.items.length || words.length < 2 || asked.page)
      return post(message)
    const ask = input => {
      answers = []
      self.onmessage({ data: { type: 2, data: { ...asked, input } } })
      const [reply] = answers
      answers = null
      return reply?.type === 3 ? reply.data.pagination.total : 0
    }
    let budget = ASKS
    for (let left = words.length - 1; left > 0 && budget > 0; left--) {
      let best = { listed: 0 }
      for (const operands of subsets(words, left).slice(0, budget)) {
        budget--
        const input = { type: "operator", data: { operator: "and", operands } }
        const listed = ask(input)
        if (listed > best.listed) best = { listed, input }
      }
      if (best.listed) {  // asked once more, answering: the worker keeps it for the next pages
        self.onmessage({ data: { type: 2, data: { ...asked, input: best.input } } })
        return
      }
    }
    post(message)
  }
}
function subsets(items, size) {
  if (size === 0) return [[]]
  if (items.length < size) return []
  const [first, ...rest] = items
  return [...subsets(rest, size - 1).map(some => [first, ...some]), ...subsets(rest, size)]
}
if (!lunr) self.postMessage = relaxing(self.postMessage.bind(self))

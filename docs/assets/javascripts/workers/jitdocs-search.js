// The site's search worker: Material for MkDocs' own worker (its file is named in this script's
// query string, `?material=search.<hash>.min.js`: engine/site/overrides/main.html points the page
// here), with one change in how it reads a query. Material gives each word typed a trailing
// wildcard, so that a word still being typed matches; and lunr runs no pipeline on a wildcard
// word. So the index's words went through mkdocs.yml's search pipeline (stop words dropped,
// stemmed) and the query's did not: "recompiling*" never met the stem "recompil", and "a*" or
// "how*" matched every word that starts so, outweighing the words that carry the question.
// Here each wildcard word goes through the same pipeline first: a stop word is dropped (unless
// nothing else is left), any other word is stemmed and keeps its wildcard. Material reads the
// parsed query (and so the words it marks as found, and highlights) through the same parser.
"use strict"

let pipeline = []  // the index's pipeline, from the set-up message (mkdocs.yml: search: pipeline)
addEventListener("message", event => {
  if (!event.data || event.data.type !== 0) return  // not the set-up message
  pipeline = event.data.data.config.pipeline || []
  weighPagesAsSections(event.data.data.docs)
})

// Material multiplies a page's own entry (the text above its first section) by about 2.5 over
// its sections' (`1 + boost ** 2`, where a page's boost starts at 1): so for any question the
// page's opening came first, above the section that answers it. Its lunr boost here undoes that.
const PAGE_WEIGHT = 0.4
function weighPagesAsSections(docs) {
  for (const doc of docs)
    if (!doc.location.includes("#")) doc.boost = (doc.boost ?? 1) * PAGE_WEIGHT
}

const material = new URLSearchParams(self.location.search).get("material") || ""
if (!/^search\.[0-9a-f]+\.min\.js$/.test(material))
  throw new Error(`jitdocs-search.js: no Material search worker named (${material})`)
importScripts(material)

const lunr = self.lunr
const WILDCARD_WORD = /^([^*]+)\*$/

// The word as the index holds it, or undefined for a stop word (lunr's own functions, in the
// pipeline's order).
function asIndexed(word) {
  let token = new lunr.Token(word, {})
  for (const name of ["trimmer", "stopWordFilter", "stemmer"]) {
    if (!pipeline.includes(name)) continue
    token = lunr[name](token)
    if (!token) return undefined
  }
  return token.toString()
}

function readAsIndexed(query) {
  const read = query.clauses.map(clause => {
    const word = WILDCARD_WORD.exec(clause.term)
    if (!word || clause.usePipeline) return clause  // lunr runs the pipeline on it itself
    const indexed = asIndexed(word[1])
    return indexed ? { ...clause, term: `${indexed}*` } : undefined  // "": all trimmed away
  })
  if (read.some(clause => clause !== undefined))
    query.clauses = read.filter(clause => clause !== undefined)
}

const parse = lunr.QueryParser.prototype.parse
lunr.QueryParser.prototype.parse = function () {
  const query = parse.call(this)
  readAsIndexed(query)
  return query
}

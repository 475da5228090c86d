// Runs the built site's own search worker (the script its pages start, named in their __config,
// with its query string) under Node, with the few globals a Web Worker has, and answers queries
// as the search box does: Material's (MkDocs' build) or Zensical's, which the site's index file
// tells apart (search/search_index.json or search.json).
// Usage: node run_worker.js <site folder> [lexical|semantic|fused]  (queries as a JSON list on
// stdin; a JSON list of results on stdout: for each query, the worker's result groups, one per
// page, best first). Material's worker ranks by words and meaning fused, as readers get it, unless
// a ranking is named; the meaning's data is loaded before the first query is asked.
"use strict"
const fs = require("fs")
const path = require("path")
const vm = require("vm")
const { pathToFileURL, fileURLToPath } = require("url")

const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3  // Material's SearchMessageType; Zensical's alike

function workerPath(site) {
  const html = fs.readFileSync(path.join(site, "index.html"), "utf8")
  const config = html.match(/<script id="__config" type="application\/json">(.*?)<\/script>/s)
  if (!config) throw new Error(`${site}/index.html: no __config script`)
  const [file, query = ""] = JSON.parse(config[1]).search.split("?")
  return { file: path.join(site, file), search: query ? `?${query}` : "" }
}

// The browser's fetch, for the site's own files only (the worker asks for no other).
async function fetchFile(url) {
  const file = fileURLToPath(url)
  const ok = fs.existsSync(file)
  const body = ok ? fs.readFileSync(file) : Buffer.alloc(0)
  return {
    ok, status: ok ? 200 : 404,
    text: async () => body.toString("utf8"),
    json: async () => JSON.parse(body.toString("utf8")),
    arrayBuffer: async () => body.buffer.slice(body.byteOffset, body.byteOffset + body.length),
  }
}

function startWorker({ file, search }, mode) {
  const listeners = []
  const replies = []
  const scope = {
    console, setTimeout, clearTimeout, URL, URLSearchParams, TextEncoder, TextDecoder, atob,
    location: { search, href: pathToFileURL(file).href + search }, fetch: fetchFile,
    jitdocsSearchMode: mode,
    addEventListener: (type, fn) => { if (type === "message") listeners.push(fn) },
    postMessage: message => replies.push(message),
    importScripts: (...urls) => {
      for (const url of urls) vm.runInContext(fs.readFileSync(path.resolve(path.dirname(file), url), "utf8"), scope)
    },
  }
  scope.self = scope
  vm.createContext(scope)
  vm.runInContext(fs.readFileSync(file, "utf8"), scope, { filename: file })
  async function send(message) {
    const before = replies.length
    for (const fn of [...listeners, scope.onmessage]) if (fn) await fn({ data: message })
    while (replies.length === before) await new Promise(resolve => setImmediate(resolve))
    return replies[replies.length - 1]
  }
  return { send, scope }
}

// Zensical's worker lists sections, best first, ten to a page of results (the box shows ten, then
// more as the reader scrolls): here the first ten, in groups of one page each, in the order each
// page first appears, so that the suite reads them as it reads Material's groups. It scores
// nothing: listed is found.
async function zensical(send, index, queries) {
  const ready = await send({ type: SETUP, data: index })
  if (ready.type !== READY) throw new Error(`the worker answered setup with ${JSON.stringify(ready)}`)
  const answers = []
  for (const input of queries) {
    const reply = await send({ type: QUERY, data: { input } })  // the box sends its words so
    if (reply.type !== RESULT) throw new Error(`the worker answered ${input} with type ${reply.type}`)
    const groups = new Map()
    for (const { id } of reply.data.items) {
      const { location, title } = index.items[id]
      const page = location.split("#")[0]
      if (!groups.has(page)) groups.set(page, [])
      groups.get(page).push({ location, title, score: 1 })
    }
    answers.push([...groups.values()])
  }
  return answers
}

async function main() {
  const site = process.argv[2]
  const mode = process.argv[3] || "fused"
  if (!["lexical", "semantic", "fused"].includes(mode)) throw new Error(`no ranking ${mode}`)
  const queries = JSON.parse(fs.readFileSync(0, "utf8"))
  const { send, scope } = startWorker(workerPath(site), mode)
  const ownIndex = path.join(site, "search.json")  // Zensical's
  if (fs.existsSync(ownIndex)) {
    const index = JSON.parse(fs.readFileSync(ownIndex, "utf8"))
    process.stdout.write(JSON.stringify(await zensical(send, index, queries)))
    return
  }
  const index = JSON.parse(fs.readFileSync(path.join(site, "search", "search_index.json"), "utf8"))
  // As the page's script sends it (Material's setupSearchWorker): the index, and its options.
  const options = { suggest: false }  // mkdocs.yml does not turn on search.suggest
  const ready = await send({ type: SETUP, data: { config: index.config, docs: index.docs, options } })
  if (ready.type !== READY) throw new Error(`the worker answered setup with ${JSON.stringify(ready)}`)
  if (mode !== "lexical" && !(await scope.jitdocsLoadMeaning()))
    throw new Error("the worker could not load the data of its ranking by meaning")
  const answers = []
  for (const query of queries) {
    const reply = await send({ type: QUERY, data: query })
    if (reply.type !== RESULT) throw new Error(`the worker answered ${query} with type ${reply.type}`)
    answers.push(reply.data.items.map(group => group.map(({ location, title, score }) =>
      ({ location, title, score }))))
  }
  process.stdout.write(JSON.stringify(answers))
}

main().catch(error => { console.error(error); process.exit(1) })

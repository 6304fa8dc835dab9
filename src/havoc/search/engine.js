// havoc search in the browser: the same query as havoc/search/query.py, step by step.
//
// Needs EnglishStemmer and PolishStemmer (Snowball's JavaScript stemmers, which the build puts
// before this file) and an index written by havoc.search.site.site_parts. Every number that
// decides a ranking (each key's BM25F score per document, the typo and prefix weights, the
// stopwords) comes from the index, so Python and JavaScript add up the same numbers; a test runs
// both over the query set and compares the rankings.
/* exported HavocSearchEngine */
var HavocSearchEngine = (function () {
  "use strict";

  var WORD = /[\p{L}\p{N}]+/gu;
  var MARKS = /[\u0300-\u036f]/g;
  // a rule number as the numbering writes it ("11.4", "3.1s", "s1.2", "e3"), after folding
  var NUMBER = /^§?([0-9]+(?:\.[0-9]+)+[a-z]?|[a-z][0-9]+(?:\.[0-9]+)*)$/;
  var NUMBER_TRIM = /^[.,;:!?()]+|[.,;:!?()]+$/g;

  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(MARKS, "").normalize("NFC").replace(/ł/g, "l");
  }

  function words(text) {
    return text.normalize("NFC").toLowerCase().match(WORD) || [];
  }

  function spans(text) {
    var out = [];
    var re = new RegExp(WORD.source, "gu");
    var m;
    while ((m = re.exec(text)) !== null) out.push([m.index, m.index + m[0].length, m[0].toLowerCase()]);
    return out;
  }

  function edit1(a, b) {
    var la = a.length, lb = b.length;
    if (a === b || Math.abs(la - lb) > 1) return false;
    var i = 0;
    while (i < Math.min(la, lb) && a[i] === b[i]) i++;
    if (la === lb) {
      if (a.slice(i + 1) === b.slice(i + 1)) return true;
      return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    }
    if (la < lb) return a.slice(i) === b.slice(i + 1);
    return a.slice(i + 1) === b.slice(i);
  }

  function has(obj, key) {
    return Object.prototype.hasOwnProperty.call(obj, key);
  }

  // the postings as the site ships them ("packed": gaps between documents, scores in thousandths)
  function unpack(packed) {
    var out = Object.create(null);
    Object.keys(packed).forEach(function (k) {
      var row = packed[k], post = new Array(row.length), d = 0;
      for (var j = 0; j < row.length; j += 2) { d += row[j]; post[j] = d; post[j + 1] = row[j + 1] / 1000; }
      out[k] = post;
    });
    return out;
  }

  // the site's documents ([id, kind, page number, title, section number, text, anchor if not the id])
  function expandDocs(data) {
    return data.docs.map(function (d) {
      return [d[0], d[1], data.pages[d[2]] + "#" + (d.length > 6 ? d[6] : d[0]), d[3], data.sections[d[4]], d[5]];
    });
  }

  var VLQ = {};
  "0123456789ABCDEFGHIJKLMNOPQRSTUV".split("").forEach(function (c, i) { VLQ[c] = i; });
  "abcdefghijklmnopqrstuvwxyz!$()*+".split("").forEach(function (c, i) { VLQ[c] = 32 + i; });

  // the numbers havoc.search.site.vlq packed into a string (base 32, a last digit ends a number)
  function unvlq(text) {
    var out = [], n = 0;
    for (var i = 0; i < text.length; i++) {
      var v = VLQ[text[i]];
      n = n * 32 + (v & 31);
      if (v < 32) { out.push(n); n = 0; }
    }
    return out;
  }

  // the rules' display numbers ([documents' gaps, the numbers joined by spaces]) -> number: document
  function expandNumbers(packed) {
    var out = {}, gaps = unvlq(packed[0]), names = packed[1] ? packed[1].split(" ") : [], d = 0;
    for (var i = 0; i < gaps.length; i++) { d += gaps[i]; out[names[i]] = d; }
    return out;
  }

  // One key's score in one document: havoc.search.query.bm25f, operation by operation (the same
  // doubles in the same order), rounded half up on the exact value as Python's index does.
  function bm25f(counts, lengths, at, avg, idf, boost, p) {
    var tf = 0.0;
    for (var f = 0; f < counts.length; f++) {
      var c = counts[f];
      if (c) tf += p.field_weights[f] * c / (1 - p.b + p.b * lengths[at + f] / avg[f]);
    }
    var raw = boost * idf * tf * (p.k1 + 1) / (p.k1 + tf);
    return Number(raw.toFixed(3));
  }

  // One key's postings from the site's tallies (havoc.search.query.unpack_tallies): its document
  // frequency first (the index lists each frequency's idf), then (document gap, tally) pairs.
  Engine.prototype.unpackRow = function (packed) {
    var p = this.params, t0 = this.data.tallies, n = t0.avg.length, docs = this.docs;
    var row = unvlq(packed), idf = t0.idf[String(row[0])], post = new Array(row.length - 1), d = 0;
    for (var j = 1; j < row.length; j += 2) {
      d += row[j];
      post[j - 1] = d;
      post[j] = bm25f(t0.patterns[row[j + 1]], this.lengths, n * d, t0.avg, idf, p.kind_boost[docs[d][1]], p);
    }
    return post;
  };

  // A key's postings [document, score, ...]: a row is unpacked when a query first needs it (a
  // phone then computes the scores of a few keys, not of the whole index, before it answers).
  Engine.prototype.postingOf = function (key) {
    if (has(this.postings, key)) return this.postings[key];
    if (!has(this.rows, key)) return [];
    return (this.postings[key] = this.unpackRow(this.rows[key]));
  };

  Engine.prototype.hasKey = function (key) {
    return has(this.postings, key) || has(this.rows, key);
  };

  function Engine(data) {
    this.lang = data.lang;
    this.data = data;
    this.docs = data.pages ? expandDocs(data) : data.docs;
    this.rows = Object.create(null); // key -> its packed row, not yet unpacked
    if (data.tallies) {
      var t0 = data.tallies;
      this.lengths = typeof t0.lengths === "string" ? unvlq(t0.lengths) : t0.lengths;
      Object.assign(this.rows, t0.rows);
    }
    this.postings = data.postings || (data.tallies ? Object.create(null) : unpack(data.packed));
    this.more = data.more || null; // the other language's words, not yet loaded (havoc-searchindex-more.js)
    this.moreWords = {};
    this.moreKeys = {};
    var i;
    for (i = 0; i < (data.more_words || []).length; i++) this.moreWords[data.more_words[i]] = true;
    for (i = 0; i < (data.more_keys || []).length; i++) this.moreKeys[data.more_keys[i]] = true;
    this.vocab = data.more ? Object.assign({}, data.vocab) : data.vocab; // addMore adds to it, not to data
    this.words = Object.keys(data.vocab).sort();
    this.phrases = data.phrases;
    this.variants = data.variants || {};
    this.after = data.after || {};
    this.termNames = data.term_names || {}; // a glossary term's names, folded -> its document
    this.numbers = Array.isArray(data.numbers) ? expandNumbers(data.numbers) : data.numbers || {};
    this.params = data.params;
    this.stop = {};
    for (var i = 0; i < data.stopwords.length; i++) this.stop[data.stopwords[i]] = true;
    this.stemmers = { pl: new PolishStemmer(), en: new EnglishStemmer() };
  }

  // Whether the query has a word this index does not know yet: then the page loads the rest
  // (this.more) and calls addMore first; a query in the site's language never needs it.
  // Exactly when wordKeys would reach what the rest holds: a word of it, a stem that is one of
  // its keys or words, a typo or a prefix of one of its words.
  Engine.prototype.needsMore = function (query) {
    if (!this.more) return false;
    var self = this, p = this.params;
    var ws = words(this.splitNumbers(query)[1]).filter(function (w) { return !self.isStopword(w); });
    ws = ws.slice(0, p.max_words);
    return ws.some(function (w, k) {
      var f = fold(w);
      if (has(self.vocab, f) && self.vocab[f].length) return false; // all its keys are here
      if (has(self.moreWords, f)) return true;
      var stems = /^\p{N}+$/u.test(w) ? [w] : [fold(self.stemmers.pl.stemWord(w)), fold(self.stemmers.en.stemWord(w))];
      var found = false;
      for (var i = 0; i < stems.length; i++) {
        var s = stems[i];
        if (self.hasKey(s)) found = true;
        else if (has(self.moreKeys, s) || has(self.moreWords, s)) return true;
        else if (has(self.vocab, s) && self.vocab[s].length) found = true;
      }
      if (found) return false;
      var rest = Object.keys(self.moreWords);
      if (f.length >= p.typo_min && rest.some(function (m) { return edit1(f, m); })) return true;
      return k === ws.length - 1 && f.length >= p.prefix_min && rest.some(function (m) { return m.indexOf(f) === 0; });
    });
  };

  // The rest of the index (window.HAVOC_SEARCH_MORE): the other language's words and their postings.
  Engine.prototype.addMore = function (more) {
    var self = this;
    Object.keys(more.vocab).forEach(function (w) { self.vocab[w] = more.vocab[w]; });
    Object.assign(this.rows, more.tallies.rows);
    this.words = Object.keys(this.vocab).sort();
    this.more = null;
    this.moreWords = {};
    this.moreKeys = {};
  };

  Engine.prototype.isStopword = function (w) {
    return has(this.stop, fold(w));
  };

  Engine.prototype.prefixed = function (f) {
    var lo = 0, hi = this.words.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (this.words[mid] < f) lo = mid + 1;
      else hi = mid;
    }
    var out = [];
    for (var i = lo; i < this.words.length && this.words[i].indexOf(f) === 0 && out.length < this.params.prefix_limit; i++) {
      out.push(this.words[i]);
    }
    return out;
  };

  Engine.prototype.wordKeys = function (word, last) {
    var f = fold(word), self = this, p = this.params, out = [], i, j;
    if (has(this.vocab, f) && this.vocab[f].length) {
      return this.vocab[f].map(function (k) { return [k, 1.0]; });
    }
    var stems = /^\p{N}+$/u.test(word) ? [word] : [fold(this.stemmers.pl.stemWord(word)), fold(this.stemmers.en.stemWord(word))];
    var seenStem = {};
    for (i = 0; i < stems.length; i++) {
      var s = stems[i];
      if (has(seenStem, s)) continue;
      seenStem[s] = true;
      if (this.hasKey(s)) out.push([s, 1.0]);
      else if (has(this.vocab, s)) for (j = 0; j < this.vocab[s].length; j++) out.push([this.vocab[s][j], 1.0]);
    }
    if (!out.length && f.length >= p.typo_min) {
      this.words.forEach(function (w) {
        if (edit1(f, w)) self.vocab[w].forEach(function (k) { out.push([k, p.typo_weight]); });
      });
    }
    if (!out.length && last && f.length >= p.prefix_min) {
      this.prefixed(f).forEach(function (w) {
        self.vocab[w].forEach(function (k) { out.push([k, p.prefix_weight]); });
      });
    }
    var seen = {}, result = [];
    for (i = 0; i < out.length; i++) {
      if (!has(seen, out[i][0])) {
        seen[out[i][0]] = true;
        result.push(out[i]);
      }
    }
    return result;
  };

  // The rules whose display numbers the query types, and the query without them.
  Engine.prototype.splitNumbers = function (query) {
    var found = [], rest = [], chunks = query.split(/\s+/), i;
    for (i = 0; i < chunks.length; i++) {
      if (!chunks[i]) continue;
      var m = NUMBER.exec(fold(chunks[i]).replace(NUMBER_TRIM, ""));
      if (m && has(this.numbers, m[1]) && found.indexOf(this.numbers[m[1]]) < 0) found.push(this.numbers[m[1]]);
      else rest.push(chunks[i]);
    }
    return [found, rest.join(" ")];
  };

  // Returns [{doc, score, keys}] best first, one per rule.
  Engine.prototype.search = function (query, limit) {
    var self = this, i, j, m;
    if (limit === undefined) limit = 10;
    var split = this.splitNumbers(query), numbered = split[0];
    var ws = words(split[1]).filter(function (w) { return !self.isStopword(w); }).slice(0, this.params.max_words);
    if ((!ws.length && !numbered.length) || limit <= 0) return [];
    var alts = ws.map(function (w, k) { return self.wordKeys(w, k === ws.length - 1); });
    var keySets = alts.map(function (a) {
      var s = {};
      a.forEach(function (kw) { s[kw[0]] = true; });
      return s;
    });
    var extra = [], spans = {}; // concept -> [first word, words] of its phrase's first match
    for (i = 0; i < this.phrases.length; i++) {
      var keys = this.phrases[i][0], concept = this.phrases[i][1], n = keys.length;
      for (var start = 0; start + n <= ws.length; start++) {
        var all = true;
        for (m = 0; m < n; m++) if (!has(keySets[start + m], keys[m])) { all = false; break; }
        if (all) {
          if (!has(spans, concept)) { extra.push(concept); spans[concept] = [start, n]; }
          break;
        }
      }
    }
    var total = new Map(), covered = new Map(), bests = [];
    alts.forEach(function (a) {
      var best = new Map();
      a.forEach(function (kw) {
        var post = self.postingOf(kw[0]);
        for (j = 0; j < post.length; j += 2) {
          var d = post[j], s = kw[1] * post[j + 1];
          if (s > (best.has(d) ? best.get(d) : 0.0)) best.set(d, s);
        }
      });
      bests.push(best);
      best.forEach(function (s, d) {
        total.set(d, (total.has(d) ? total.get(d) : 0.0) + s);
        covered.set(d, (covered.has(d) ? covered.get(d) : 0) + 1);
      });
    });
    // a phrase covers its words: "liczba graczy" finds the rule it names, whatever its words
    var credited = new Map();
    extra.forEach(function (c) {
      var post = self.postingOf(c), span = spans[c];
      for (j = 0; j < post.length; j += 2) {
        var d = post[j];
        total.set(d, (total.has(d) ? total.get(d) : 0.0) + post[j + 1]);
        if (!covered.has(d)) covered.set(d, 0);
        if (!credited.has(d)) credited.set(d, {});
        for (var p = span[0]; p < span[0] + span[1]; p++) if (!bests[p].has(d)) credited.get(d)[p] = true;
      }
    });
    credited.forEach(function (ps, d) { covered.set(d, covered.get(d) + Object.keys(ps).length); });
    // the glossary term whose name the whole query is ("HQ", "sztab", "Trog Nest"), shown first
    var named = {}, name = ws.map(fold).filter(function (w, k, all) { return all.indexOf(w) === k; }).join(" ");
    if (has(this.termNames, name)) named[this.termNames[name]] = true;
    var folded = {}, demoted = {}, preferred = {};
    ws.forEach(function (w) { folded[fold(w)] = true; });
    function namedBy(group) {
      return group.names.some(function (name) { return name.every(function (w) { return has(folded, w); }); });
    }
    Object.keys(this.variants).forEach(function (vid) {
      var v = self.variants[vid], target = namedBy(v) ? preferred : demoted;
      v.docs.forEach(function (d) { target[d] = true; });
    });
    var amending = {}; // shown a little after the base rules (errata …) unless the query asks for them
    Object.keys(this.after).forEach(function (gid) {
      var g = self.after[gid], target = namedBy(g) ? preferred : amending;
      g.docs.forEach(function (d) { target[d] = true; });
    });
    var ranked = [], weight = this.params.variant_weight, termWeight = this.params.term_part_weight;
    var n = ws.length, most = 0, floor = [], c;
    for (c = 0; c < n + 2; c++) floor.push(0.0);
    covered.forEach(function (k) { if (k > most) most = k; });
    total.forEach(function (t, d) {
      var k = covered.get(d), r = k / n, s = t * (r * r);
      // a question of more words than the term is answered by a rule
      if ((k < most || most >= self.params.term_question_words) && self.docs[d][1] === "term") s = s * termWeight;
      if (has(preferred, d)) s = s * self.params.named_weight;
      if (has(amending, d)) s = s * self.params.after_weight;
      if (has(demoted, d)) s = s * weight;
      else if (floor[k] === 0.0 || s < floor[k]) floor[k] = s;
      ranked.push([s, d]);
    });
    // the lowest score of a base document covering at least c words
    for (c = n - 1; c > 0; c--) {
      if (floor[c + 1] !== 0.0 && (floor[c] === 0.0 || floor[c + 1] < floor[c])) floor[c] = floor[c + 1];
    }
    // a variant's document ranks below every base document that covers as many words
    ranked.forEach(function (sd) {
      var f = floor[covered.get(sd[1])];
      if (has(demoted, sd[1]) && f) sd[0] = Math.min(sd[0], f * self.params.floor_share);
    });
    ranked.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    var top = ranked.length ? ranked[0][0] : 0.0;
    // first the rules typed by number, then the terms the query names, then the rest
    var front = numbered.slice();
    ranked.forEach(function (sd) { if (has(named, sd[1]) && numbered.indexOf(sd[1]) < 0) front.push(sd[1]); });
    ranked = front.map(function (d, k) { return [top + front.length - k, d]; }).concat(ranked);
    var qkeys = {};
    alts.forEach(function (a) { a.forEach(function (kw) { qkeys[kw[0]] = true; }); });
    extra.forEach(function (c) { qkeys[c] = true; });
    var out = [], seenRule = {};
    for (i = 0; i < ranked.length && out.length < limit; i++) {
      var ruleId = this.docs[ranked[i][1]][0];
      if (ranked[i][0] <= 0 || has(seenRule, ruleId)) continue;
      seenRule[ruleId] = true;
      out.push({ doc: ranked[i][1], score: ranked[i][0], keys: qkeys });
    }
    return out;
  };

  // A window of text around its matched words: [snippet, [[start, end], ...]].
  Engine.prototype.snippet = function (text, keys, width) {
    var self = this;
    if (width === undefined) width = 200;
    var toks = spans(text);
    var hits = toks.filter(function (t) {
      var f = fold(t[2]);
      return has(self.vocab, f) && self.vocab[f].some(function (k) { return has(keys, k); });
    });
    var start = 0, end = text.length, i;
    if (text.length > width) {
      var best = 0, bestN = -1;
      hits.forEach(function (h) {
        var n = 0;
        hits.forEach(function (h2) { if (h2[0] >= h[0] && h2[1] <= h[0] + width - 40) n++; });
        if (n > bestN) { best = h[0]; bestN = n; }
      });
      var begin = Math.max(0, best - 40);
      start = 0;
      if (begin > 0) {
        for (i = 0; i < toks.length; i++) if (toks[i][0] >= begin) { start = toks[i][0]; break; }
      }
      var lastEnd = -1;
      for (i = 0; i < toks.length; i++) if (toks[i][1] <= start + width) lastEnd = toks[i][1];
      end = lastEnd >= 0 ? lastEnd : Math.min(text.length, start + width);
      if (end < text.length && ".,;:!?)".indexOf(text[end]) >= 0) end = Math.min(text.length, end + 1);
    }
    var prefix = start > 0 ? "…" : "", suffix = end < text.length ? "…" : "";
    var shift = prefix.length - start;
    var marks = hits.filter(function (h) { return h[0] >= start && h[1] <= end; }).map(function (h) { return [h[0] + shift, h[1] + shift]; });
    return [prefix + text.slice(start, end) + suffix, marks];
  };

  return { Engine: Engine, fold: fold, words: words, edit1: edit1, unvlq: unvlq };
})();
if (typeof module !== "undefined") module.exports = HavocSearchEngine;

/* Sphinx's doctools.js compiles a language's plural rule (gettext's C expression, e.g. Polish
 * "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)") with new Function(),
 * which the site's Content-Security-Policy refuses (no 'unsafe-eval'): the Polish pages threw an
 * EvalError and kept no locale. This file runs after doctools.js and before translations.js and
 * reads the rule with a small parser of that grammar instead (n, integers, ! * / % + - < > <= >=
 * == != && || ?: and parentheses); anything else falls back to English's rule. */
(function () {
  "use strict";
  if (typeof Documentation === "undefined") return;

  function compile(text) {
    var tokens = text.match(/n|\d+|<=|>=|==|!=|&&|\|\||[-+*\/%<>!?:()]|\S/g) || [];
    var at = 0;
    function peek() { return tokens[at]; }
    function take(t) { if (tokens[at] !== t) throw new Error("plural rule: expected " + t); at += 1; }
    function binary(next, ops) {
      return function () {
        var left = next();
        while (ops.hasOwnProperty(peek())) {
          var op = ops[tokens[at++]], right = next();
          left = (function (l, r, f) { return function (n) { return f(l(n), r(n)); }; })(left, right, op);
        }
        return left;
      };
    }
    function unary() {
      var t = tokens[at++];
      if (t === "!") { var inner = unary(); return function (n) { return inner(n) ? 0 : 1; }; }
      if (t === "-") { var neg = unary(); return function (n) { return -neg(n); }; }
      if (t === "(") { var e = expr(); take(")"); return e; }
      if (t === "n") return function (n) { return n; };
      if (/^\d+$/.test(t || "")) { var v = Number(t); return function () { return v; }; }
      throw new Error("plural rule: unexpected " + t);
    }
    var num = function (b) { return b ? 1 : 0; };
    var mul = binary(unary, {"*": function (a, b) { return a * b; }, "/": function (a, b) { return Math.trunc(a / b); }, "%": function (a, b) { return a % b; }});
    var add = binary(mul, {"+": function (a, b) { return a + b; }, "-": function (a, b) { return a - b; }});
    var rel = binary(add, {"<": function (a, b) { return num(a < b); }, ">": function (a, b) { return num(a > b); }, "<=": function (a, b) { return num(a <= b); }, ">=": function (a, b) { return num(a >= b); }});
    var eq = binary(rel, {"==": function (a, b) { return num(a === b); }, "!=": function (a, b) { return num(a !== b); }});
    var and = binary(eq, {"&&": function (a, b) { return num(a && b); }});
    var or = binary(and, {"||": function (a, b) { return num(a || b); }});
    function expr() {
      var cond = or();
      if (peek() !== "?") return cond;
      at += 1;
      var yes = expr();
      take(":");
      var no = expr();
      return function (n) { return cond(n) ? yes(n) : no(n); };
    }
    var rule = expr();
    if (at !== tokens.length) throw new Error("plural rule: trailing " + tokens[at]);
    return rule;
  }

  Documentation.addTranslations = function (catalog) {
    Object.assign(Documentation.TRANSLATIONS, catalog.messages);
    var rule;
    try { rule = compile(String(catalog.plural_expr)); } catch (e) { rule = function (n) { return n === 1 ? 0 : 1; }; }
    Documentation.PLURAL_EXPR = function (n) { return Number(rule(n)); };
    Documentation.LOCALE = catalog.locale;
  };
  Documentation.havocPluralRule = compile;  // for the tests
})();

// Unit tests of the cat lexer, parser and include loader (trees, docs, includes, error positions).
#include "../unit/RequireInputError.hpp"
#include "../unit/TempDir.hpp"
#include "cat/EmbeddedModel.hpp"
#include "cat/Loader.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <string>

using namespace ptxmc;
using namespace ptxmc::cat;
namespace fs = std::filesystem;
using testing::TempDir;

namespace {

/** Fully parenthesized prefix form, so a test states the exact tree it expects. */
std::string sx(const Expr& e) {
    const char* op = "";
    switch (e.op) {
    case Expr::Op::Name:
        return e.name;
    case Expr::Op::Empty:
        return "0";
    case Expr::Op::Universe:
        return "_";
    case Expr::Op::Union:
        op = "|";
        break;
    case Expr::Op::Inter:
        op = "&";
        break;
    case Expr::Op::Diff:
        op = "\\";
        break;
    case Expr::Op::Seq:
        op = ";";
        break;
    case Expr::Op::Cartesian:
        op = "cart";
        break;
    case Expr::Op::Complement:
        op = "~";
        break;
    case Expr::Op::Inverse:
        op = "inv";
        break;
    case Expr::Op::Plus:
        op = "+";
        break;
    case Expr::Op::Star:
        op = "star";
        break;
    case Expr::Op::Opt:
        op = "?";
        break;
    case Expr::Op::Bracket:
        op = "[]";
        break;
    case Expr::Op::Reading:
        return "(reading " + e.name + " " + sx(*e.args.at(0)) + " " + sx(*e.args.at(1)) + ")";
    case Expr::Op::Domain:
        op = "domain";
        break;
    case Expr::Op::Range:
        op = "range";
        break;
    }
    std::string s = std::string("(") + op;
    for (const ExprPtr& a : e.args)
        s += " " + sx(*a);
    return s + ")";
}

Model parse(const std::string& text) {
    return parseModelText(text, "t.cat");
}

/** The tree of `text` parsed as the right-hand side of a let. */
std::string tree(const std::string& text) {
    Model m = parse("let x = " + text);
    REQUIRE(m.stmts.size() == 1);
    return sx(*m.stmts[0].bindings.at(0).expr);
}

/** Parses `text` expecting an InputError at line:col whose message contains `part`. */
void requireError(const std::string& text, int line, int col, const std::string& part) {
    testing::requireInputError([&] { parse(text); }, text, "t.cat", line, col, part);
}

std::vector<std::string> letNames(const Model& m) {
    std::vector<std::string> names;
    for (const Stmt& s : m.stmts)
        for (const Binding& b : s.bindings)
            names.push_back(b.name);
    return names;
}

} // namespace

TEST_CASE("cat: binary operator precedence follows herd", "[cat]") {
    // `&` binds tighter than `\` (herd: %left DIFF below %right INTER).
    CHECK(tree("a | b ; c \\ d & e") == "(| a (; b (\\ c (& d e))))");
    CHECK(tree("a | b ; (c \\ d) & e") == "(| a (; b (& (\\ c d) e)))");
    CHECK(tree("a & b ; c") == "(; (& a b) c)");
    CHECK(tree("a ; b | c ; d") == "(| (; a b) (; c d))");
    CHECK(tree("a \\ b ; c") == "(; (\\ a b) c)");
    CHECK(tree("(a | b) ; c") == "(; (| a b) c)");
}

TEST_CASE("cat: chains and associativity", "[cat]") {
    CHECK(tree("a | b | c") == "(| a b c)");
    CHECK(tree("a ; b ; c ; d") == "(; a b c d)");
    CHECK(tree("(a | b) | c") == "(| (| a b) c)");
    CHECK(tree("a \\ b \\ c") == "(\\ (\\ a b) c)");
    CHECK(tree("a & b & c") == "(& (& a b) c)");
    CHECK(tree("A * B * C") == "(cart (cart A B) C)");
    CHECK(tree("((a))") == "a");
}

TEST_CASE("cat: prefix and postfix operators", "[cat]") {
    CHECK(tree("a;b^-1") == "(; a (inv b))");
    CHECK(tree("~a+") == "(~ (+ a))");
    CHECK(tree("~a^-1") == "(~ (inv a))");
    CHECK(tree("~~a") == "(~ (~ a))");
    CHECK(tree("a^-1+") == "(+ (inv a))");
    CHECK(tree("a+?") == "(? (+ a))");
    CHECK(tree("(a | b)^-1") == "(inv (| a b))");
    CHECK(tree("a | b+") == "(| a (+ b))");
    CHECK(tree("a & ~b") == "(& a (~ b))");
    CHECK(tree("a? ; b") == "(; (? a) b)");
}

TEST_CASE("cat: cartesian product versus reflexive-transitive closure", "[cat]") {
    CHECK(tree("A * B") == "(cart A B)");
    CHECK(tree("A*B") == "(cart A B)");
    CHECK(tree("r*") == "(star r)");
    CHECK(tree("r* ; s") == "(; (star r) s)");
    CHECK(tree("(r)* | s") == "(| (star r) s)");
    CHECK(tree("r** ") == "(star (star r))");
    CHECK(tree("r* * B") == "(cart (star r) B)");
    CHECK(tree("A * _") == "(cart A _)");
    CHECK(tree("A * 0") == "(cart A 0)");
    CHECK(tree("A * (B | C)") == "(cart A (| B C))");
    CHECK(tree("A * [B]") == "(cart A ([] B))");
    CHECK(tree("A * ~B") == "(cart A (~ B))");
    CHECK(tree("A * domain(r)") == "(cart A (domain r))");
    CHECK(tree("A * range(r)") == "(cart A (range r))");
    CHECK(tree("A * B & C") == "(& (cart A B) C)");
    CHECK(tree("a * b+") == "(cart a (+ b))");
    CHECK(tree("~A * B") == "(cart (~ A) B)");
    // A statement keyword after `*` makes it postfix.
    Model m = parse("let a = r*\nlet b = s*\nacyclic a* as c");
    REQUIRE(m.stmts.size() == 3);
    CHECK(sx(*m.stmts[0].bindings[0].expr) == "(star r)");
    CHECK(sx(*m.stmts[1].bindings[0].expr) == "(star s)");
    CHECK(sx(*m.stmts[2].expr) == "(star a)");
}

TEST_CASE("cat: atoms, brackets and names", "[cat]") {
    CHECK(tree("[A];po;[B]") == "(; ([] A) po ([] B))");
    CHECK(tree("[A & B]") == "([] (& A B))");
    CHECK(tree("0 | _") == "(| 0 _)");
    CHECK(tree("domain(rf) | range(co;rf)") == "(| (domain rf) (range (; co rf)))");
    CHECK(tree("po-loc | fence.sc | _x1 | A2") == "(| po-loc fence.sc _x1 A2)");
    CHECK(tree("rf^-1;co") == "(; (inv rf) co)");
}

TEST_CASE("cat: expression locations", "[cat]") {
    Model m = parse("let x =\n  [A] ; po-loc |\n  ~b+");
    const Expr& u = *m.stmts.at(0).bindings.at(0).expr;
    REQUIRE(u.op == Expr::Op::Union);
    CHECK(u.loc.file == "t.cat");
    CHECK(u.loc.line == 2);
    CHECK(u.loc.col == 16); // the `|`
    const Expr& seq = *u.args.at(0);
    CHECK(seq.loc.col == 7);                         // the `;`
    CHECK(seq.args.at(0)->loc.col == 3);             // `[`
    CHECK(seq.args.at(0)->args.at(0)->loc.col == 4); // A
    const Expr& comp = *u.args.at(1);
    CHECK(comp.op == Expr::Op::Complement);
    CHECK(comp.loc.line == 3);
    CHECK(comp.loc.col == 3);
    CHECK(comp.args.at(0)->loc.col == 5); // `+`
    CHECK(m.stmts[0].bindings[0].loc.line == 1);
    CHECK(m.stmts[0].bindings[0].loc.col == 5);
}

TEST_CASE("cat: let and let rec statements", "[cat]") {
    Model m = parse("let a = b\n"
                    "let rec hb = po | hb;hb\n"
                    "    and sw = rf;hb\n"
                    "    and x = sw\n"
                    "let c = hb\n");
    REQUIRE(m.stmts.size() == 3);
    CHECK(m.stmts[0].kind == Stmt::Kind::Let);
    CHECK(m.stmts[0].bindings.size() == 1);
    const Stmt& rec = m.stmts[1];
    CHECK(rec.kind == Stmt::Kind::LetRec);
    CHECK(rec.loc.line == 2);
    CHECK(rec.loc.col == 1);
    REQUIRE(rec.bindings.size() == 3);
    CHECK(rec.bindings[0].name == "hb");
    CHECK(sx(*rec.bindings[0].expr) == "(| po (; hb hb))");
    CHECK(rec.bindings[1].name == "sw");
    CHECK(rec.bindings[1].loc.line == 3);
    CHECK(rec.bindings[1].loc.col == 9);
    CHECK(rec.bindings[2].name == "x");
    CHECK(m.stmts[2].kind == Stmt::Kind::Let);
    // A single-binding rec is still LetRec.
    CHECK(parse("let rec a = a;b").stmts.at(0).kind == Stmt::Kind::LetRec);
}

TEST_CASE("cat: checks, flags and doc comments", "[cat]") {
    Model m = parse("PTX\n"
                    "(* Banner comment, separated by a blank line. *)\n"
                    "\n"
                    "(* Coherence:   no cycle\n"
                    "   in   po-loc and com. *)\n"
                    "acyclic po-loc | com as coherence\n"
                    "irreflexive fr;co as fr-co (* trailing remark *)\n"
                    "(* first line *)\n"
                    "(* second (* nested *) line *)\n"
                    "empty rmw & (fre;coe) as atomic\n"
                    "(* Data race. *)\n"
                    "flag ~empty race as data-race\n"
                    "~acyclic x as negated\n"
                    "let y = a (* not a doc: not before a check *)\n"
                    "show y, coherence\n");
    REQUIRE(m.stmts.size() == 7);
    CHECK(m.title == "PTX");

    const Stmt& coh = m.stmts[0];
    CHECK(coh.kind == Stmt::Kind::Check);
    CHECK(coh.test == Stmt::Test::Acyclic);
    CHECK_FALSE(coh.flag);
    CHECK_FALSE(coh.negated);
    CHECK(coh.name == "coherence");
    CHECK(coh.doc == "Coherence: no cycle in po-loc and com.");
    CHECK(sx(*coh.expr) == "(| po-loc com)");
    CHECK(coh.loc.line == 6);
    CHECK(coh.loc.col == 1);

    const Stmt& frco = m.stmts[1];
    CHECK(frco.test == Stmt::Test::Irreflexive);
    CHECK(frco.name == "fr-co");
    CHECK(frco.doc.empty());

    const Stmt& at = m.stmts[2];
    CHECK(at.test == Stmt::Test::Empty);
    CHECK(at.name == "atomic");
    CHECK(at.doc == "first line second (* nested *) line");
    CHECK(sx(*at.expr) == "(& rmw (; fre coe))");

    const Stmt& race = m.stmts[3];
    CHECK(race.flag);
    CHECK(race.negated);
    CHECK(race.test == Stmt::Test::Empty);
    CHECK(race.name == "data-race");
    CHECK(race.doc == "Data race.");
    CHECK(race.loc.line == 12);

    const Stmt& neg = m.stmts[4];
    CHECK(neg.negated);
    CHECK_FALSE(neg.flag);
    CHECK(neg.doc.empty());

    const Stmt& show = m.stmts[6];
    CHECK(show.kind == Stmt::Kind::Show);
    CHECK(show.shown == std::vector<std::string>{"y", "coherence"});
}

TEST_CASE("cat: comments cite sections by key, expanded from the section table", "[cat]") {
    Model m = parse("PTX\n"
                    "(* Membar ({Membar#}), scope {Scope}; {} and {x} are text. *)\n"
                    "acyclic po as c\n");
    REQUIRE(m.stmts.size() == 1);
    CHECK(m.stmts[0].doc ==
          "Membar (9.7.15.4 #parallel-synchronization-and-communication-instructions-membar), "
          "scope 8.5; {} and {x} are text.");
    // A user's model may still spell numbers out.
    CHECK(parse("PTX\n(* 9.7.15.4 #membar *)\nacyclic po as c\n").stmts[0].doc ==
          "9.7.15.4 #membar");
    requireError("PTX\n(* ok {Scope}\n   then {NoSuchKey#} *)\nlet a = b", 3, 9,
                 "no PTX section 'NoSuchKey'");
    requireError("PTX (* {Membar *) let a = b", 1, 8, "has no closing '}'");
}

TEST_CASE("cat: titles", "[cat]") {
    CHECK(parse("PTX-tcgen05\nlet a = b").title == "PTX-tcgen05");
    CHECK(parse("\"PTX 8.x with tcgen05\"\nlet a = b").title == "PTX 8.x with tcgen05");
    CHECK(parse("(* c *) PTX let a = b").title == "PTX");
    CHECK(parse("PTX \"two words\"").title == "two words");
    Model none = parse("let a = b");
    CHECK(none.title.empty());
    CHECK(none.stmts.size() == 1);
    CHECK(parse("").stmts.empty());
    CHECK(parse("(* only a comment *)\n").stmts.empty());
    CHECK(parse("acyclic a as b").title.empty()); // keywords are never titles
}

TEST_CASE("cat: includes from disk", "[cat]") {
    TempDir dir;
    dir.write("common.cat", "Common\nlet common = po\n");
    dir.write("sub/a.cat", "\"A\"\ninclude \"b.cat\"\nlet a = x\n"); // b.cat beside a.cat
    dir.write("sub/b.cat", "include \"../common.cat\"\nlet b = y\n");
    dir.write("c.cat", "include \"common.cat\"\nlet c = z\n");
    const std::string top = dir.write(
        "top.cat", "Top\nlet t0 = a\ninclude \"sub/a.cat\"\ninclude \"c.cat\"\nlet t1 = b\n");

    Model m = loadModelFile(top);
    CHECK(m.title == "Top");
    // Depth-first, and the diamond's common.cat only at its first occurrence.
    CHECK(letNames(m) == std::vector<std::string>{"t0", "common", "b", "a", "c", "t1"});
    REQUIRE(m.files.size() == 5);
    CHECK(m.files[0] == top);
    CHECK(fs::path(m.files[1]) == (dir.path() / "sub/a.cat"));
    CHECK(fs::path(m.files[2]) == (dir.path() / "sub/b.cat"));
    CHECK(fs::path(m.files[3]) == (dir.path() / "common.cat"));
    CHECK(fs::path(m.files[4]) == (dir.path() / "c.cat"));
    // Locations name the included file.
    CHECK(fs::path(m.stmts[1].loc.file) == dir.path() / "common.cat");
    CHECK(m.stmts[1].loc.line == 2);

    // parseModelText resolves beside the file it is given.
    Model t = parseModelText("include \"c.cat\"", (dir.path() / "virtual.cat").string());
    CHECK(letNames(t) == std::vector<std::string>{"common", "c"});
    CHECK(t.files.size() == 3);
}

TEST_CASE("cat: include errors", "[cat]") {
    TempDir dir;
    dir.write("a.cat", "let a = x\ninclude \"b.cat\"\n");
    dir.write("b.cat", "let b = y\n\n   include \"a.cat\"\n");
    dir.write("self.cat", "include \"self.cat\"\n");
    dir.write("bad.cat", "let ok = a\nlet x = ) \n");
    dir.write("missing.cat", "include \"nowhere.cat\"\n");

    SECTION("cycle shows the chain, at the closing include") {
        try {
            loadModelFile((dir.path() / "a.cat").string());
            FAIL("cycle not detected");
        } catch (const InputError& e) {
            CHECK(fs::path(e.loc().file) == dir.path() / "b.cat");
            CHECK(e.loc().line == 3);
            CHECK(e.loc().col == 12);
            CHECK_THAT(e.message(), Catch::Contains("include cycle"));
            CHECK_THAT(e.message(), Catch::Contains("a.cat -> "));
            CHECK_THAT(e.message(), Catch::Contains("b.cat -> "));
        }
    }
    SECTION("self include") {
        CHECK_THROWS_WITH(loadModelFile((dir.path() / "self.cat").string()),
                          Catch::Contains("include cycle"));
    }
    SECTION("errors inside an included file name that file") {
        try {
            parseModelText("include \"bad.cat\"", (dir.path() / "top.cat").string());
            FAIL("no error");
        } catch (const InputError& e) {
            CHECK(fs::path(e.loc().file) == dir.path() / "bad.cat");
            CHECK(e.loc().line == 2);
            CHECK(e.loc().col == 9);
        }
    }
    SECTION("not found") {
        try {
            loadModelFile((dir.path() / "missing.cat").string());
            FAIL("no error");
        } catch (const InputError& e) {
            CHECK(e.loc().line == 1);
            CHECK(e.loc().col == 9);
            CHECK_THAT(e.message(), Catch::Contains("cannot find included file \"nowhere.cat\""));
        }
    }
    SECTION("missing top file") {
        CHECK_THROWS_WITH(loadModelFile((dir.path() / "absent.cat").string()),
                          Catch::Contains("no such file"));
        CHECK_THROWS_AS(loadModelFile(dir.path().string()), InputError);
    }
}

TEST_CASE("cat: built-in model lookup", "[cat]") {
    CHECK_THROWS_WITH(loadBuiltinModel("no-such-model.cat"),
                      Catch::Contains("no built-in model named 'no-such-model.cat'"));
    CHECK_THROWS_AS(loadBuiltinModel("../escape.cat"), InputError);
    // A built-in's includes only look among the built-ins.
    try {
        parseModelText("include \"zz-none.cat\"", "<builtin>/variants/v.cat");
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(e.loc().file == "<builtin>/variants/v.cat");
        CHECK_THAT(e.message(), Catch::Contains("cannot find included file"));
    }
    // Whatever model/ holds must load (and include) cleanly.
    for (const EmbeddedFile& f : embeddedModelFiles()) {
        INFO("built-in " << f.path);
        Model m;
        CHECK_NOTHROW(m = loadBuiltinModel(f.path));
        CHECK(m.files.at(0) == "<builtin>/" + f.path);
    }
}

TEST_CASE("cat: malformed models report line:col", "[cat]") {
    requireError("let = a", 1, 5, "expected a name to bind, found '='");
    requireError("let let = a", 1, 5, "expected a name to bind, found 'let'");
    requireError("let _ = a", 1, 5, "expected a name to bind");
    requireError("let x a", 1, 7, "expected '=' after 'x'");
    requireError("let x =", 1, 8, "expected an expression, found end of file");
    requireError("let x =\nlet y = a", 2, 1, "expected an expression, found 'let'");
    requireError("let x = ()", 1, 10, "empty expression");
    requireError("let x = [ ]", 1, 11, "empty expression");
    requireError("let x = (a | b\nlet y = c", 2, 1, "expected ')' to close '(' at 1:9");
    requireError("let x = [a)", 1, 11, "expected ']' to close '['");
    requireError("let x = a | | b", 1, 13, "expected an expression, found '|'");
    requireError("let x = a ;", 1, 12, "expected an expression, found end of file");
    requireError("let x = domain r", 1, 16, "expected '(' after 'domain'");
    requireError("acyclic po", 1, 11, "expected 'as NAME'");
    requireError("acyclic po\nlet x = a", 2, 1, "every check to be named");
    requireError("acyclic po as", 1, 14, "expected a check name after 'as'");
    requireError("acyclic po as 0", 1, 15, "expected a check name after 'as'");
    requireError("flag po as x", 1, 6, "expected 'acyclic', 'irreflexive' or 'empty'");
    requireError("let x = a\n  (* open\n (* nested *) ", 2, 3, "unterminated comment");
    requireError("include \"x.cat\nlet a = b", 1, 9, "unterminated string");
    requireError("include x.cat", 1, 9, "expected a quoted file name after 'include'");
    requireError("include \"\"", 1, 9, "empty file name");
    requireError("include \"nowhere.cat\"", 1, 9, "cannot find included file");
    requireError("let x = a $ b", 1, 11, "unexpected character '$'");
    requireError("let x = a |\n\tb\x01", 2, 3, "unexpected character '\\x01'");
    requireError(std::string("let x = \0", 9), 1, 9, "unexpected character '\\x00'");
    requireError("let x = a ^ b", 1, 11, "expected '^-1'");
    requireError("let x = a^-2", 1, 10, "expected '^-1'");
    requireError("let x = 12", 1, 9, "unexpected number '12'");
    requireError("let a = b and c = d", 1, 11, "'and' is only allowed in a 'let rec'");
    requireError("let rec a = b and a = c", 1, 19, "'a' is bound twice");
    requireError("Title extra stuff", 1, 13, "expected a statement");
    requireError("let x = a\nb", 2, 1, "expected a statement");
    requireError("let x = a in b", 1, 11, "expected a statement");
    requireError("show", 1, 5, "expected a name to show");
    requireError("show a,", 1, 8, "expected a name to show");
    requireError("\"T\" \"U\"", 1, 5, "expected a statement");
}

TEST_CASE("cat: hostile nesting is rejected, not a stack overflow", "[cat]") {
    auto repeat = [](const std::string& s, int n) {
        std::string out;
        for (int i = 0; i < n; ++i)
            out += s;
        return out;
    };
    // Just under the limit is fine.
    CHECK_NOTHROW(parse("let x = " + repeat("(", 150) + "a" + repeat(")", 150)));
    CHECK_NOTHROW(parse("let x = a" + repeat("+", 150)));
    CHECK_NOTHROW(parse("let x = " + repeat("a | ", 5000) + "a")); // n-ary: flat

    requireError("let x = " + repeat("(", 100000), 1, 209, "nested too deeply");
    requireError("let x = " + repeat("~", 100000) + "a", 1, 209, "nested too deeply");
    requireError("let x = " + repeat("[", 300) + "a", 1, 209, "nested too deeply");
    requireError("let x = a" + repeat("+", 100000), 1, 209, "nested too deeply");
    requireError("let x = a" + repeat(" \\ a", 300), 1, 807, "nested too deeply");
    requireError("let x = " + repeat("domain(", 300), 1, 8 + 7 * 201, "nested too deeply");
    CHECK_THROWS_AS(parse("acyclic " + repeat("(a;", 100000) + " as x"), InputError);
}

TEST_CASE("cat: random input never crashes", "[cat]") {
    std::mt19937 rng(12345);
    const std::vector<std::string> pieces = {
        "let ",    "rec ", "and ",  "in ",   "include ", "acyclic ", "irreflexive ",
        "empty ",  "as ",  "flag ", "show ", "domain",   "range",    "a ",
        "po-loc ", "_ ",   "0 ",    "|",     ";",        "\\",       "&",
        "*",       "+",    "?",     "~",     "^-1",      "(",        ")",
        "[",       "]",    "=",     ",",     "(*",       "*)",       "\"x.cat\"",
        "\n",      "\"",   "^",     "12 ",   "\x80",     " "};
    for (int iter = 0; iter < 3000; ++iter) {
        std::string text;
        const int len = static_cast<int>(rng() % 40);
        for (int i = 0; i < len; ++i) {
            if (iter % 3 == 0)
                text += static_cast<char>(rng() % 256);
            else
                text += pieces[rng() % pieces.size()];
        }
        try {
            parse(text);
        } catch (const InputError& e) {
            INFO("text: " << text << "\nerror: " << e.what());
            CHECK(e.loc().line >= 1);
            CHECK(e.loc().col >= 1);
        }
    }
}

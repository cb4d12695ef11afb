// Cat parser implementation: one function per precedence level, depth-limited for hostile input.
#include "cat/Parser.hpp"

#include "cat/Lexer.hpp"

#include <algorithm>
#include <utility>

namespace ptxmc::cat {

namespace {

/** True for tokens that can begin an operand; decides whether `*` is binary or postfix. */
bool startsOperand(Tok kind) {
    switch (kind) {
    case Tok::Name:
    case Tok::LParen:
    case Tok::LBracket:
    case Tok::Universe:
    case Tok::Zero:
    case Tok::Tilde:
    case Tok::Domain:
    case Tok::Range:
        return true;
    default:
        return false;
    }
}

std::string where(const SourceLoc& loc) {
    return std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

class Parser {
public:
    Parser(std::string_view text, const std::string& file) : lex_(text, file) {}

    ParsedFile parseFile() {
        ParsedFile out;
        if (isTitleWord(lex_.peek().kind)) {
            out.hasTitle = true;
            Token first = lex_.next();
            out.title = first.text;
            if (first.kind == Tok::Name && isTitleWord(lex_.peek().kind))
                out.title = lex_.next().text;
        }
        while (lex_.peek().kind != Tok::End)
            out.items.push_back(parseItem());
        return out;
    }

private:
    /** An expression together with its tree depth (a leaf is 1). */
    struct Sub {
        ExprPtr expr;
        int depth = 1;
    };

    /** Counts parenthesis / `~` recursion so hostile nesting fails before the stack does. */
    class NestGuard {
    public:
        NestGuard(Parser& parser, const SourceLoc& loc) : parser_(parser) {
            if (parser_.nest_ >= kMaxNesting)
                throw InputError(loc, "expression nested too deeply (more than " +
                                          std::to_string(kMaxNesting) + " levels)");
            ++parser_.nest_;
        }
        ~NestGuard() { --parser_.nest_; }
        NestGuard(const NestGuard&) = delete;
        NestGuard& operator=(const NestGuard&) = delete;

    private:
        Parser& parser_;
    };

    static bool isTitleWord(Tok kind) { return kind == Tok::Name || kind == Tok::String; }

    [[noreturn]] static void fail(const SourceLoc& loc, const std::string& message) {
        throw InputError(loc, message);
    }

    bool accept(Tok kind) {
        if (lex_.peek().kind != kind) return false;
        lex_.next();
        return true;
    }

    /** Consumes a token of `kind` or fails with "expected <what>, found <token>". */
    Token expect(Tok kind, const std::string& what) {
        const Token& t = lex_.peek();
        if (t.kind != kind) fail(t.loc, "expected " + what + ", found " + describe(t));
        return lex_.next();
    }

    // ---- statements ----

    FileItem parseItem() {
        const Token& t = lex_.peek();
        switch (t.kind) {
        case Tok::Let:
            return parseLet();
        case Tok::Include:
            return parseInclude();
        case Tok::Show:
            return parseShow();
        case Tok::Flag:
        case Tok::Tilde:
        case Tok::Acyclic:
        case Tok::Irreflexive:
        case Tok::EmptyKw:
            return parseCheck();
        default:
            fail(t.loc, "expected a statement ('let', 'include', 'show', 'acyclic', "
                        "'irreflexive', 'empty' or 'flag'), found " +
                            describe(t));
        }
    }

    Stmt parseLet() {
        Stmt s;
        s.doc = lex_.peek().doc;
        s.loc = lex_.next().loc;
        const bool rec = accept(Tok::Rec);
        s.kind = rec ? Stmt::Kind::LetRec : Stmt::Kind::Let;
        do {
            Binding b = parseBinding();
            for (const Binding& other : s.bindings)
                if (other.name == b.name)
                    fail(b.loc, "'" + b.name +
                                    "' is bound twice in this 'let rec' group (first at " +
                                    where(other.loc) + ")");
            s.bindings.push_back(std::move(b));
        } while (rec && accept(Tok::And));
        if (!rec && lex_.peek().kind == Tok::And)
            fail(lex_.peek().loc,
                 "'and' is only allowed in a 'let rec' group; use a separate 'let'");
        return s;
    }

    Binding parseBinding() {
        Binding b;
        const Token name = expect(Tok::Name, "a name to bind");
        b.name = name.text;
        b.loc = name.loc;
        expect(Tok::Equal, "'=' after '" + b.name + "'");
        b.expr = parseExpr().expr;
        return b;
    }

    IncludeDirective parseInclude() {
        lex_.next();
        const Token path = expect(Tok::String, "a quoted file name after 'include'");
        if (path.text.empty()) fail(path.loc, "empty file name in 'include'");
        return IncludeDirective{path.text, path.loc};
    }

    Stmt parseShow() {
        Stmt s;
        s.kind = Stmt::Kind::Show;
        s.loc = lex_.next().loc;
        do {
            s.shown.push_back(expect(Tok::Name, "a name to show").text);
        } while (accept(Tok::Comma));
        return s;
    }

    Stmt parseCheck() {
        Stmt s;
        s.kind = Stmt::Kind::Check;
        s.loc = lex_.peek().loc;
        s.doc = lex_.peek().doc;
        s.flag = accept(Tok::Flag);
        s.negated = accept(Tok::Tilde);
        const Token test = lex_.next();
        switch (test.kind) {
        case Tok::Acyclic:
            s.test = Stmt::Test::Acyclic;
            break;
        case Tok::Irreflexive:
            s.test = Stmt::Test::Irreflexive;
            break;
        case Tok::EmptyKw:
            s.test = Stmt::Test::Empty;
            break;
        default:
            fail(test.loc, "expected 'acyclic', 'irreflexive' or 'empty', found " + describe(test));
        }
        s.expr = parseExpr().expr;
        const Token& as = lex_.peek();
        if (as.kind != Tok::As)
            fail(as.loc, "expected 'as NAME' after the '" + std::string(spelling(test.kind)) +
                             "' expression (ptxmc requires every check to be named), found " +
                             describe(as));
        lex_.next();
        s.name = expect(Tok::Name, "a check name after 'as'").text;
        return s;
    }

    // ---- expressions, loosest level first ----

    /** Builds an operator node, enforcing the tree-depth limit (long postfix/diff chains). */
    static Sub node(Expr::Op op, std::vector<Sub> args, const SourceLoc& loc) {
        auto e = std::make_shared<Expr>();
        e->op = op;
        e->loc = loc;
        int depth = 0;
        for (Sub& a : args) {
            depth = std::max(depth, a.depth);
            e->args.push_back(std::move(a.expr));
        }
        if (depth + 1 > kMaxNesting)
            fail(loc, "expression nested too deeply (more than " + std::to_string(kMaxNesting) +
                          " levels)");
        return Sub{std::move(e), depth + 1};
    }

    static Sub leaf(Expr::Op op, const Token& t) {
        auto e = std::make_shared<Expr>();
        e->op = op;
        e->loc = t.loc;
        if (op == Expr::Op::Name) e->name = t.text;
        return Sub{std::move(e), 1};
    }

    Sub parseExpr() { return parseUnion(); }

    /** An n-ary chain `x op y op z` at one level. */
    template <typename Next> Sub parseChain(Tok opTok, Expr::Op op, Next next) {
        Sub first = (this->*next)();
        if (lex_.peek().kind != opTok) return first;
        const SourceLoc loc = lex_.peek().loc;
        std::vector<Sub> args;
        args.push_back(std::move(first));
        while (accept(opTok))
            args.push_back((this->*next)());
        return node(op, std::move(args), loc);
    }

    /** A left-associative binary level `x op y op z` = `(x op y) op z`. */
    template <typename Next> Sub parseLeftAssoc(Tok opTok, Expr::Op op, Next next) {
        Sub lhs = (this->*next)();
        while (lex_.peek().kind == opTok) {
            const SourceLoc loc = lex_.next().loc;
            Sub rhs = (this->*next)();
            std::vector<Sub> args;
            args.push_back(std::move(lhs));
            args.push_back(std::move(rhs));
            lhs = node(op, std::move(args), loc);
        }
        return lhs;
    }

    Sub parseUnion() { return parseChain(Tok::Pipe, Expr::Op::Union, &Parser::parseSeq); }
    Sub parseSeq() { return parseChain(Tok::Semi, Expr::Op::Seq, &Parser::parseDiff); }
    Sub parseDiff() { return parseLeftAssoc(Tok::Backslash, Expr::Op::Diff, &Parser::parseInter); }
    Sub parseInter() { return parseLeftAssoc(Tok::Amp, Expr::Op::Inter, &Parser::parseCartesian); }

    Sub parseCartesian() {
        Sub lhs = parseUnary();
        while (lex_.peek().kind == Tok::Star && startsOperand(lex_.peek(1).kind)) {
            const SourceLoc loc = lex_.next().loc;
            Sub rhs = parseUnary();
            std::vector<Sub> args;
            args.push_back(std::move(lhs));
            args.push_back(std::move(rhs));
            lhs = node(Expr::Op::Cartesian, std::move(args), loc);
        }
        return lhs;
    }

    Sub parseUnary() {
        if (lex_.peek().kind != Tok::Tilde) return parsePostfix();
        const SourceLoc loc = lex_.next().loc;
        NestGuard guard(*this, loc);
        std::vector<Sub> args;
        args.push_back(parseUnary());
        return node(Expr::Op::Complement, std::move(args), loc);
    }

    Sub parsePostfix() {
        Sub e = parseAtom();
        while (true) {
            Expr::Op op;
            switch (lex_.peek().kind) {
            case Tok::Plus:
                op = Expr::Op::Plus;
                break;
            case Tok::Question:
                op = Expr::Op::Opt;
                break;
            case Tok::Inverse:
                op = Expr::Op::Inverse;
                break;
            case Tok::Star:
                if (startsOperand(lex_.peek(1).kind)) return e; // binary: parseCartesian's
                op = Expr::Op::Star;
                break;
            default:
                return e;
            }
            const SourceLoc loc = lex_.next().loc;
            std::vector<Sub> args;
            args.push_back(std::move(e));
            e = node(op, std::move(args), loc);
        }
    }

    /** `( expr )`-like group: the inner expression and its closing token. */
    Sub parseGroup(const Token& open, Tok close, const char* closeText) {
        NestGuard guard(*this, open.loc);
        Sub inner = parseExpr();
        expect(close, std::string("'") + closeText + "' to close '" + open.text + "' at " +
                          where(open.loc));
        return inner;
    }

    Sub parseAtom() {
        const Token& t = lex_.peek();
        switch (t.kind) {
        case Tok::Name:
            return leaf(Expr::Op::Name, lex_.next());
        case Tok::Zero:
            return leaf(Expr::Op::Empty, lex_.next());
        case Tok::Universe:
            return leaf(Expr::Op::Universe, lex_.next());
        case Tok::LParen: {
            const Token open = lex_.next();
            return parseGroup(open, Tok::RParen, ")");
        }
        case Tok::LBracket: {
            const Token open = lex_.next();
            std::vector<Sub> args;
            args.push_back(parseGroup(open, Tok::RBracket, "]"));
            return node(Expr::Op::Bracket, std::move(args), open.loc);
        }
        case Tok::Domain:
        case Tok::Range: {
            const Token kw = lex_.next();
            const Token open = expect(Tok::LParen, "'(' after '" + kw.text + "'");
            std::vector<Sub> args;
            args.push_back(parseGroup(open, Tok::RParen, ")"));
            return node(kw.kind == Tok::Domain ? Expr::Op::Domain : Expr::Op::Range,
                        std::move(args), kw.loc);
        }
        case Tok::RParen:
        case Tok::RBracket:
            fail(t.loc, "empty expression: expected an expression before " + describe(t));
        default:
            fail(t.loc, "expected an expression, found " + describe(t));
        }
    }

    Lexer lex_;
    int nest_ = 0;
};

} // namespace

ParsedFile parseFile(std::string_view text, const std::string& file) {
    return Parser(text, file).parseFile();
}

} // namespace ptxmc::cat

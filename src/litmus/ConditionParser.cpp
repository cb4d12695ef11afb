// Final condition (`exists`/`~exists`/`forall` + proposition), references and `locations`.
#include "litmus/Parser.hpp"
#include "litmus/ParserDetail.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <utility>

namespace ptxmc::litmus::detail {

namespace {

/** `N:reg` after the number token `num`; the next token is the ':'. */
Ref registerOfThread(Lexer& lx, const Token& num) {
    Ref ref;
    ref.loc = lx.loc(num);
    ref.kind = Ref::Kind::Register;
    const std::int64_t thread = lx.integerValue(num, false);
    if (thread > INT_MAX) lx.fail(num, "thread number " + quote(num.text) + " is too large");
    ref.thread = static_cast<int>(thread);
    lx.next();
    ref.name = lx.expectIdent("a register name after ':'").text;
    return ref;
}

/** A proposition under construction with the depth of its tree. */
struct Built {
    std::shared_ptr<Prop> prop;
    int depth = 1;
};

class PropParser {
public:
    explicit PropParser(Lexer& lx) : lx_(lx) {}

    Built implication() {
        std::vector<Built> items{disjunction()};
        std::vector<SourceLoc> arrows;
        while (lx_.peek().is("=>")) {
            arrows.push_back(lx_.loc(lx_.next()));
            items.push_back(disjunction());
        }
        // `=>` is right associative; folding in a loop keeps long chains off the C++ stack.
        Built acc = std::move(items.back());
        for (std::size_t i = items.size() - 1; i-- > 0;)
            acc = combine(Prop::Kind::Implies, std::move(items[i]), std::move(acc), arrows[i]);
        return acc;
    }

private:
    Built combine(Prop::Kind kind, Built lhs, Built rhs, const SourceLoc& opLoc) {
        auto p = std::make_shared<Prop>();
        p->kind = kind;
        p->loc = lhs.prop->loc;
        const int depth = 1 + std::max(lhs.depth, rhs.depth);
        checkDepth(depth, opLoc);
        p->args = {std::move(lhs.prop), std::move(rhs.prop)};
        return Built{std::move(p), depth};
    }

    static void checkDepth(int depth, const SourceLoc& loc) {
        if (depth > kMaxPropDepth)
            throw InputError(loc, "condition is nested too deeply (more than " +
                                      std::to_string(kMaxPropDepth) + " levels)");
    }

    /**
     * `/\` and `\/` are associative, so a chain becomes a balanced tree: a conjunction of
     * thousands of terms stays shallow for the passes that walk it recursively.
     */
    Built balance(Prop::Kind kind, std::vector<Built>& items, std::vector<SourceLoc>& ops,
                  std::size_t lo, std::size_t hi) {
        if (hi - lo == 1) return std::move(items[lo]);
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        Built lhs = balance(kind, items, ops, lo, mid);
        Built rhs = balance(kind, items, ops, mid, hi);
        return combine(kind, std::move(lhs), std::move(rhs), ops[mid - 1]);
    }

    Built chain(Prop::Kind kind, std::string_view op, Built (PropParser::*operand)()) {
        std::vector<Built> items{(this->*operand)()};
        std::vector<SourceLoc> ops;
        while (lx_.peek().is(op)) {
            ops.push_back(lx_.loc(lx_.next()));
            items.push_back((this->*operand)());
        }
        return balance(kind, items, ops, 0, items.size());
    }

    Built disjunction() { return chain(Prop::Kind::Or, "\\/", &PropParser::conjunction); }
    Built conjunction() { return chain(Prop::Kind::And, "/\\", &PropParser::negation); }

    Built negation() {
        std::vector<SourceLoc> tildes;
        while (lx_.peek().is("~"))
            tildes.push_back(lx_.loc(lx_.next()));
        Built acc = atom();
        for (std::size_t i = tildes.size(); i-- > 0;) {
            auto p = std::make_shared<Prop>();
            p->kind = Prop::Kind::Not;
            p->loc = tildes[i];
            checkDepth(acc.depth + 1, tildes[i]);
            p->args = {std::move(acc.prop)};
            acc = Built{std::move(p), acc.depth + 1};
        }
        return acc;
    }

    Built atom() {
        const Token& t = lx_.peek();
        if (t.is("(")) {
            const Token open = lx_.next();
            if (++parenDepth_ > kMaxParenDepth)
                lx_.fail(open, "condition is nested too deeply (more than " +
                                   std::to_string(kMaxParenDepth) + " parentheses)");
            Built inner = implication();
            const Token& close = lx_.peek();
            if (!close.is(")")) {
                const SourceLoc at = lx_.loc(open);
                lx_.unexpected(close, "')' closing the '(' at line " + std::to_string(at.line) +
                                          ":" + std::to_string(at.col));
            }
            lx_.next();
            --parenDepth_;
            return inner;
        }
        auto p = std::make_shared<Prop>();
        p->loc = lx_.loc(t);
        if (t.isWord("true") || t.isWord("false")) {
            p->kind = t.text == "true" ? Prop::Kind::True : Prop::Kind::False;
            lx_.next();
            return Built{std::move(p), 1};
        }
        if (t.kind != Token::Kind::Ident && t.kind != Token::Kind::Int && !t.is("-") && !t.is("["))
            lx_.unexpected(t, "a proposition (a comparison, 'true', 'false', '~' or '(')");
        const Side lhs = side();
        const Token& op = lx_.peek();
        bool equal = true;
        if (op.is("!="))
            equal = false;
        else if (!op.is("==") && !op.is("="))
            lx_.unexpected(op, "'==', '=' or '!=' after " + lhs.text);
        lx_.next();
        const Side rhs = side();
        p->kind = equal ? Prop::Kind::Eq : Prop::Kind::Ne;
        if (lhs.ref && rhs.ref) {
            p->lhs = *lhs.ref;
            p->rhsRef = *rhs.ref;
        } else if (lhs.ref || rhs.ref) {
            // Equality is symmetric, so `1 == P0:r0` is stored as `P0:r0 == 1`.
            p->lhs = lhs.ref ? *lhs.ref : *rhs.ref;
            p->rhsValue = lhs.ref ? rhs.value : lhs.value;
        } else {
            // Dat3M writes `exists 0==0`: a comparison of constants is decided right here.
            p->kind = (lhs.value == rhs.value) == equal ? Prop::Kind::True : Prop::Kind::False;
        }
        return Built{std::move(p), 1};
    }

    /** One side of a comparison: a reference or an integer constant. */
    struct Side {
        std::optional<Ref> ref;
        std::int64_t value = 0;
        std::string text; ///< for messages
    };

    Side side() {
        const Token& t = lx_.peek();
        Side o;
        o.text = lx_.describe(t);
        if (t.is("-")) {
            o.value = lx_.cellValue("an integer after '-'");
            return o;
        }
        if (t.kind == Token::Kind::Int) {
            // `1:r0` is a register of thread 1; a lone `1` is a constant.
            const Token num = lx_.next();
            if (lx_.peek().is(":")) {
                o.ref = registerOfThread(lx_, num);
                o.text = quote("P" + std::to_string(o.ref->thread) + ":" + o.ref->name);
                return o;
            }
            o.value = lx_.wordValue(num, false);
            return o;
        }
        if (t.kind != Token::Kind::Ident && !t.is("["))
            lx_.unexpected(t, "an integer or a reference to compare with");
        o.ref = parseRef(lx_);
        if (o.ref->kind == Ref::Kind::Register)
            o.text = quote("P" + std::to_string(o.ref->thread) + ":" + o.ref->name);
        return o;
    }

    Lexer& lx_;
    int parenDepth_ = 0;
};

} // namespace

Ref parseRef(Lexer& lx) {
    const Token& t = lx.peek();
    Ref ref;
    ref.loc = lx.loc(t);
    if (t.kind == Token::Kind::Int) {
        const Token num = lx.next();
        if (!lx.peek().is(":"))
            lx.unexpected(lx.peek(), "':' after the thread number (e.g. '1:r0')");
        return registerOfThread(lx, num);
    }
    if (t.is("[")) {
        // herd's `[x]`: the value of location x.
        lx.next();
        ref.kind = Ref::Kind::Location;
        ref.name = lx.expectIdent("a location name after '['").text;
        lx.expectPunct("]", "after the location name");
        return ref;
    }
    if (t.kind != Token::Kind::Ident)
        lx.unexpected(t, "a register (P1:r0) or a location (x, x@1, t[2])");
    const Token name = lx.next();
    const std::optional<int> thread = threadNumber(name.text);
    if (thread && lx.peek().is(":")) {
        lx.next();
        ref.kind = Ref::Kind::Register;
        ref.thread = *thread;
        ref.name = lx.expectIdent("a register name after ':'").text;
        return ref;
    }
    ref.kind = Ref::Kind::Location;
    ref.name = name.text;
    if (lx.peek().is("@")) {
        lx.next();
        ref.cta = lx.smallNumber("a CTA number after '@'");
    }
    if (lx.peek().is("[")) {
        lx.next();
        ref.row = lx.smallNumber("a row number after '['");
        lx.expectPunct("]", "after the row number");
    }
    return ref;
}

Condition parseCondition(Lexer& lx) {
    const Token first = lx.next();
    Condition c;
    c.loc = lx.loc(first);
    if (first.is("~")) {
        const Token& kw = lx.peek();
        if (!kw.isWord("exists")) lx.unexpected(kw, "'exists' after '~'");
        lx.next();
        c.quantifier = ir::Quantifier::NotExists;
    } else if (first.isWord("exists")) {
        c.quantifier = ir::Quantifier::Exists;
    } else if (first.isWord("forall")) {
        c.quantifier = ir::Quantifier::Forall;
    } else {
        lx.unexpected(first, "'exists', '~exists' or 'forall'");
    }
    PropParser parser(lx);
    c.prop = parser.implication().prop;
    return c;
}

std::vector<Ref> parseLocationsClause(Lexer& lx) {
    lx.next();
    lx.expectPunct("[", "after 'locations'");
    std::vector<Ref> refs;
    for (;;) {
        if (lx.peek().is("]")) break;
        refs.push_back(parseRef(lx));
        const Token& sep = lx.peek();
        if (sep.is("]")) break;
        if (!sep.is(";")) lx.unexpected(sep, "';' or ']' in 'locations'");
        lx.next();
    }
    lx.next();
    return refs;
}

} // namespace ptxmc::litmus::detail

namespace ptxmc::litmus {

std::shared_ptr<const Prop> parseProposition(const std::string& text, const std::string& source) {
    SourceText src(text, source);
    Lexer lx(src, 0, text.size(), "end of the proposition");
    detail::PropParser parser(lx);
    std::shared_ptr<const Prop> prop = parser.implication().prop;
    // an outcome list, "P1:r0=0; x=1": `;` joins like /\ (a last `;` just ends it)
    while (lx.peek().is(";")) {
        lx.next();
        if (lx.peek().kind == Token::Kind::End) break;
        auto both = std::make_shared<Prop>();
        both->kind = Prop::Kind::And;
        both->loc = prop->loc;
        both->args = {prop, parser.implication().prop};
        prop = both;
    }
    const Token& rest = lx.peek();
    if (rest.kind != Token::Kind::End) lx.unexpected(rest, "'/\\', '\\/', '=>', ';' or the end");
    return prop;
}

std::vector<Ref> referencesOf(const Prop& p) {
    std::vector<Ref> out;
    if (p.kind == Prop::Kind::Eq || p.kind == Prop::Kind::Ne) {
        out.push_back(p.lhs);
        if (p.rhsRef) out.push_back(*p.rhsRef);
    }
    for (const auto& a : p.args) {
        auto inner = referencesOf(*a);
        out.insert(out.end(), inner.begin(), inner.end());
    }
    return out;
}

} // namespace ptxmc::litmus

// The code table: thread header row, rows split into cells, and one instruction per cell.
#include "litmus/ParserDetail.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <string>
#include <string_view>

namespace ptxmc::litmus::detail {

namespace {

/** A cell's trimmed text [begin, end); `start` is where its raw text begins (after the `|`). */
struct Cell {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t start = 0;
    bool empty() const { return begin == end; }
};

std::size_t firstNonBlank(const std::string& s, std::size_t from, std::size_t to) {
    while (from < to && isSpace(s[from]))
        ++from;
    return from;
}

/** Splits the row whose first non-blank character is at `first`; checks the `;` terminator. */
std::vector<Cell> splitRow(const SourceText& src, std::size_t first, std::size_t lineEnd) {
    const std::string& s = src.text();
    std::size_t last = lineEnd;
    while (last > first && isSpace(s[last - 1]))
        --last;
    if (s[last - 1] != ';') src.fail(last, "expected ';' at end of code row, found end of line");
    --last;
    std::vector<Cell> cells;
    std::size_t a = first;
    for (;;) {
        std::size_t bar = s.find('|', a);
        // mbarrier.test_wait/try_wait's `waitComplete|reportPredicate` (PTX ISA 9.3) and
        // match.all.sync's `d|p`: a `|` between two identifier characters in the first operand
        // of those instructions stays in its cell
        while (bar < last && bar > a && isIdentChar(s[bar - 1]) && isIdentChar(s[bar + 1])) {
            const std::string_view so_far(s.data() + a, bar - a);
            const bool pair = so_far.find("mbarrier.test_wait") != std::string_view::npos ||
                              so_far.find("mbarrier.try_wait") != std::string_view::npos ||
                              so_far.find("match.all") != std::string_view::npos;
            if (!pair || so_far.find_first_of(",[") != std::string_view::npos) break;
            bar = s.find('|', bar + 1);
        }
        const std::size_t b = bar < last ? bar : last;
        Cell c{a, b, a};
        c.begin = firstNonBlank(s, a, b);
        while (c.end > c.begin && isSpace(s[c.end - 1]))
            --c.end;
        // PTX writes `;` after each instruction; the row's own `;` was removed above.
        if (c.end > c.begin && s[c.end - 1] == ';') {
            --c.end;
            while (c.end > c.begin && isSpace(s[c.end - 1]))
                --c.end;
        }
        cells.push_back(c);
        if (b == last) break;
        a = b + 1;
    }
    return cells;
}

/** True when the line at `first` starts the part after the table (condition or locations). */
bool startsTail(const SourceText& src, std::size_t first, std::size_t lineEnd) {
    const std::string& s = src.text();
    if (s[first] == '~') return true;
    std::size_t e = first;
    while (e < lineEnd && isIdentChar(s[e]))
        ++e;
    const std::string_view word(s.data() + first, e - first);
    if (word == "filter") src.fail(first, "herd 'filter' clauses are not supported");
    return word == "exists" || word == "forall" || word == "locations";
}

Thread parseThreadHeader(const SourceText& src, const Cell& cell, int column) {
    const std::string expectedName = "P" + std::to_string(column);
    if (cell.empty())
        src.fail(cell.start, "expected thread header '" + expectedName +
                                 "@cta N,gpu N' in column " + std::to_string(column + 1) +
                                 ", found an empty cell");
    Lexer lx(src, cell.begin, cell.end, "end of the thread header");
    const Token& first = lx.peek();
    const std::optional<int> id =
        first.kind == Token::Kind::Ident ? threadNumber(first.text) : std::nullopt;
    if (!id) lx.unexpected(first, "a thread name like '" + expectedName + "'");
    if (*id != column)
        lx.fail(first, "expected thread " + expectedName + " in column " +
                           std::to_string(column + 1) + ", found " + quote(first.text) +
                           " (threads must be P0, P1, ... in column order)");
    const Token name = lx.next();
    Thread th;
    th.id = *id;
    th.loc = lx.loc(name);
    lx.expectPunct("@", "after " + quote(name.text) + " (e.g. '" + name.text + "@cta 0,gpu 0')");
    bool haveCta = false;
    bool haveGpu = false;
    bool haveCluster = false;
    for (;;) {
        const Token item = lx.expectIdent("'cta', 'gpu' or 'cluster'");
        auto once = [&](bool& seen) {
            if (seen) lx.fail(item, quote(item.text) + " is given twice in the thread header");
            seen = true;
        };
        if (item.text == "cta") {
            once(haveCta);
            th.cta = lx.smallNumber("a CTA number after 'cta'");
        } else if (item.text == "gpu") {
            once(haveGpu);
            th.gpu = lx.smallNumber("a GPU number after 'gpu'");
        } else if (item.text == "cluster") {
            once(haveCluster);
            th.cluster = lx.smallNumber("a cluster number after 'cluster'");
        } else {
            lx.fail(item, "unknown thread attribute " + quote(item.text) +
                              " (expected 'cta', 'gpu' or 'cluster')");
        }
        const Token& sep = lx.peek();
        if (sep.kind == Token::Kind::End) break;
        if (!sep.is(",")) lx.unexpected(sep, "',' or the end of the thread header");
        lx.next();
    }
    if (!haveCta)
        lx.fail(name, "thread header of " + name.text + " has no 'cta N' (e.g. '" + name.text +
                          "@cta 0,gpu 0')");
    return th;
}

/** A byte multiplier of an index register: a positive integer that fits an int. */
std::int64_t scaleOf(const Lexer& lx, const Token& tok) {
    const std::int64_t v = lx.integerValue(tok, false);
    if (v < 1 || v > INT_MAX) lx.fail(tok, "a multiplier must be between 1 and 2^31-1");
    return v;
}

/** After `[name+`: `k`, `reg`, `k*reg` or `reg*k` (an array index, litmus/README.md). */
void parseOffset(Lexer& lx, Operand& op) {
    const Token& k = lx.peek();
    if (k.kind == Token::Kind::Int) {
        const Token num = lx.next();
        if (!lx.peek().is("*")) {
            op.value = lx.integerValue(num, false);
            return;
        }
        lx.next();
        const Token& reg = lx.peek();
        if (reg.kind != Token::Kind::Ident || reg.text == "_")
            lx.unexpected(reg, "a register after '*'");
        op.indexScale = scaleOf(lx, num);
        op.indexLoc = lx.loc(reg);
        op.indexReg = lx.next().text;
        return;
    }
    if (k.kind != Token::Kind::Ident || k.text == "_")
        lx.unexpected(k, "an offset or a register after '+'");
    op.indexLoc = lx.loc(k);
    op.indexReg = lx.next().text;
    if (!lx.peek().is("*")) return;
    lx.next();
    const Token& n = lx.peek();
    if (n.kind != Token::Kind::Int) lx.unexpected(n, "an integer multiplier after '*'");
    op.indexScale = scaleOf(lx, lx.next());
}

Operand parseOperand(Lexer& lx) {
    const Token& t = lx.peek();
    Operand op;
    op.loc = lx.loc(t);
    if (t.is("-") || t.kind == Token::Kind::Int) {
        op.kind = Operand::Kind::Integer;
        op.value = lx.cellValue("an integer after '-'");
        return op;
    }
    if (t.is("!")) { // `!p`: a source predicate's complement
        lx.next();
        const Token& name = lx.peek();
        if (name.kind != Token::Kind::Ident || name.text == "_")
            lx.unexpected(name, "a predicate register after '!'");
        op.kind = Operand::Kind::Name;
        op.name = lx.next().text;
        op.negated = true;
        return op;
    }
    if (t.kind == Token::Kind::Ident) {
        const Token name = lx.next();
        if (name.text == "_") {
            op.kind = Operand::Kind::Sink;
            return op;
        }
        op.kind = Operand::Kind::Name;
        op.name = name.text;
        if (lx.peek().is("@")) {
            lx.next();
            op.cta = lx.smallNumber("a CTA number after '@'");
        }
        if (lx.peek().is("|")) { // `p|q`: a pair of destination predicates
            lx.next();
            const Token& second = lx.peek();
            if (second.kind != Token::Kind::Ident || second.text == "_")
                lx.unexpected(second, "a register after '|'");
            Operand q;
            q.loc = lx.loc(second);
            q.name = lx.next().text;
            op.elements.push_back(std::move(q));
        }
        return op;
    }
    if (t.is("[")) {
        lx.next();
        op.kind = Operand::Kind::Memory;
        const Token& nameTok = lx.peek();
        if (nameTok.kind != Token::Kind::Ident || nameTok.text == "_")
            lx.unexpected(nameTok, "a location name after '['");
        op.name = lx.next().text;
        if (lx.peek().is("@")) {
            lx.next();
            op.cta = lx.smallNumber("a CTA number after '@'");
        }
        if (lx.peek().is("+")) {
            lx.next();
            parseOffset(lx, op);
        }
        if (lx.peek().is(",")) { // [tensorMap, {c0, c1, ...}]: a tensor copy's tile
            lx.next();
            // [tensorMap, gAddrToOverride, {c0, ...}] (9.4 .override::global_address)
            if (lx.peek().kind == Token::Kind::Ident && lx.peek().text != "_") {
                op.overrideAddress.push_back(parseOperand(lx));
                lx.expectPunct(",", "after the overriding global address");
            }
            if (!lx.peek().is("{")) lx.unexpected(lx.peek(), "'{' starting the tensor coordinates");
            op.elements = parseOperand(lx).elements;
        }
        const Token& close = lx.peek();
        if (!close.is("]")) {
            const std::string what =
                op.cta || op.value != 0 || op.indexReg ? "']'" : "'@', '+', ',' or ']'";
            lx.unexpected(close, what + " in the address");
        }
        lx.next();
        return op;
    }
    if (t.is("{")) {
        lx.next();
        op.kind = Operand::Kind::Vector;
        for (;;) {
            const Token& e = lx.peek();
            if (e.is("}")) {
                if (op.elements.empty()) lx.fail(e, "empty vector '{}'");
                lx.fail(e, "expected a register or integer after ',', found '}'");
            }
            Operand elem;
            elem.loc = lx.loc(e);
            if (e.is("-") || e.kind == Token::Kind::Int) {
                elem.kind = Operand::Kind::Integer;
                elem.value = lx.signedInteger("an integer after '-'");
            } else if (e.kind == Token::Kind::Ident && e.text == "_") {
                lx.next(); // a sink: a destination element nobody reads ({x, _, _, _})
                elem.kind = Operand::Kind::Sink;
            } else if (e.kind == Token::Kind::Ident) {
                elem.kind = Operand::Kind::Name;
                elem.name = lx.next().text;
            } else {
                lx.unexpected(e, "a register, integer or '_' in the vector");
            }
            op.elements.push_back(std::move(elem));
            const Token& sep = lx.peek();
            if (sep.is("}")) break;
            if (!sep.is(",")) lx.unexpected(sep, "',' or '}' in the vector");
            lx.next();
        }
        lx.next();
        return op;
    }
    lx.unexpected(t, "an operand (register, location, integer, [address] or {vector})");
}

bool validLabel(std::string_view name) {
    if (name.empty() || !isIdentStart(name[0])) return false;
    return std::all_of(name.begin() + 1, name.end(), isIdentChar);
}

/** Qualifiers are non-empty and use `:` only in `::` pairs inside them (`cta_group::1`). */
bool validOpcodePart(std::string_view part) {
    if (part.empty() || part.front() == ':' || part.back() == ':') return false;
    for (std::size_t i = 0; i < part.size();) {
        if (part[i] != ':') {
            ++i;
            continue;
        }
        const std::size_t start = i;
        std::size_t run = 0;
        while (i < part.size() && part[i] == ':')
            ++run, ++i;
        // `::` joins words (`shared::cta`); one ':' joins two numbers (the ratio of `sp::2:4`,
        // 9.4's sparse-compression qualifiers)
        const bool ratio = run == 1 && start > 0 && i < part.size() &&
                           std::isdigit(static_cast<unsigned char>(part[start - 1])) &&
                           std::isdigit(static_cast<unsigned char>(part[i]));
        if (run != 2 && !ratio) return false;
    }
    return true;
}

} // namespace

/** `@p` or `@!p` at the start of a cell (PTX ISA {PredicatedExecution}); moves `begin`. */
static std::optional<Predicate> parseGuard(const SourceText& src, std::size_t& begin,
                                           std::size_t end) {
    const std::string& s = src.text();
    std::size_t i = begin;
    while (i < end && isSpace(s[i]))
        ++i;
    if (i >= end || s[i] != '@') return std::nullopt;
    Predicate p;
    p.loc = src.loc(i);
    ++i;
    if (i < end && s[i] == '!') {
        p.negated = true;
        ++i;
    }
    std::size_t e = i;
    while (e < end && (isIdentChar(s[e]) || (e == i && s[e] == '%')))
        ++e;
    if (e == i || !(isIdentStart(s[i]) || s[i] == '%'))
        src.fail(i, "expected a predicate register after '@'");
    p.reg = s.substr(i, e - i);
    if (e >= end || !isSpace(s[e]))
        src.fail(e, "expected an instruction after the guard '@" +
                        std::string(p.negated ? "!" : "") + p.reg + "'");
    begin = e;
    return p;
}

Instruction parseInstruction(const SourceText& src, std::size_t begin, std::size_t end) {
    std::optional<Predicate> guard = parseGuard(src, begin, end);
    Lexer lx(src, begin, end, "end of the instruction");
    const Token op = lx.opcode();
    Instruction ins;
    ins.loc = lx.loc(op);
    const std::string& s = src.text();
    if (op.end < end && !isSpace(s[op.end]))
        src.fail(op.end, "expected a space after opcode " + quote(op.text) + ", found " +
                             quote(std::string_view(s.data() + op.end, 1)));
    const std::string& text = op.text;
    const bool endsInColon = text.back() == ':';
    const bool endsInDoubleColon = text.size() >= 2 && text[text.size() - 2] == ':';
    if (endsInColon && !endsInDoubleColon) {
        const std::string name = text.substr(0, text.size() - 1);
        if (!validLabel(name)) lx.fail(op, "malformed label or opcode " + quote(text));
        const Token& after = lx.peek();
        if (after.kind != Token::Kind::End)
            lx.fail(after, "label " + quote(text) + " must be alone in its cell, found " +
                               lx.describe(after) + " after it");
        if (guard) src.fail(op.begin, "a label cannot have a guard predicate");
        ins.label = name;
        return ins;
    }
    ins.guard = guard;
    ins.opcode = text;
    std::size_t a = 0;
    for (;;) {
        const std::size_t dot = text.find('.', a);
        const std::string part = text.substr(a, dot == std::string::npos ? dot : dot - a);
        if (!validOpcodePart(part))
            lx.fail(op,
                    "malformed opcode " + quote(text) +
                        (part.empty() ? ": empty qualifier" : ": bad qualifier " + quote(part)));
        ins.parts.push_back(part);
        if (dot == std::string::npos) break;
        a = dot + 1;
    }
    if (lx.peek().kind == Token::Kind::End) return ins;
    for (;;) {
        ins.operands.push_back(parseOperand(lx));
        const Token& sep = lx.peek();
        if (sep.kind == Token::Kind::End) break;
        if (sep.is(";"))
            lx.fail(sep, "unexpected ';' inside a cell: write one instruction per cell");
        if (!sep.is(",")) lx.unexpected(sep, "',' between operands");
        lx.next();
    }
    return ins;
}

std::size_t parseCodeTable(const SourceText& src, std::size_t pos, Test& test) {
    const std::string& s = src.text();
    bool haveHeader = false;
    std::size_t lineBegin = pos;
    while (lineBegin <= s.size()) {
        const std::size_t lineEnd = src.lineEnd(lineBegin);
        const std::size_t first = firstNonBlank(s, lineBegin, lineEnd);
        if (first < lineEnd) {
            if (startsTail(src, first, lineEnd)) {
                if (!haveHeader)
                    src.fail(first, "missing thread header row (e.g. 'P0@cta 0,gpu 0 | P1@cta "
                                    "0,gpu 0 ;') after the init block");
                return first;
            }
            const std::vector<Cell> cells = splitRow(src, first, lineEnd);
            if (!haveHeader) {
                for (std::size_t i = 0; i < cells.size(); ++i)
                    test.threads.push_back(parseThreadHeader(src, cells[i], static_cast<int>(i)));
                haveHeader = true;
            } else {
                if (cells.size() > test.threads.size())
                    src.fail(cells[test.threads.size()].start - 1,
                             "code row has " + std::to_string(cells.size()) +
                                 " cells but the thread header names " +
                                 std::to_string(test.threads.size()) + " thread(s)");
                for (std::size_t i = 0; i < cells.size(); ++i)
                    if (!cells[i].empty())
                        test.threads[i].code.push_back(
                            parseInstruction(src, cells[i].begin, cells[i].end));
            }
        }
        lineBegin = lineEnd + 1;
    }
    if (!haveHeader)
        src.fail(s.size(), "missing thread header row (e.g. 'P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;') "
                           "after the init block");
    return s.size();
}

} // namespace ptxmc::litmus::detail

// Litmus file structure: header, descriptions, init block, then code table and condition.
#include "litmus/Parser.hpp"

#include "litmus/Lexer.hpp"
#include "litmus/ParserDetail.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptxmc::litmus {

namespace {

using detail::parseCodeTable;

std::size_t skipBlank(const std::string& s, std::size_t i, std::size_t end) {
    while (i < end && isSpace(s[i]))
        ++i;
    return i;
}

/** End of the run of non-blank characters at `i` (a header word). */
std::size_t wordEnd(const std::string& s, std::size_t i, std::size_t end) {
    while (i < end && !isSpace(s[i]))
        ++i;
    return i;
}

/** herd's `key=value` metadata lines (Hash=, Cycle=, Relax=, ...). */
bool isKeyValueLine(const std::string& s, std::size_t i, std::size_t end) {
    if (i >= end || !(isIdentStart(s[i]) && s[i] != '%')) return false;
    while (i < end && (isIdentChar(s[i]) || s[i] == '-'))
        ++i;
    i = skipBlank(s, i, end);
    return i < end && s[i] == '=';
}

/** Header and description lines; returns the offset of the init block's `{`. */
std::size_t parseHeader(const SourceText& src, Test& test) {
    const std::string& s = src.text();
    const std::size_t n = s.size();
    const std::size_t archBegin = skipBlank(s, 0, n);
    if (archBegin == n) src.fail(0, "empty litmus file: expected a 'PTX NAME' header");
    const std::size_t lineEnd = src.lineEnd(archBegin);
    const std::size_t archEnd = wordEnd(s, archBegin, lineEnd);
    const std::string arch = s.substr(archBegin, archEnd - archBegin);
    if (arch != "PTX" && arch != "ptx")
        src.fail(archBegin,
                 "expected the architecture 'PTX' at the start of the test, found " + quote(arch));
    test.arch = "PTX";
    const std::size_t nameBegin = skipBlank(s, archEnd, lineEnd);
    if (nameBegin == lineEnd) src.fail(nameBegin, "expected a test name after '" + arch + "'");
    const std::size_t nameEnd = wordEnd(s, nameBegin, lineEnd);
    test.name = s.substr(nameBegin, nameEnd - nameBegin);
    const std::size_t extra = skipBlank(s, nameEnd, lineEnd);
    if (extra != lineEnd)
        src.fail(extra, "unexpected " + quote(s.substr(extra, wordEnd(s, extra, lineEnd) - extra)) +
                            " after the test name (names cannot contain spaces)");

    std::size_t i = lineEnd;
    for (;;) {
        i = skipBlank(s, i, n);
        if (i == n) src.fail(i, "missing init block '{ ... }' after the test header");
        std::size_t end = src.lineEnd(i);
        if (s[i] == '{') return i;
        if (s[i] == '"') {
            // SourceText checked that quotes pair up, but a quote inside the test name pairs
            // with this one there: then this one is left open.
            const std::size_t close = s.find('"', i + 1);
            if (close == std::string::npos)
                src.fail(i, "unterminated string: missing closing '\"'");
            end = src.lineEnd(close);
            // One description line per source line of the string, blanks trimmed.
            std::size_t from = i + 1;
            while (from < close) {
                std::size_t nl = std::min(s.find('\n', from), close);
                std::size_t a = skipBlank(s, from, nl), b = nl;
                while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r'))
                    --b;
                if (b > a || close < s.find('\n', i)) test.docs.push_back(s.substr(a, b - a));
                from = nl + 1;
            }
            const std::size_t after = skipBlank(s, close + 1, end);
            if (after != end)
                src.fail(after, "unexpected text after the description string (one quoted "
                                "string per line)");
            i = end;
            continue;
        }
        if (isKeyValueLine(s, i, end)) {
            i = end;
            continue;
        }
        src.fail(i, "expected a quoted description, a key=value line or '{' starting the init "
                    "block, found " +
                        quote(s.substr(i, wordEnd(s, i, end) - i)));
    }
}

/** Everything after the code table: `locations [...]` and the condition, in either order. */
void parseTail(const SourceText& src, std::size_t pos, Test& test) {
    Lexer lx(src, pos, src.size(), "end of file");
    bool haveLocations = false;
    for (;;) {
        const Token& t = lx.peek();
        if (t.kind == Token::Kind::End) break;
        if (t.isWord("locations")) {
            if (haveLocations) lx.fail(t, "a second 'locations' clause");
            haveLocations = true;
            test.observed = detail::parseLocationsClause(lx);
            continue;
        }
        if (test.condition)
            lx.fail(t, "unexpected " + lx.describe(t) + " after the final condition");
        if (!(t.is("~") || t.isWord("exists") || t.isWord("forall")))
            lx.unexpected(t, "'exists', '~exists', 'forall' or 'locations'");
        test.condition = detail::parseCondition(lx);
        if (lx.peek().is(";")) lx.next(); // Dat3M allows `exists (...);`
    }
    if (!test.condition)
        lx.fail(lx.peek(), "no final condition: expected 'exists', '~exists' or 'forall' after "
                           "the code table");
}

/**
 * Inputs often handed to ptxmc that are not PTX litmus tests: a PTX module (nvcc's output) or a
 * herd litmus test for another architecture. Said by name, before the lexer would stop at
 * something inside them (a `(*` of C code, a `.version` directive).
 */
void rejectForeignFormat(const std::string& s, const std::string& file) {
    std::size_t i = 0;
    int line = 1;
    std::size_t lineStart = 0;
    for (;;) { // skip blank space, `//` lines and `(* *)` comments before the first word
        while (i < s.size() && isSpace(s[i])) {
            if (s[i] == '\n') ++line, lineStart = i + 1;
            ++i;
        }
        if (s.compare(i, 2, "//") == 0) {
            while (i < s.size() && s[i] != '\n')
                ++i;
        } else if (s.compare(i, 2, "(*") == 0) {
            const std::size_t close = s.find("*)", i + 2);
            if (close == std::string::npos) return; // the lexer reports it
            for (; i < close + 2; ++i)
                if (s[i] == '\n') ++line, lineStart = i + 1;
        } else {
            break;
        }
    }
    std::size_t end = i;
    while (end < s.size() && !isSpace(s[end]))
        ++end;
    const std::string word = s.substr(i, end - i);
    const SourceLoc at{file, line, static_cast<int>(i - lineStart) + 1};
    if (word == ".version" || word == ".target" || word == ".address_size")
        throw InputError(at,
                         "this is a PTX module (what nvcc -ptx or cuobjdump -ptx writes), not "
                         "a litmus test: 'ptxmc kernel FILE.ptx' checks a module's kernel; 'ptxmc "
                         "check' reads litmus tests written in PTX (a 'PTX NAME' header, an "
                         "init block, a code table of threads, a condition; litmus/README.md "
                         "describes the format)");
    // A cat file opens with its quoted title or a statement; a litmus test with `PTX NAME`.
    static const char* const kCatWords[] = {"let",   "include", "acyclic", "irreflexive",
                                            "empty", "flag",    "show",    "let rec"};
    bool cat = !word.empty() && word[0] == '"';
    for (const char* w : kCatWords)
        cat = cat || word == w;
    if (cat)
        throw InputError(at, "this is a cat model (the rules a check applies), not a litmus "
                             "test: give it to --model FILE, and the tests as paths");
    static const char* const kHerdArchs[] = {"C",    "X86",  "X86_64",  "AArch64",
                                             "ARM",  "PPC",  "RISCV",   "MIPS",
                                             "LISA", "Bell", "GPU_PTX", "OpenCL"};
    for (const char* arch : kHerdArchs)
        if (word == arch)
            throw InputError(at, "this is a herd litmus test for the architecture '" + word +
                                     "': ptxmc checks only litmus tests written in PTX (first "
                                     "line 'PTX NAME'; litmus/README.md describes the format)");
}

} // namespace

Test parseLitmus(const std::string& text, const std::string& file) {
    rejectForeignFormat(text, file);
    const SourceText src(text, file);
    Test test;
    test.file = file;
    const std::size_t brace = parseHeader(src, test);
    Lexer lx(src, brace, src.size(), "end of file");
    detail::parseInitBlock(lx, test);
    if (lx.peek().is(";")) lx.next(); // Dat3M allows `};`
    const std::size_t tail = parseCodeTable(src, lx.pos(), test);
    parseTail(src, tail, test);
    return test;
}

Test parseLitmusFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(SourceLoc{path, 0, 0}, "cannot read litmus file: it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(SourceLoc{path, 0, 0},
                         std::string("cannot open litmus file: ") + std::strerror(errno));
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad()) throw InputError(SourceLoc{path, 0, 0}, "cannot read litmus file: read error");
    return parseLitmus(buf.str(), path);
}

} // namespace ptxmc::litmus

// Comment stripping, input validation and tokenisation of litmus text.
#include "litmus/Lexer.hpp"

#include <algorithm>
#include <climits>
#include <limits>
#include <utility>

namespace ptxmc::litmus {

namespace {

std::string hexByte(unsigned char c) {
    static const char* digits = "0123456789abcdef";
    std::string s = "0x";
    s += digits[c >> 4];
    s += digits[c & 0xf];
    return s;
}

bool isPrintable(unsigned char c) {
    return c >= 0x20 && c < 0x7f;
}

bool isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int digitValue(char c) {
    if (isDigit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

} // namespace

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n';
}
bool isIdentStart(char c) {
    return isAlpha(c) || c == '_' || c == '$' || c == '%';
}
bool isIdentChar(char c) {
    return isAlpha(c) || isDigit(c) || c == '_' || c == '$';
}

std::string quote(std::string_view text) {
    constexpr std::size_t kMax = 40;
    if (text.size() > kMax) return "'" + std::string(text.substr(0, kMax)) + "...'";
    return "'" + std::string(text) + "'";
}

SourceText::SourceText(const std::string& text, std::string file) : file_(std::move(file)) {
    std::string_view in = text;
    if (in.substr(0, 3) == "\xEF\xBB\xBF") in.remove_prefix(3);
    // Drop the '\r' of CRLF line ends: it sits at the end of a line, so no column moves.
    text_.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '\r' && i + 1 < in.size() && in[i + 1] == '\n') continue;
        text_ += in[i];
    }
    lineStarts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i)
        if (text_[i] == '\n') lineStarts_.push_back(i + 1);

    std::string& s = text_;
    const std::size_t n = s.size();
    // A `(* *)` comment is whitespace even across lines (so it never splits a code row); a
    // `//` comment keeps the newline that ends it. Positions come from lineStarts_, which was
    // built from the original text, so they stay exact.
    auto blank = [&](std::size_t i) { s[i] = ' '; };
    std::size_t i = 0;
    while (i < n) {
        const char c = s[i];
        const char d = i + 1 < n ? s[i + 1] : '\0';
        if (c == '(' && d == '*') {
            const std::size_t start = i;
            int depth = 0;
            for (;;) {
                if (i >= n) fail(start, "unterminated comment: '(*' has no matching '*)'");
                const char e = i + 1 < n ? s[i + 1] : '\0';
                if (s[i] == '(' && e == '*') {
                    ++depth;
                } else if (s[i] == '*' && e == ')') {
                    --depth;
                } else {
                    blank(i);
                    ++i;
                    continue;
                }
                blank(i);
                blank(i + 1);
                i += 2;
                if (depth == 0) break;
            }
        } else if (c == '/' && d == '/') {
            while (i < n && s[i] != '\n')
                blank(i++);
        } else if (c == '"') {
            const std::size_t start = i++;
            // A description may span lines (herd and Dat3M accept that).
            while (i < n && s[i] != '"') {
                const auto b = static_cast<unsigned char>(s[i]);
                if (b < 0x80 && !isPrintable(b) && b != '\t' && b != '\n' && b != '\r')
                    fail(i, "unexpected control byte " + hexByte(b) + " in a string");
                ++i;
            }
            if (i >= n) fail(start, "unterminated string: missing closing '\"'");
            ++i;
        } else {
            const auto b = static_cast<unsigned char>(c);
            if (b >= 0x80)
                fail(i, "unexpected non-ASCII byte " + hexByte(b) + " outside a comment or string");
            if (!isPrintable(b) && c != '\n' && c != '\t')
                fail(i, "unexpected control byte " + hexByte(b) + " (is this a binary file?)");
            ++i;
        }
    }
}

SourceLoc SourceText::loc(std::size_t offset) const {
    const auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
    const auto line = static_cast<std::size_t>(it - lineStarts_.begin());
    const std::size_t col = offset - lineStarts_[line - 1] + 1;
    return SourceLoc{file_, static_cast<int>(line), static_cast<int>(col)};
}

std::size_t SourceText::lineEnd(std::size_t offset) const {
    const std::size_t nl = text_.find('\n', offset);
    return nl == std::string::npos ? text_.size() : nl;
}

void SourceText::fail(std::size_t offset, const std::string& message) const {
    throw InputError(loc(offset), message);
}

std::optional<int> threadNumber(std::string_view ident) {
    if (ident.size() < 2 || ident.size() > 10 || ident[0] != 'P') return std::nullopt;
    if (ident.size() > 2 && ident[1] == '0') return std::nullopt;
    int n = 0;
    for (char c : ident.substr(1)) {
        if (!isDigit(c)) return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

Lexer::Lexer(const SourceText& src, std::size_t begin, std::size_t end, std::string endName)
    : src_(src), pos_(begin), end_(std::min(end, src.size())), endName_(std::move(endName)),
      consumedEnd_(begin) {}

void Lexer::skipSpace() {
    const std::string& s = src_.text();
    while (pos_ < end_ && isSpace(s[pos_]))
        ++pos_;
}

Token Lexer::lex() {
    skipSpace();
    const std::string& s = src_.text();
    Token t;
    t.begin = pos_;
    if (pos_ >= end_) {
        t.kind = Token::Kind::End;
        t.end = pos_;
        return t;
    }
    const char c = s[pos_];
    auto finish = [&](Token::Kind kind, std::size_t len) {
        t.kind = kind;
        t.end = pos_ + len;
        t.text = s.substr(pos_, len);
        pos_ += len;
        return t;
    };
    if (isIdentStart(c)) {
        std::size_t e = pos_ + 1;
        while (e < end_ && isIdentChar(s[e]))
            ++e;
        if ((c == '%' || c == '$') && e == pos_ + 1)
            src_.fail(pos_, std::string("expected an identifier after '") + c + "'");
        return finish(Token::Kind::Ident, e - pos_);
    }
    if (isDigit(c)) {
        std::size_t e = pos_;
        while (e < end_ && (isIdentChar(s[e]) && s[e] != '$'))
            ++e;
        const std::string_view lit(s.data() + pos_, e - pos_);
        bool ok = std::all_of(lit.begin(), lit.end(), isDigit);
        if (!ok && lit.size() > 2 && lit[0] == '0' && (lit[1] == 'x' || lit[1] == 'X'))
            ok = std::all_of(lit.begin() + 2, lit.end(), isHex);
        if (!ok && lit.size() > 2 && lit[0] == '0' && (lit[1] == 'b' || lit[1] == 'B'))
            ok = std::all_of(lit.begin() + 2, lit.end(),
                             [](char x) { return x == '0' || x == '1'; });
        if (!ok)
            src_.fail(pos_, "malformed integer " + quote(lit) +
                                " (expected decimal digits, 0x<hex> or 0b<binary>)");
        return finish(Token::Kind::Int, e - pos_);
    }
    const char d = pos_ + 1 < end_ ? s[pos_ + 1] : '\0';
    for (const char* two : {"==", "!=", "=>", "/\\", "\\/"})
        if (c == two[0] && d == two[1]) return finish(Token::Kind::Punct, 2);
    if (c == '*' && d == ')') src_.fail(pos_, "'*)' without a matching '(*'");
    // '*' joins an array index to its multiplier: `[a+8*s]`
    if (std::string_view("@=;,{}[]():+-~|&*!").find(c) != std::string_view::npos)
        return finish(Token::Kind::Punct, 1);
    if (c == '<' || c == '>')
        src_.fail(pos_, std::string("unexpected '") + c +
                            "': only '==', '=' and '!=' comparisons are supported");
    if (c == '"') src_.fail(pos_, "unexpected string here");
    if (c == '/' || c == '\\')
        src_.fail(pos_,
                  std::string("unexpected '") + c + "' (conjunction is '/\\', disjunction '\\/')");
    src_.fail(pos_, std::string("unexpected character '") + c + "'");
}

const Token& Lexer::peek() {
    if (!peeked_) peeked_ = lex();
    return *peeked_;
}

Token Lexer::next() {
    Token t = peeked_ ? std::move(*peeked_) : lex();
    peeked_.reset();
    if (t.kind != Token::Kind::End) consumedEnd_ = t.end;
    return t;
}

Token Lexer::opcode() {
    skipSpace();
    const std::string& s = src_.text();
    Token t;
    t.begin = pos_;
    if (pos_ >= end_ || !(isAlpha(s[pos_]) || s[pos_] == '_' || s[pos_] == '%')) {
        t.end = pos_;
        if (pos_ < end_) {
            t.kind = Token::Kind::Punct;
            t.text = s.substr(pos_, 1);
        }
        unexpected(t, "an instruction opcode");
    }
    std::size_t e = pos_;
    auto opcodeChar = [](char x) {
        return isAlpha(x) || isDigit(x) || x == '_' || x == '.' || x == ':' || x == '%';
    };
    while (e < end_ && opcodeChar(s[e]))
        ++e;
    t.kind = Token::Kind::Ident;
    t.text = s.substr(pos_, e - pos_);
    t.end = e;
    pos_ = e;
    consumedEnd_ = e;
    return t;
}

std::string Lexer::describe(const Token& tok) const {
    if (tok.kind == Token::Kind::End) return endName_;
    return quote(tok.text);
}

void Lexer::fail(const Token& tok, const std::string& message) const {
    throw InputError(loc(tok), message);
}

void Lexer::unexpected(const Token& tok, std::string_view what) const {
    fail(tok, "expected " + std::string(what) + ", found " + describe(tok));
}

Token Lexer::expectPunct(std::string_view punct, std::string_view context) {
    const Token& t = peek();
    if (!t.is(punct)) unexpected(t, "'" + std::string(punct) + "' " + std::string(context));
    return next();
}

Token Lexer::expectIdent(std::string_view what) {
    const Token& t = peek();
    if (t.kind != Token::Kind::Ident) unexpected(t, what);
    return next();
}

std::optional<std::uint64_t> Lexer::magnitude(const Token& tok, std::uint64_t limit) const {
    std::string_view lit = tok.text;
    unsigned base = 10;
    if (lit.size() > 2 && lit[0] == '0' && (lit[1] == 'x' || lit[1] == 'X')) {
        base = 16;
        lit.remove_prefix(2);
    } else if (lit.size() > 2 && lit[0] == '0' && (lit[1] == 'b' || lit[1] == 'B')) {
        base = 2;
        lit.remove_prefix(2);
    }
    std::uint64_t v = 0;
    for (char c : lit) {
        const auto digit = static_cast<std::uint64_t>(digitValue(c));
        if (v > (limit - digit) / base) return std::nullopt;
        v = v * base + digit;
    }
    return v;
}

std::int64_t Lexer::integerValue(const Token& tok, bool negative) const {
    const std::uint64_t limit =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
    const auto m = magnitude(tok, limit);
    if (!m)
        fail(tok, "integer " + quote((negative ? "-" : "") + tok.text) +
                      " does not fit in a signed 64-bit integer");
    const std::uint64_t v = *m;
    if (!negative) return static_cast<std::int64_t>(v);
    if (v == limit) return std::numeric_limits<std::int64_t>::min();
    return -static_cast<std::int64_t>(v);
}

std::pair<Token, bool> Lexer::optionallyNegated(std::string_view what) {
    bool negative = false;
    if (peek().is("-")) {
        next();
        negative = true;
    }
    const Token& t = peek();
    if (t.kind != Token::Kind::Int) unexpected(t, what);
    return {next(), negative};
}

std::int64_t Lexer::signedInteger(std::string_view what) {
    const auto [tok, negative] = optionallyNegated(what);
    return integerValue(tok, negative);
}

std::int64_t Lexer::cellValue(std::string_view what) {
    const auto [tok, negative] = optionallyNegated(what);
    return wordValue(tok, negative);
}

std::int64_t Lexer::wordValue(const Token& tok, bool negative) const {
    if (negative) return integerValue(tok, true);
    const auto v = magnitude(tok, std::numeric_limits<std::uint64_t>::max());
    if (!v) fail(tok, "value " + quote(tok.text) + " does not fit the 64-bit values ptxmc models");
    return static_cast<std::int64_t>(*v); // 2^63 and up: the same 64 bits, read as signed
}

int Lexer::smallNumber(std::string_view what) {
    const Token& t = peek();
    if (t.is("-")) fail(t, "expected " + std::string(what) + ", found a negative number");
    if (t.kind != Token::Kind::Int) unexpected(t, what);
    const Token tok = next();
    const std::int64_t v = integerValue(tok, false);
    if (v > INT_MAX) fail(tok, std::string(what) + " " + quote(tok.text) + " is too large");
    return static_cast<int>(v);
}

} // namespace ptxmc::litmus

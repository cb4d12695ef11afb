// Cat lexer implementation: byte-oriented and ASCII-only, so binary junk is rejected cleanly.
#include "cat/Lexer.hpp"

#include "ptx/Sections.hpp"

#include <array>
#include <cstdio>
#include <utility>

namespace ptxmc::cat {

namespace {

// Explicit ASCII tests: <cctype> depends on the locale and is undefined for negative chars.
bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isNameStart(char c) {
    return isLetter(c) || c == '_';
}
bool isNameChar(char c) {
    return isLetter(c) || isDigit(c) || c == '_' || c == '-' || c == '.';
}
bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

constexpr std::array<std::pair<std::string_view, Tok>, 13> kKeywords{{
    {"let", Tok::Let},
    {"rec", Tok::Rec},
    {"and", Tok::And},
    {"in", Tok::In},
    {"include", Tok::Include},
    {"acyclic", Tok::Acyclic},
    {"irreflexive", Tok::Irreflexive},
    {"empty", Tok::EmptyKw},
    {"as", Tok::As},
    {"flag", Tok::Flag},
    {"show", Tok::Show},
    {"domain", Tok::Domain},
    {"range", Tok::Range},
}};

/** Trims and collapses whitespace runs (including newlines) to single spaces. */
std::string collapseSpaces(std::string_view s) {
    std::string out;
    bool pendingSpace = false;
    for (char c : s) {
        if (isBlank(c) || c == '\n') {
            pendingSpace = !out.empty();
            continue;
        }
        if (pendingSpace) out += ' ';
        pendingSpace = false;
        out += c;
    }
    return out;
}

/** A byte as error-message text: printable ASCII verbatim, anything else as \xNN. */
std::string printable(std::string_view s, std::size_t maxLen = 40) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i == maxLen) {
            out += "...";
            break;
        }
        auto u = static_cast<unsigned char>(s[i]);
        if (u >= 0x20 && u < 0x7f) {
            out += s[i];
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", u);
            out += buf;
        }
    }
    return out;
}

/** `loc` moved past `text`, counting columns in bytes as the lexer does. */
SourceLoc advancedBy(SourceLoc loc, std::string_view text) {
    for (char c : text) {
        loc.col = c == '\n' ? 1 : loc.col + 1;
        loc.line += c == '\n' ? 1 : 0;
    }
    return loc;
}

} // namespace

std::string_view spelling(Tok kind) {
    for (const auto& [word, tok] : kKeywords)
        if (tok == kind) return word;
    switch (kind) {
    case Tok::End:
        return "end of file";
    case Tok::Name:
        return "name";
    case Tok::String:
        return "string";
    case Tok::Zero:
        return "0";
    case Tok::Universe:
        return "_";
    case Tok::Pipe:
        return "|";
    case Tok::Semi:
        return ";";
    case Tok::Backslash:
        return "\\";
    case Tok::Amp:
        return "&";
    case Tok::Star:
        return "*";
    case Tok::Plus:
        return "+";
    case Tok::Question:
        return "?";
    case Tok::Tilde:
        return "~";
    case Tok::Inverse:
        return "^-1";
    case Tok::LParen:
        return "(";
    case Tok::RParen:
        return ")";
    case Tok::LBracket:
        return "[";
    case Tok::RBracket:
        return "]";
    case Tok::Equal:
        return "=";
    case Tok::Comma:
        return ",";
    default:
        return "?";
    }
}

std::string describe(const Token& token) {
    switch (token.kind) {
    case Tok::End:
        return "end of file";
    case Tok::Name:
        return "name '" + printable(token.text) + "'";
    case Tok::String:
        return "string \"" + printable(token.text) + "\"";
    default:
        return "'" + std::string(spelling(token.kind)) + "'";
    }
}

Lexer::Lexer(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

const Token& Lexer::peek(std::size_t ahead) {
    while (ahead_.size() <= ahead)
        ahead_.push_back(scan());
    return ahead_[ahead];
}

Token Lexer::next() {
    peek();
    Token t = std::move(ahead_.front());
    ahead_.pop_front();
    return t;
}

char Lexer::at(std::size_t offset) const {
    return pos_ + offset < text_.size() ? text_[pos_ + offset] : '\0';
}

SourceLoc Lexer::here() const {
    return SourceLoc{file_, line_, col_};
}

void Lexer::advance() {
    if (pos_ >= text_.size()) return;
    if (text_[pos_] == '\n') {
        ++line_;
        col_ = 1;
    } else {
        ++col_;
    }
    ++pos_;
}

void Lexer::fail(const SourceLoc& loc, const std::string& message) const {
    throw InputError(loc, message);
}

std::string Lexer::readComment() {
    const SourceLoc start = here();
    advance(); // (
    advance(); // *
    const std::size_t innerBegin = pos_;
    const SourceLoc innerLoc = here();
    int depth = 1;
    while (true) {
        if (pos_ >= text_.size()) fail(start, "unterminated comment: '(*' has no matching '*)'");
        if (at(0) == '(' && at(1) == '*') {
            advance();
            advance();
            ++depth;
        } else if (at(0) == '*' && at(1) == ')') {
            advance();
            advance();
            if (--depth == 0)
                return expandSections(text_.substr(innerBegin, pos_ - 2 - innerBegin), innerLoc);
        } else {
            advance();
        }
    }
}

std::string Lexer::expandSections(std::string_view comment, const SourceLoc& loc) const {
    try {
        return ptx::expandCitations(comment);
    } catch (const ptx::CitationError& e) {
        fail(advancedBy(loc, comment.substr(0, e.offset)), e.what());
    }
}

std::string Lexer::skipTrivia() {
    // A blank line between two comments starts a new paragraph: only the last one documents the
    // next token, so a section banner above a commented check does not leak into its doc.
    std::string doc;
    int newlines = 0;
    while (pos_ < text_.size()) {
        const char c = at(0);
        if (isBlank(c)) {
            advance();
        } else if (c == '\n') {
            ++newlines;
            advance();
        } else if (c == '(' && at(1) == '*') {
            // A comment on the line where the previous token ended remarks on that token.
            const bool trailing = line_ == lastTokenLine_;
            std::string text = readComment();
            if (trailing) continue;
            if (!doc.empty() && newlines < 2)
                doc += " " + text;
            else
                doc = std::move(text);
            newlines = 0;
        } else {
            break;
        }
    }
    return collapseSpaces(doc);
}

Token Lexer::scan() {
    Token t = scanToken();
    lastTokenLine_ = line_;
    return t;
}

Token Lexer::scanToken() {
    Token t;
    t.doc = skipTrivia();
    t.loc = here();
    if (pos_ >= text_.size()) {
        t.kind = Tok::End;
        return t;
    }
    const char c = at(0);
    const std::size_t begin = pos_;

    if (isNameStart(c) || isDigit(c)) {
        while (pos_ < text_.size() && isNameChar(at(0)))
            advance();
        t.text = std::string(text_.substr(begin, pos_ - begin));
        if (isDigit(c)) {
            if (t.text != "0")
                fail(t.loc, "unexpected number '" + t.text +
                                "': the only numeric literal is 0 (the empty relation)");
            t.kind = Tok::Zero;
            return t;
        }
        if (t.text == "_") {
            t.kind = Tok::Universe;
            return t;
        }
        t.kind = Tok::Name;
        for (const auto& [word, tok] : kKeywords)
            if (word == t.text) t.kind = tok;
        return t;
    }

    if (c == '"') {
        advance();
        const std::size_t inner = pos_;
        while (pos_ < text_.size() && at(0) != '"' && at(0) != '\n')
            advance();
        if (at(0) != '"') fail(t.loc, "unterminated string: missing closing '\"' on this line");
        t.text = std::string(text_.substr(inner, pos_ - inner));
        advance();
        t.kind = Tok::String;
        return t;
    }

    if (c == '^') {
        if (at(1) != '-' || at(2) != '1') fail(t.loc, "expected '^-1' (inverse) after '^'");
        advance();
        advance();
        advance();
        t.kind = Tok::Inverse;
        t.text = "^-1";
        return t;
    }

    switch (c) {
    case '|':
        t.kind = Tok::Pipe;
        break;
    case ';':
        t.kind = Tok::Semi;
        break;
    case '\\':
        t.kind = Tok::Backslash;
        break;
    case '&':
        t.kind = Tok::Amp;
        break;
    case '*':
        t.kind = Tok::Star;
        break;
    case '+':
        t.kind = Tok::Plus;
        break;
    case '?':
        t.kind = Tok::Question;
        break;
    case '~':
        t.kind = Tok::Tilde;
        break;
    case '(':
        t.kind = Tok::LParen;
        break;
    case ')':
        t.kind = Tok::RParen;
        break;
    case '[':
        t.kind = Tok::LBracket;
        break;
    case ']':
        t.kind = Tok::RBracket;
        break;
    case '=':
        t.kind = Tok::Equal;
        break;
    case ',':
        t.kind = Tok::Comma;
        break;
    default:
        fail(t.loc, "unexpected character '" + printable(std::string_view(&c, 1)) + "'");
    }
    advance();
    t.text = std::string(spelling(t.kind));
    return t;
}

} // namespace ptxmc::cat

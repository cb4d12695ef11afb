// Cat lexer: model text -> tokens with file:line:col, skipping nested (* comments *).
#pragma once

#include "support/SourceLoc.hpp"

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>

namespace ptxmc::cat {

enum class Tok {
    End,
    Name,     ///< identifier: [A-Za-z_][A-Za-z0-9_.-]*, except `_` alone and keywords
    String,   ///< "..." (no escapes, no newline; `text` holds the contents)
    Zero,     ///< `0`
    Universe, ///< `_`
    // Keywords.
    Let,
    Rec,
    And,
    In,
    Include,
    Acyclic,
    Irreflexive,
    EmptyKw,
    As,
    Flag,
    Show,
    Domain,
    Range,
    // Punctuation.
    Pipe,
    Semi,
    Backslash,
    Amp,
    Star,
    Plus,
    Question,
    Tilde,
    Inverse, ///< `^-1`, one token
    LParen,
    RParen,
    LBracket,
    RBracket,
    Equal,
    Comma,
};

struct Token {
    Tok kind = Tok::End;
    std::string text; ///< Name: the name; String: the contents; otherwise the spelling
    SourceLoc loc;    ///< first character (End: just past the last character)
    /// Comments between the previous token and this one: the last paragraph of them (comments
    /// separated by at most one newline; a comment starting on the previous token's line is a
    /// trailing remark and is left out), trimmed, whitespace runs collapsed to one space.
    std::string doc;
};

/** Spelling of a keyword or punctuation kind, e.g. "acyclic" or "^-1"; a word for the others. */
std::string_view spelling(Tok kind);

/** How a token reads in an error message: "'let'", "name 'po'", "end of file". */
std::string describe(const Token& token);

/**
 * Scans on demand, so a lexical error late in a file never hides a syntax error earlier in it.
 * Columns count bytes from 1 (a tab is one column). The text must outlive the lexer.
 */
class Lexer {
public:
    Lexer(std::string_view text, std::string file);

    /** The token `ahead` positions after the current one (0 = current). */
    const Token& peek(std::size_t ahead = 0);
    Token next();

private:
    Token scan();
    Token scanToken();
    std::string skipTrivia();
    /// The comment's text with its section keys (`{Key}`, `{Key#}`) expanded from
    /// ptx/Sections.cpp, so the model cites sections by key and prints today's numbers.
    std::string readComment();
    std::string expandSections(std::string_view comment, const SourceLoc& loc) const;
    void advance();
    char at(std::size_t offset) const;
    SourceLoc here() const;
    [[noreturn]] void fail(const SourceLoc& loc, const std::string& message) const;

    std::string_view text_;
    std::string file_;
    std::size_t pos_ = 0;
    int line_ = 1;
    int col_ = 1;
    int lastTokenLine_ = 0; ///< line where the previous token ended (0: none yet)
    std::deque<Token> ahead_;
};

} // namespace ptxmc::cat

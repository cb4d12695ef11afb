// Comment stripping and tokens of the litmus format, keeping exact line:col positions.
#pragma once

#include "support/SourceLoc.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxmc::litmus {

/**
 * The input with comments blanked out: every character keeps its offset, so any offset maps
 * back to the line:col the user wrote, and a block comment spanning lines joins them into one
 * logical line. The constructor rejects unterminated comments and strings and bytes that are not
 * printable ASCII outside comments.
 */
class SourceText {
public:
    SourceText(const std::string& text, std::string file);

    const std::string& text() const { return text_; }
    const std::string& file() const { return file_; }
    std::size_t size() const { return text_.size(); }
    SourceLoc loc(std::size_t offset) const;
    /** Offset of the '\n' ending the logical line that holds `offset` (size() on the last). */
    std::size_t lineEnd(std::size_t offset) const;
    [[noreturn]] void fail(std::size_t offset, const std::string& message) const;

private:
    std::string text_;
    std::string file_;
    std::vector<std::size_t> lineStarts_;
};

bool isSpace(char c);
bool isIdentStart(char c);
bool isIdentChar(char c);

/** Printable rendering of a piece of source for messages: `'foo'`. */
std::string quote(std::string_view text);

struct Token {
    enum class Kind { Ident, Int, Punct, End };
    Kind kind = Kind::End;
    std::string text;
    std::size_t begin = 0; ///< offset in SourceText
    std::size_t end = 0;

    bool is(std::string_view punct) const { return kind == Kind::Punct && text == punct; }
    bool isWord(std::string_view word) const { return kind == Kind::Ident && text == word; }
};

/** Tokens of one range of a SourceText (the rest of the file, or one cell of the code table). */
class Lexer {
public:
    /** `endName` describes the end of the range in messages, e.g. "end of file". */
    Lexer(const SourceText& src, std::size_t begin, std::size_t end, std::string endName);

    const Token& peek();
    Token next();
    /** Offset just after the last consumed token. */
    std::size_t pos() const { return consumedEnd_; }
    const SourceText& source() const { return src_; }

    /**
     * An instruction opcode (letters, digits, `_`, `.`, `:`, `%`): it has its own character set,
     * so it cannot come from next(). Must be called before anything is peeked.
     */
    Token opcode();

    Token expectPunct(std::string_view punct, std::string_view context);
    Token expectIdent(std::string_view what);
    /** An optionally negated integer literal that fits in int64. */
    std::int64_t signedInteger(std::string_view what);
    /** An optionally negated integer a cell or register may hold: -2^63 to 2^64-1, the 64 bits
     *  read as signed; anything wider is an error. Whether it fits a 32-bit cell, register or
     *  operand is the lowering's to check, once it knows which are 64-bit. */
    std::int64_t cellValue(std::string_view what);
    /** The value of an Int token as cellValue reads it (`negative`: after a '-'). */
    std::int64_t wordValue(const Token& tok, bool negative) const;
    /** A non-negative integer that fits in an int (CTA, thread, row numbers). */
    int smallNumber(std::string_view what);
    /** The value of an Int token; `negative` because -2^63 fits but 2^63 does not. */
    std::int64_t integerValue(const Token& tok, bool negative) const;
    /** An Int token after an optional '-' (an error naming `what` otherwise), and the '-'. */
    std::pair<Token, bool> optionallyNegated(std::string_view what);
    /** The digits of an Int token (decimal, 0x, 0b) as an unsigned value; none above `limit`. */
    std::optional<std::uint64_t> magnitude(const Token& tok, std::uint64_t limit) const;

    SourceLoc loc(const Token& tok) const { return src_.loc(tok.begin); }
    /** `'foo'`, or the range's end name for End. */
    std::string describe(const Token& tok) const;
    [[noreturn]] void fail(const Token& tok, const std::string& message) const;
    /** Throws "expected <what>, found <tok>" at tok. */
    [[noreturn]] void unexpected(const Token& tok, std::string_view what) const;

private:
    Token lex();
    void skipSpace();

    const SourceText& src_;
    std::size_t pos_;
    std::size_t end_;
    std::string endName_;
    std::optional<Token> peeked_;
    std::size_t consumedEnd_;
};

/** 12 for "P12"; empty when `ident` is not a thread name. */
std::optional<int> threadNumber(std::string_view ident);

} // namespace ptxmc::litmus

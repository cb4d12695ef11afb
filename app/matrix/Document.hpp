// A small document model (headings, paragraphs, tables) rendered as Markdown or HTML.
#pragma once

#include <string>
#include <vector>

namespace ptxmc::matrix {

/**
 * One block. Inline text uses three Markdown constructs only: `code`, **bold** and
 * [text](url); the HTML renderer translates exactly those and escapes everything else.
 */
struct Block {
    enum class Kind { Heading, Paragraph, Code, List, Table, Comment };
    Kind kind = Kind::Paragraph;
    int level = 1;                              ///< Heading: 1 for `#`
    std::string text;                           ///< Heading, Paragraph, Code, Comment
    std::vector<std::string> items;             ///< List
    std::vector<std::string> header;            ///< Table
    std::vector<std::vector<std::string>> rows; ///< Table
};

struct Document {
    std::string title; ///< the HTML page title
    std::vector<Block> blocks;

    void heading(int level, std::string text);
    void paragraph(std::string text);
    void code(std::string text);
    void list(std::vector<std::string> items);
    void table(std::vector<std::string> header, std::vector<std::vector<std::string>> rows);
    void comment(std::string text);
};

std::string renderMarkdown(const Document& doc);
std::string renderHtml(const Document& doc);

/** Inline Markdown (the three constructs above) as HTML, everything else escaped. */
std::string inlineHtml(const std::string& markdown);

/** Escapes `|` so that text can sit in a Markdown table cell. */
std::string cellText(const std::string& text);

} // namespace ptxmc::matrix

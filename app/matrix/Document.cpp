// Markdown and HTML output of a Document; both are deterministic functions of the blocks.
#include "matrix/Document.hpp"

#include "report/Markup.hpp"

#include <cctype>
#include <utility>
#include <vector>

namespace ptxmc::matrix {

using report::htmlEscape;

void Document::heading(int level, std::string text) {
    blocks.push_back({Block::Kind::Heading, level, std::move(text), {}, {}, {}});
}

void Document::paragraph(std::string text) {
    blocks.push_back({Block::Kind::Paragraph, 0, std::move(text), {}, {}, {}});
}

void Document::code(std::string text) {
    blocks.push_back({Block::Kind::Code, 0, std::move(text), {}, {}, {}});
}

void Document::list(std::vector<std::string> items) {
    blocks.push_back({Block::Kind::List, 0, {}, std::move(items), {}, {}});
}

void Document::table(std::vector<std::string> header, std::vector<std::vector<std::string>> rows) {
    blocks.push_back({Block::Kind::Table, 0, {}, {}, std::move(header), std::move(rows)});
}

void Document::comment(std::string text) {
    blocks.push_back({Block::Kind::Comment, 0, std::move(text), {}, {}, {}});
}

std::string cellText(const std::string& text) {
    std::string out;
    for (char c : text)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

namespace {

/**
 * Table cells link by reference (`[✗][same-ld-st-none]`, `[<section>]`) so that rows stay
 * readable in an editor; the definitions follow the table. A test's label is its file name,
 * a section's its number (a shortcut reference); other links keep their text as label.
 */
class ReferenceLinks {
public:
    /** `cell` with its inline links made references (definitions remembered). */
    std::string cell(const std::string& cell) {
        std::string out;
        for (std::size_t i = 0; i < cell.size();) {
            const std::size_t open = cell.find('[', i);
            const std::size_t close = open == std::string::npos ? open : cell.find("](", open);
            const std::size_t end = close == std::string::npos ? close : cell.find(')', close);
            if (end == std::string::npos) {
                out += cell.substr(i);
                break;
            }
            if (cell.find(']', open) != close) { // `t[2]`: a bracket, not a link
                out += cell.substr(i, open + 1 - i);
                i = open + 1;
                continue;
            }
            const std::string text = cell.substr(open + 1, close - open - 1);
            const std::string url = cell.substr(close + 2, end - close - 2);
            out += cell.substr(i, open - i) + "[" + text + "]";
            const std::string label = labelOf(text, url);
            if (label != text) out += "[" + label + "]";
            define(label, url);
            i = end + 1;
        }
        return out;
    }

    /** The definitions not written yet, one per line. */
    std::string flush() {
        std::string out;
        for (const auto& [label, url] : pending_)
            out += "[" + label + "]: " + url + "\n";
        pending_.clear();
        return out;
    }

private:
    static std::string labelOf(const std::string& text, const std::string& url) {
        const std::string ext = ".litmus";
        if (url.size() > ext.size() && url.compare(url.size() - ext.size(), ext.size(), ext) == 0) {
            const std::size_t slash = url.rfind('/');
            const std::size_t from = slash == std::string::npos ? 0 : slash + 1;
            return url.substr(from, url.size() - ext.size() - from);
        }
        return text;
    }

    void define(const std::string& label, const std::string& url) {
        for (const auto& [l, u] : written_)
            if (l == label) return;
        written_.emplace_back(label, url);
        pending_.emplace_back(label, url);
    }

    std::vector<std::pair<std::string, std::string>> written_, pending_;
};

} // namespace

std::string renderMarkdown(const Document& doc) {
    ReferenceLinks links;
    std::string out;
    for (const Block& b : doc.blocks) {
        if (!out.empty()) out += "\n";
        switch (b.kind) {
        case Block::Kind::Heading:
            out += std::string(static_cast<std::size_t>(b.level), '#') + " " + b.text + "\n";
            break;
        case Block::Kind::Paragraph:
            out += b.text + "\n";
            break;
        case Block::Kind::Code:
            out += "```\n" + b.text + "```\n";
            break;
        case Block::Kind::List:
            for (const std::string& i : b.items)
                out += "- " + i + "\n";
            break;
        case Block::Kind::Comment:
            out += "<!-- " + b.text + " -->\n";
            break;
        case Block::Kind::Table: {
            auto row = [&links](const std::vector<std::string>& cells) {
                std::string line = "|";
                for (const std::string& c : cells)
                    line += " " + links.cell(c) + " |";
                return line + "\n";
            };
            out += row(b.header);
            out += "|";
            for (std::size_t i = 0; i < b.header.size(); ++i)
                out += "---|";
            out += "\n";
            for (const auto& r : b.rows)
                out += row(r);
            if (std::string defs = links.flush(); !defs.empty()) out += "\n" + defs;
            break;
        }
        }
    }
    return out;
}

namespace {

// GitHub's heading anchor: lower case, blanks to '-', other punctuation dropped.
std::string slug(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (c == ' ' || c == '-')
            out += '-';
    }
    return out;
}

} // namespace

std::string inlineHtml(const std::string& md) {
    std::string out;
    bool bold = false;
    for (std::size_t i = 0; i < md.size();) {
        if (md[i] == '\\' && i + 1 < md.size() && md[i + 1] == '|') { // a table-cell escape
            out += '|';
            i += 2;
        } else if (md[i] == '`') {
            std::size_t end = md.find('`', i + 1);
            if (end == std::string::npos) end = md.size();
            out += "<code>" + htmlEscape(md.substr(i + 1, end - i - 1)) + "</code>";
            i = end + 1;
        } else if (md.compare(i, 2, "**") == 0) {
            out += bold ? "</strong>" : "<strong>";
            bold = !bold;
            i += 2;
        } else if (md[i] == '[') {
            std::size_t close = md.find("](", i);
            std::size_t end = close == std::string::npos ? close : md.find(')', close);
            if (end == std::string::npos) {
                out += htmlEscape(md.substr(i, 1));
                ++i;
                continue;
            }
            std::string text = md.substr(i + 1, close - i - 1);
            std::string url = md.substr(close + 2, end - close - 2);
            out += "<a href=\"" + htmlEscape(url) + "\">" + inlineHtml(text) + "</a>";
            i = end + 1;
        } else {
            out += htmlEscape(md.substr(i, 1));
            ++i;
        }
    }
    if (bold) out += "</strong>";
    return out;
}

std::string renderHtml(const Document& doc) {
    std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" +
                      htmlEscape(doc.title) +
                      "</title>\n<style>table{border-collapse:collapse}td,th{border:1px solid "
                      "#ccc;padding:2px 6px;vertical-align:top}</style></head><body>\n";
    for (const Block& b : doc.blocks) {
        switch (b.kind) {
        case Block::Kind::Heading: {
            std::string h = "h" + std::to_string(b.level);
            out +=
                "<" + h + " id=\"" + slug(b.text) + "\">" + inlineHtml(b.text) + "</" + h + ">\n";
            break;
        }
        case Block::Kind::Paragraph:
            out += "<p>" + inlineHtml(b.text) + "</p>\n";
            break;
        case Block::Kind::Code:
            out += "<pre>" + htmlEscape(b.text) + "</pre>\n";
            break;
        case Block::Kind::List:
            out += "<ul>\n";
            for (const std::string& i : b.items)
                out += "<li>" + inlineHtml(i) + "</li>\n";
            out += "</ul>\n";
            break;
        case Block::Kind::Comment:
            out += "<!-- " + htmlEscape(b.text) + " -->\n";
            break;
        case Block::Kind::Table:
            out += "<table>\n<tr>";
            for (const std::string& c : b.header)
                out += "<th>" + inlineHtml(c) + "</th>";
            out += "</tr>\n";
            for (const auto& r : b.rows) {
                out += "<tr>";
                for (const std::string& c : r)
                    out += "<td>" + inlineHtml(c) + "</td>";
                out += "</tr>\n";
            }
            out += "</table>\n";
            break;
        }
    }
    return out + "</body></html>\n";
}

} // namespace ptxmc::matrix

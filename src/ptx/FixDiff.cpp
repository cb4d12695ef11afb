// Unified diffs of strengthenings, edited into the test's column layout.
#include "ptx/FixDiff.hpp"

#include "support/SourceLoc.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace ptxmc::ptx {

namespace {

struct Cell {
    std::size_t begin = 0; ///< just after the `|` before it (or the line's start)
    std::size_t end = 0;   ///< at the `|` or `;` after it (or the line's end)
};

/** The cell of `line` holding column `col` (1-based). */
Cell cellAt(const std::string& line, int col) {
    const std::size_t at = std::min(line.size(), static_cast<std::size_t>(std::max(col - 1, 0)));
    std::size_t bar = line.rfind('|', at == 0 ? 0 : at - 1);
    Cell c{bar == std::string::npos || at == 0 ? 0 : bar + 1, line.find_first_of("|;", at)};
    if (c.end == std::string::npos) c.end = line.size();
    return c;
}

/** `text` as the content of `cell`: one leading space, padded to the cell's width. */
std::string filled(const Cell& cell, const std::string& text) {
    std::string out = " " + text + " ";
    const std::size_t width = cell.end - cell.begin;
    if (out.size() < width) out.append(width - out.size(), ' ');
    return out;
}

/** Rows inserted before one line: each cell (by where it begins) filled in at most one row. */
struct InsertedRows {
    std::vector<std::map<std::size_t, std::string>> rows; ///< top to bottom: cell begin -> text

    /** A change at this place after those already here goes above theirs in its column (as
     *  applyStrengthenings inserts); other columns share rows. */
    void add(std::size_t cell, const std::string& text) {
        std::size_t top = rows.size();
        for (std::size_t r = rows.size(); r-- > 0;)
            if (rows[r].count(cell)) top = r;
        if (top == 0)
            rows.insert(rows.begin(), {{cell, text}});
        else
            rows[top - 1][cell] = text;
    }
};

/** `line` with the cells of `cells` (by where they begin in `line`) holding their text, every
 *  other cell as it is (`keepOthers`) or blank. */
std::string rowLike(const std::string& line, const std::map<std::size_t, std::string>& cells,
                    bool keepOthers = false) {
    std::string out;
    std::size_t from = 0;
    while (from <= line.size()) {
        const std::size_t sep = line.find_first_of("|;", from);
        const std::size_t end = sep == std::string::npos ? line.size() : sep;
        auto text = cells.find(from);
        out += text != cells.end() ? filled(Cell{from, end}, text->second)
               : keepOthers        ? line.substr(from, end - from)
                                   : std::string(end - from, ' ');
        if (sep == std::string::npos) break;
        out += line[sep];
        from = sep + 1;
    }
    return out;
}

/** A line of the test without its end: `\n`, or `\r\n` in a file written on Windows (kept as
 *  `eol`, so that a diff line ends as the line it stands for and `git apply` matches it). */
struct SourceLine {
    std::string text;
    std::string eol;
};

std::vector<SourceLine> linesOf(const std::string& text) {
    std::vector<SourceLine> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const bool crlf = !line.empty() && line.back() == '\r';
        if (crlf) line.pop_back();
        out.push_back({line, crlf ? "\r" : ""});
    }
    return out;
}

struct DiffLine {
    char tag; ///< ' ', '-' or '+'
    std::string text;
    std::string eol;      ///< before the `\n`: the source line's `\r`, if it has one
    bool unended = false; ///< the file's last line (or its rewrite), with no `\n` after it
};

/** Hunks of `lines`, with `context` unchanged lines around each change: changes nearer than
 *  twice that share a hunk. */
std::string hunks(const std::vector<DiffLine>& lines, int context) {
    std::vector<std::size_t> changed;
    for (std::size_t k = 0; k < lines.size(); ++k)
        if (lines[k].tag != ' ') changed.push_back(k);
    const auto ctx = static_cast<std::size_t>(context);
    std::string out;
    for (std::size_t c = 0; c < changed.size();) {
        std::size_t last = c;
        while (last + 1 < changed.size() && changed[last + 1] - changed[last] <= 2 * ctx + 1)
            ++last;
        const std::size_t begin = changed[c] > ctx ? changed[c] - ctx : 0;
        const std::size_t end = std::min(lines.size(), changed[last] + ctx + 1);
        std::size_t oldBefore = 0, newBefore = 0, oldCount = 0, newCount = 0;
        for (std::size_t k = 0; k < begin; ++k) {
            oldBefore += lines[k].tag != '+';
            newBefore += lines[k].tag != '-';
        }
        std::string body;
        for (std::size_t k = begin; k < end; ++k) {
            oldCount += lines[k].tag != '+';
            newCount += lines[k].tag != '-';
            body += lines[k].tag + lines[k].text + lines[k].eol + "\n";
            if (lines[k].unended) body += "\\ No newline at end of file\n";
        }
        auto range = [](std::size_t before, std::size_t count) {
            return std::to_string(count ? before + 1 : before) + "," + std::to_string(count);
        };
        out += "@@ -" + range(oldBefore, oldCount) + " +" + range(newBefore, newCount) + " @@\n" +
               body;
        c = last + 1;
    }
    return out;
}

} // namespace

std::string fixDiff(const litmus::Test& test, const std::string& source,
                    const std::vector<Strengthening>& changes, int context) {
    const std::vector<SourceLine> old = linesOf(source);
    std::vector<Strengthening> rewrites;
    for (const auto& s : changes)
        if (!s.inserts()) rewrites.push_back(s);
    const litmus::Test rewritten = applyStrengthenings(test, rewrites);
    // Cells are found in the original line, so that one change never moves another's cell.
    std::map<int, std::map<std::size_t, std::string>> rewrittenCells; // line -> cell -> text
    std::map<int, InsertedRows> inserted;                             // line -> rows before it
    auto threadIndex = [&](const Strengthening& s) {
        for (std::size_t t = 0; t < test.threads.size(); ++t)
            if (test.threads[t].id == s.thread) return t;
        throw InputError(SourceLoc{test.file, 1, 1}, "no such thread");
    };
    auto lineOf = [&](const Strengthening& s) {
        return test.threads[threadIndex(s)].code.at(static_cast<std::size_t>(s.index)).loc;
    };
    for (const Strengthening& s : changes) {
        const SourceLoc at = lineOf(s);
        if (at.line < 1 || at.line > static_cast<int>(old.size()))
            throw InputError(at, "the fix's place is not in the test's text");
        const Cell cell = cellAt(old[static_cast<std::size_t>(at.line - 1)].text, at.col);
        if (s.inserts())
            inserted[at.line].add(cell.begin, changedText(rewritten, s));
        else
            rewrittenCells[at.line][cell.begin] = instructionText(
                rewritten.threads.at(threadIndex(s)).code.at(static_cast<std::size_t>(s.index)));
    }
    std::vector<DiffLine> lines;
    for (int n = 1; n <= static_cast<int>(old.size()); ++n) {
        const auto& [text, eol] = old[static_cast<std::size_t>(n - 1)];
        const bool unended = n == static_cast<int>(old.size()) && source.back() != '\n';
        for (const auto& cells : inserted[n].rows)
            lines.push_back({'+', rowLike(text, cells), eol});
        if (auto r = rewrittenCells.find(n); r != rewrittenCells.end()) {
            lines.push_back({'-', text, eol, unended});
            lines.push_back({'+', rowLike(text, r->second, true), eol, unended});
        } else {
            lines.push_back({' ', text, eol, unended});
        }
    }
    // in a run of changed lines, the old ones first (as diff prints them)
    for (std::size_t k = 0; k < lines.size();) {
        std::size_t end = k;
        while (end < lines.size() && lines[end].tag != ' ')
            ++end;
        std::stable_partition(lines.begin() + static_cast<std::ptrdiff_t>(k),
                              lines.begin() + static_cast<std::ptrdiff_t>(end),
                              [](const DiffLine& d) { return d.tag == '-'; });
        k = end == k ? k + 1 : end;
    }
    // a/ and b/ then the path as given, without a leading '/' (patch -p1 and git apply strip
    // the first component)
    const std::string path =
        test.file.substr(std::min(test.file.find_first_not_of('/'), test.file.size()));
    return "--- a/" + path + "\n+++ b/" + path + "\n" + hunks(lines, context);
}

} // namespace ptxmc::ptx

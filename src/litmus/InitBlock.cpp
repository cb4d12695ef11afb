// The init block: locations (single, arrays, tensor-memory rows, mbarriers, aliases) and
// register values.
#include "litmus/ParserDetail.hpp"

#include <climits>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::litmus::detail {

namespace {

std::string lineText(int line) {
    return "line " + std::to_string(line);
}

/** Parses the init block's entries into `test`. */
class InitParser {
public:
    InitParser(Lexer& lx, Test& test) : lx_(lx), test_(test) {}

    void parse() {
        const Token open = lx_.next();
        openLine_ = lx_.loc(open).line;
        for (;;) {
            const Token& t = lx_.peek();
            if (t.is("}")) {
                lx_.next();
                return;
            }
            if (t.is(";")) {
                lx_.next();
                continue;
            }
            if (t.kind == Token::Kind::End || t.is("|") || t.is("~") || t.isWord("exists") ||
                t.isWord("forall") || t.isWord("locations"))
                missingBrace(t);
            entry();
            const Token& sep = lx_.peek();
            if (sep.is(";") || sep.is("}")) continue;
            lx_.unexpected(sep, "';' or '}' after the init entry");
        }
    }

private:
    [[noreturn]] void missingBrace(const Token& t) const {
        lx_.fail(t, "missing '}' closing the init block opened at " + lineText(openLine_) +
                        ", found " + lx_.describe(t));
    }

    void entry() {
        const Token first = lx_.next();
        if (first.kind == Token::Kind::Int && lx_.peek().is(":")) {
            registerInit(first, lx_.integerValue(first, false));
            return;
        }
        if (first.kind != Token::Kind::Ident)
            lx_.unexpected(first, "a location or register initialisation (e.g. 'x = 0' or "
                                  "'P0:r0 = 0')");
        const std::optional<int> thread = threadNumber(first.text);
        if (thread && lx_.peek().is(":")) {
            registerInit(first, *thread);
            return;
        }
        location(first);
    }

    void registerInit(const Token& threadTok, std::int64_t thread) {
        if (thread > INT_MAX) lx_.fail(threadTok, "thread number is too large");
        lx_.next(); // ':'
        RegisterInit r;
        r.loc = lx_.loc(threadTok);
        r.thread = static_cast<int>(thread);
        r.reg = lx_.expectIdent("a register name after ':'").text;
        const std::string display = "P" + std::to_string(r.thread) + ":" + r.reg;
        lx_.expectPunct("=", "after register " + quote(display));
        if (const auto addr = addressValue())
            throw InputError(addr->second, "register-address initialisation ('" + display + " = " +
                                               addr->first +
                                               "') is not supported: initialise registers with "
                                               "integers");
        r.value = lx_.cellValue("an integer value for " + quote(display));
        const auto key = std::make_pair(r.thread, r.reg);
        if (const auto it = registers_.find(key); it != registers_.end())
            lx_.fail(threadTok, "register " + quote(display) + " is initialised twice (first at " +
                                    lineText(it->second.line) + ")");
        registers_.emplace(key, r.loc);
        test_.registers.push_back(std::move(r));
    }

    /** Dat3M's `x` / `&x` address values, which ptxmc does not model: text and position. */
    std::optional<std::pair<std::string, SourceLoc>> addressValue() {
        const Token& v = lx_.peek();
        if (v.kind == Token::Kind::Ident) return std::make_pair(v.text, lx_.loc(v));
        if (!v.is("&")) return std::nullopt;
        const SourceLoc at = lx_.loc(v);
        lx_.next();
        const Token& target = lx_.peek();
        return std::make_pair("&" + (target.kind == Token::Kind::Ident ? target.text : ""), at);
    }

    std::int64_t value(const std::string& name) {
        if (const auto addr = addressValue())
            throw InputError(addr->second, "initialising a location with an address ('" + name +
                                               " = " + addr->first +
                                               "') is not supported: initial values are integers");
        return lx_.cellValue("an integer value for " + quote(name));
    }

    /** `C1,C2,...` then, for tmem/mbarrier, `, rows N` / `, count N`. */
    void ctaList(LocationDecl& d, const std::string& space, std::string_view option, bool array) {
        const std::string ctaWhat = "a CTA number after '" + space + "'";
        d.ctas.push_back(lx_.smallNumber(ctaWhat));
        bool sawOption = false;
        while (lx_.peek().is(",")) {
            lx_.next();
            const Token& t = lx_.peek();
            if (t.isWord("stride")) {
                stride(d, array);
                continue;
            }
            if (!option.empty() && t.isWord(option)) {
                const Token kw = lx_.next();
                if (sawOption) lx_.fail(kw, quote(option) + " is given twice");
                sawOption = true;
                if (option == "rows") {
                    d.rows = lx_.smallNumber("a row count after 'rows'");
                    if (d.rows < 1) lx_.fail(kw, "a tensor-memory location needs at least 1 row");
                } else {
                    const Token c = lx_.peek();
                    const std::int64_t count = lx_.signedInteger("an expected count after 'count'");
                    if (count < 0) lx_.fail(c, "an mbarrier's expected count cannot be negative");
                    d.count = count;
                }
                continue;
            }
            if (t.kind != Token::Kind::Int)
                lx_.unexpected(t, option.empty() ? "a CTA number after ','"
                                                 : "a CTA number or '" + std::string(option) +
                                                       " N' after ','");
            if (sawOption || d.stride)
                lx_.fail(t, "CTA numbers must come before '" +
                                std::string(sawOption ? option : "stride") + "'");
            const Token ctaTok = lx_.peek();
            const int cta = lx_.smallNumber(ctaWhat);
            for (int c : d.ctas)
                if (c == cta) lx_.fail(ctaTok, "CTA " + std::to_string(cta) + " is listed twice");
            d.ctas.push_back(cta);
        }
    }

    void location(const Token& nameTok) {
        LocationDecl d;
        d.name = nameTok.text;
        d.loc = lx_.loc(nameTok);
        if (nameTok.text == "_") lx_.fail(nameTok, "'_' cannot name a location");
        if (const auto it = locations_.find(d.name); it != locations_.end())
            lx_.fail(nameTok, "location " + quote(d.name) + " is declared twice (first at " +
                                  lineText(it->second.line) + ")");
        const bool array = lx_.peek().is("[");
        if (array) arrayLength(d);
        const Token& t = lx_.peek();
        if (t.is("=")) {
            lx_.next();
            initialValues(d, array);
        } else if (t.is("@")) {
            lx_.next();
            located(nameTok, d, array);
        } else if (!t.is(";") && !t.is("}")) {
            lx_.unexpected(t, "'=', '@' or ';' after location " + quote(d.name));
        }
        trailingOptions(d, array);
        if (array && !d.stride) d.stride = defaultStride(d);
        if (array && d.stride < 4) narrowValuesFit(nameTok, d);
        locations_.emplace(d.name, d.loc);
        test_.locations.push_back(std::move(d));
    }

    /**
     * The bytes between an array's elements when no `stride` says: an mbarrier is a 64-bit
     * object (PTX ISA 9.7.15.16, #parallel-synchronization-and-communication-instructions-
     * mbarrier; kernels index them as `[full + 8*s]`), tiles of a global array (`bytes N`) lie
     * one after the other, and a memory element is the 32-bit cell ptxmc models.
     */
    static int defaultStride(const LocationDecl& d) {
        if (d.space == ir::Space::Mbarrier) return 8;
        if (d.bytes) return static_cast<int>(*d.bytes);
        return 4;
    }

    static std::string hex(std::int64_t v) {
        std::ostringstream out;
        if (v < 0) return std::to_string(v);
        out << "0x" << std::hex << v;
        return out.str();
    }

    /**
     * An array of 1- or 2-byte elements (stride 1 or 2: the .f16 elements of a packed or vector
     * atomic) holds values of that size in its cells: a larger initial value would stand for
     * bytes of the next element, which is a cell of its own.
     */
    void narrowValuesFit(const Token& at, const LocationDecl& d) {
        const std::int64_t limit = (std::int64_t{1} << (8 * d.stride)) - 1;
        for (std::int64_t v : d.values)
            if (v < 0 || v > limit)
                lx_.fail(at, "the initial value " + hex(v) + " of " + quote(d.name) +
                                 " does not fit its " + std::to_string(d.stride) +
                                 "-byte elements (stride " + std::to_string(d.stride) +
                                 "): write it as an unsigned value up to " + hex(limit));
    }

    /** `[N]` after an array's name: N elements, each a location of its own (row i). */
    void arrayLength(LocationDecl& d) {
        lx_.next(); // '['
        const Token n = lx_.peek();
        d.rows = lx_.smallNumber("the number of elements of array " + quote(d.name));
        if (d.rows < 1 || d.rows > kMaxArrayElements)
            lx_.fail(n, "an array has 1 to " + std::to_string(kMaxArrayElements) + " elements");
        lx_.expectPunct("]", "after the number of elements");
    }

    /** `, stride S`: the bytes between an array's elements, which addresses count in. */
    void stride(LocationDecl& d, bool array) {
        const Token kw = lx_.next();
        if (!array) lx_.fail(kw, "only an array 'NAME[N]' has a stride");
        if (d.stride) lx_.fail(kw, "'stride' is given twice");
        const Token n = lx_.peek();
        const int s = lx_.smallNumber("a byte count after 'stride'");
        if (s < 1 || s >= (1 << 20)) lx_.fail(n, "a stride must be between 1 and 2^20-1 bytes");
        if (d.space == ir::Space::Mbarrier && s % 8 != 0)
            lx_.fail(n, "an mbarrier is 8 bytes: an array of them needs a stride that is a "
                        "multiple of 8");
        d.stride = s;
    }

    /** `= v`, or `= {v0, ..., vN-1}` for tensor-memory rows and array elements. */
    void initialValues(LocationDecl& d, bool array) {
        const Token& v = lx_.peek();
        if (!v.is("{")) {
            d.values.push_back(value(d.name));
            return;
        }
        if (d.space != ir::Space::Tmem && !array)
            lx_.fail(v, "a list of values '{...}' is only allowed for tensor memory and arrays");
        const Token open = lx_.next();
        for (;;) {
            d.values.push_back(value(d.name));
            const Token& sep = lx_.peek();
            if (sep.is("}")) break;
            if (!sep.is(","))
                lx_.unexpected(sep, array ? "',' or '}' in the list of element values"
                                          : "',' or '}' in the list of row values");
            lx_.next();
        }
        lx_.next();
        if (d.values.size() == static_cast<std::size_t>(d.rows)) return;
        if (array)
            lx_.fail(open, "expected " + std::to_string(d.rows) + " value(s), one per element of " +
                               quote(d.name) + ", found " + std::to_string(d.values.size()));
        lx_.fail(open, "expected " + std::to_string(d.rows) + " value(s), one per row of " +
                           quote(d.name) + " (declare ', rows N'), found " +
                           std::to_string(d.values.size()));
    }

    /**
     * After the value: `, stride S` (arrays), `, bytes N` then `, tensormap M` and `, elem T`
     * (global memory), each at most once.
     */
    void trailingOptions(LocationDecl& d, bool array) {
        const bool global = d.space == ir::Space::Global && !d.aliasOf && !d.isMultimem();
        // Once nothing is left to give, a ',' is the caller's error, as it always was.
        while (lx_.peek().is(",") && !trailingWhat(d, array, global).empty()) {
            lx_.next();
            const Token kw = lx_.peek();
            if (array && kw.isWord("stride")) {
                stride(d, array);
            } else if (global && !d.bytes && kw.isWord("bytes")) {
                lx_.next();
                const Token n = lx_.peek();
                const std::int64_t bytes = lx_.signedInteger("a byte count after 'bytes'");
                if (bytes <= 0 || bytes % 16 != 0 || bytes >= (1 << 20))
                    lx_.fail(n, "a tile's byte count must be a positive multiple of 16 below 2^20");
                d.bytes = bytes;
            } else if (d.bytes && !d.tensormap && kw.isWord("tensormap")) {
                // The global location holding the tile's tensor map, which the copy reads
                // through the tensormap proxy (PTX ISA
                // #data-movement-and-conversion-instructions-cp-async-bulk-tensor).
                lx_.next();
                const Token mapTok = lx_.peek();
                if (mapTok.kind != Token::Kind::Ident)
                    lx_.unexpected(mapTok, "the tensor map's location after 'tensormap'");
                lx_.next();
                d.tensormap = mapTok.text;
                d.tensormapLoc = lx_.loc(mapTok);
            } else if (d.bytes && d.elem.empty() && kw.isWord("elem")) {
                // The tile's element type, a property of its tensor map that a tensor reduction
                // reduces by (PTX ISA
                // #data-movement-and-conversion-instructions-cp-reduce-async-bulk-tensor); values
                // are 32-bit words here, so the 32-bit integer types.
                lx_.next();
                const Token t = lx_.peek();
                if (!t.isWord("u32") && !t.isWord("s32"))
                    lx_.unexpected(t, "the element type u32 or s32 after 'elem' (values are "
                                      "32-bit integer words)");
                lx_.next();
                d.elem = t.text;
            } else {
                lx_.unexpected(kw, trailingWhat(d, array, global) + " after ','");
            }
        }
    }

    /** The options trailingOptions still accepts ("" when none), for its error message. */
    static std::string trailingWhat(const LocationDecl& d, bool array, bool global) {
        std::vector<std::string> what;
        if (array && !d.stride) what.push_back("'stride S'");
        if (global && !d.bytes) what.push_back("'bytes N'");
        if (d.bytes && !d.tensormap) what.push_back("'tensormap NAME'");
        if (d.bytes && d.elem.empty()) what.push_back("'elem u32|s32'");
        std::string out;
        for (std::size_t i = 0; i < what.size(); ++i)
            out += (i == 0 ? "" : i + 1 == what.size() ? " or " : ", ") + what[i];
        return out;
    }

    /** What follows `name @` (`name[N] @` for an array). */
    void located(const Token& nameTok, LocationDecl& d, bool array) {
        const Token& spaceTok = lx_.peek();
        if (spaceTok.kind != Token::Kind::Ident)
            lx_.unexpected(spaceTok, "a state space after '@'");
        const Token sp = lx_.next();
        const std::string& space = sp.text;
        if (space == "global") {
            d.space = ir::Space::Global;
        } else if (space == "shared") {
            d.space = ir::Space::Shared;
            ctaList(d, space, "", array);
        } else if (space == "tmem") {
            // Tensor memory is addressed by row and column, not by byte offsets.
            if (array)
                lx_.fail(nameTok, "tensor memory has rows, not arrays: declare " + quote(d.name) +
                                      " as '" + d.name + " @ tmem C, rows N'");
            d.space = ir::Space::Tmem;
            ctaList(d, space, "rows", array);
        } else if (space == "mbarrier") {
            d.space = ir::Space::Mbarrier;
            ctaList(d, space, "count", array);
            if (lx_.peek().is("="))
                lx_.fail(lx_.peek(), "an mbarrier is initialised with ', count N', not '= value'");
            return;
        } else if (space == "generic" || space == "surface" || space == "texture" ||
                   space == "constant") {
            const Token& kw = lx_.peek();
            if (!kw.isWord("aliases")) lx_.unexpected(kw, "'aliases' after " + quote(space));
            lx_.next();
            const Token target = lx_.expectIdent("the aliased location's name after 'aliases'");
            if (target.text == d.name)
                lx_.fail(target, "location " + quote(d.name) + " cannot alias itself");
            if (array)
                lx_.fail(nameTok, "an alias is not declared as an array: '" + d.name + " @ " +
                                      space + " aliases " + target.text +
                                      "' names all of it, element by element");
            d.space = ir::Space::Global;
            d.aliasOf = target.text;
            d.aliasProxy = space;
            return;
        } else if (space == "multimem") {
            multimemMembers(nameTok, d, array);
            return;
        } else if (threadNumber(nameTok.text) &&
                   (space == "cta" || space == "gpu" || space == "cluster")) {
            missingBrace(nameTok);
        } else {
            lx_.fail(sp, "unknown state space " + quote(space) +
                             " (expected global, shared, tmem, mbarrier, generic, surface, "
                             "texture, constant or multimem)");
        }
        if (!lx_.peek().is("=")) return;
        lx_.next();
        initialValues(d, array);
    }

    /**
     * `m @ multimem x, y, ...`: the global locations the multimem address m points to, one per
     * GPU (PTX ISA 8.2.3, #multimem-addresses). m takes the shape of its locations (declared
     * alike, checked by the lowering); it has no value of its own.
     */
    void multimemMembers(const Token& nameTok, LocationDecl& d, bool array) {
        if (array)
            lx_.fail(nameTok, "a multimem address is not declared as an array: '" + d.name +
                                  " @ multimem x, y' takes the shape of x and y");
        for (;;) {
            const Token member =
                lx_.expectIdent("a global location the multimem address points to");
            d.multimemOf.push_back(member.text);
            d.multimemLocs.push_back(lx_.loc(member));
            if (!lx_.peek().is(",")) break;
            lx_.next();
        }
        d.space = ir::Space::Global;
        if (lx_.peek().is("="))
            lx_.fail(lx_.peek(), "a multimem address has no value of its own: give its "
                                 "locations' values where they are declared");
    }

    /** More elements than a location has rows (Lowerer's limit): each is a cell of its own. */
    static constexpr int kMaxArrayElements = 128;

    Lexer& lx_;
    Test& test_;
    int openLine_ = 0;
    std::map<std::string, SourceLoc> locations_;
    std::map<std::pair<int, std::string>, SourceLoc> registers_;
};

} // namespace

void parseInitBlock(Lexer& lx, Test& test) {
    InitParser(lx, test).parse();
}

} // namespace ptxmc::litmus::detail

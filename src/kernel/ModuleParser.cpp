// Reads a PTX module (nvcc -ptx, cuobjdump -ptx, Triton dumps) into a kernel::Module.
#include "kernel/Module.hpp"

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

namespace ptxmc::kernel {

namespace {

/**
 * The callees nvcc calls that the evaluation understands: printf is output, a failed device
 * assert traps; any other call is code ptxmc kernel does not follow.
 */
constexpr std::array<std::pair<std::string_view, ptx::ModuleRole>, 2> kKnownCallees = {{
    {"vprintf", ptx::ModuleRole::Ignore},
    {"__assertfail", ptx::ModuleRole::Trap},
}};

ptx::ModuleRole calleeRole(const std::string& callee) {
    for (const auto& [name, role] : kKnownCallees)
        if (callee == name) return role;
    return ptx::ModuleRole::Unsupported;
}

/**
 * nvcc writes absolute paths in `.file`: a source under the current directory is named
 * relative to it (`tests/kernel/gemm.cu:88`), as a user and a code-scanning tool (SARIF) in
 * the repository expect; any other path stays as written.
 */
std::string underCurrentDirectory(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path cwd = std::filesystem::current_path(ec);
    if (ec || path.empty() || path[0] != '/') return path;
    const std::string prefix = cwd.string() + "/";
    return path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
}

struct Tok {
    enum class Kind { Ident, Number, String, Punct, End };
    Kind kind = Kind::End;
    std::string text;
    int line = 0, col = 0;
    bool is(char c) const { return kind == Kind::Punct && text.size() == 1 && text[0] == c; }
    bool word(const char* w) const { return kind == Kind::Ident && text == w; }
};

bool identStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' ||
           c == '.';
}
bool identChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' ||
           c == '.';
}

/** The module's tokens; comments dropped, positions kept. */
std::vector<Tok> lex(const std::string& s, const std::string& file) {
    std::vector<Tok> out;
    int line = 1;
    std::size_t lineStart = 0;
    auto fail = [&](std::size_t at, const std::string& msg) {
        throw InputError(SourceLoc{file, line, static_cast<int>(at - lineStart) + 1}, msg);
    };
    std::size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        if (c == '\n') {
            ++line;
            lineStart = ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n')
                ++i;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            std::size_t end = s.find("*/", i + 2);
            if (end == std::string::npos) fail(i, "unterminated comment: '/*' without '*/'");
            for (std::size_t k = i; k < end; ++k)
                if (s[k] == '\n') {
                    ++line;
                    lineStart = k + 1;
                }
            i = end + 2;
            continue;
        }
        Tok t;
        t.line = line;
        t.col = static_cast<int>(i - lineStart) + 1;
        std::size_t b = i;
        if (c == '"') {
            std::size_t end = s.find('"', i + 1);
            if (end == std::string::npos || s.find('\n', i) < end) fail(i, "unterminated string");
            t.kind = Tok::Kind::String;
            t.text = s.substr(i + 1, end - i - 1);
            i = end + 1;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.'))
                ++i;
            t.kind = Tok::Kind::Number;
            t.text = s.substr(b, i - b);
        } else if (identStart(c)) {
            // `::` belongs to qualifiers (shared::cta); a single ':' ends a label.
            while (i < s.size() &&
                   (identChar(s[i]) || (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':' &&
                                        i + 2 < s.size() && identChar(s[i + 2])))) {
                i += s[i] == ':' ? 2 : 1;
            }
            t.kind = Tok::Kind::Ident;
            t.text = s.substr(b, i - b);
        } else if (std::string("{}[](),;:+-@!|<>=").find(c) != std::string::npos) {
            t.kind = Tok::Kind::Punct;
            t.text = std::string(1, c);
            ++i;
        } else {
            fail(i, std::string("unexpected character '") +
                        (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c)
                                                                     : std::string("\\x..")) +
                        "' in a PTX module");
        }
        out.push_back(std::move(t));
    }
    Tok end;
    end.line = line;
    end.col = static_cast<int>(s.size() - lineStart) + 1;
    out.push_back(end);
    return out;
}

/** The state space a directive word names (".shared"), if it names one. */
std::optional<VarSpace> stateSpace(const std::string& w) {
    static constexpr std::array<std::pair<std::string_view, VarSpace>, 5> kSpaces = {{
        {".shared", VarSpace::Shared},
        {".global", VarSpace::Global},
        {".const", VarSpace::Const},
        {".local", VarSpace::Local},
        {".param", VarSpace::Param},
    }};
    for (const auto& [word, space] : kSpaces)
        if (word == w) return space;
    return std::nullopt;
}

/** Width in bytes of a type qualifier such as .b64, .u32, .f16x2, .pred. */
std::uint64_t typeBytes(const std::string& t) {
    if (t == ".pred") return 1;
    std::size_t k = 1;
    while (k < t.size() && std::isalpha(static_cast<unsigned char>(t[k])))
        ++k;
    int bits = 0;
    while (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k])))
        bits = bits * 10 + (t[k++] - '0');
    return bits >= 8 ? static_cast<std::uint64_t>(bits / 8) : 1;
}

class Parser {
public:
    Parser(std::vector<Tok> toks, std::string file) : t_(std::move(toks)), file_(std::move(file)) {}

    Module module() {
        Module m;
        m.file = file_;
        while (!peek().kind_is_end()) {
            topLevel(m);
        }
        if (m.version.empty())
            throw InputError(SourceLoc{file_, 1, 1},
                             "not a PTX module: no '.version' directive (a litmus test goes to "
                             "'ptxmc check')");
        return m;
    }

private:
    struct Peek {
        const Tok& t;
        bool kind_is_end() const { return t.kind == Tok::Kind::End; }
    };
    Peek peek() const { return Peek{t_[i_]}; }
    const Tok& cur() const { return t_[i_]; }
    const Tok& next() { return t_[i_ < t_.size() - 1 ? i_++ : i_]; }
    SourceLoc loc(const Tok& t) const { return SourceLoc{file_, t.line, t.col}; }
    [[noreturn]] void fail(const Tok& t, const std::string& msg) const {
        throw InputError(loc(t), msg);
    }
    std::string describe(const Tok& t) const {
        return t.kind == Tok::Kind::End ? "end of file" : "'" + t.text + "'";
    }
    void expect(char c, const char* what) {
        if (!cur().is(c))
            fail(cur(), std::string("expected '") + c + "' " + what + ", found " + describe(cur()));
        next();
    }
    std::int64_t number(const char* what) {
        const Tok& t = next();
        if (t.kind != Tok::Kind::Number)
            fail(t, std::string("expected a number ") + what + ", found " + describe(t));
        return parseInt(t);
    }
    std::int64_t parseInt(const Tok& t) const {
        std::string s = t.text;
        while (!s.empty() && (s.back() == 'U' || s.back() == 'u'))
            s.pop_back();
        try {
            std::size_t used = 0;
            std::uint64_t v = 0;
            if (s.size() > 2 && s[0] == '0' &&
                (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D' || s[1] == 'x' ||
                 s[1] == 'X'))
                v = std::stoull(s.substr(2), &used, 16), used += 2;
            else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
                v = std::stoull(s.substr(2), &used, 2), used += 2;
            else
                v = std::stoull(s, &used, 10);
            if (used != s.size()) throw std::invalid_argument("trailing");
            return static_cast<std::int64_t>(v);
        } catch (const std::exception&) {
            fail(t, "malformed number '" + t.text + "'");
        }
    }
    void skipStatement() {
        int depth = 0;
        while (cur().kind != Tok::Kind::End) {
            if (cur().is('{')) ++depth;
            if (cur().is('}')) {
                if (depth == 0) return;
                if (--depth == 0) {
                    next();
                    if (cur().is(';')) next(); // `= { ... };` of an initialised array
                    return;
                }
            }
            if (cur().is(';') && depth == 0) {
                next();
                return;
            }
            next();
        }
    }
    /** Tokens up to the end of `line` (the `.loc` and `.file` directives have no ';'). */
    void skipLine(int line) {
        while (cur().kind != Tok::Kind::End && cur().line == line)
            next();
    }

    /**
     * `.loc F L C {, function_name N, inlined_at F2 L2 C2}`: the line F:L, inlined at the call
     * site F2:L2:C2, whose own call sites are those of the latest `.loc` at F2 L2 C2 (nvcc writes
     * a call site's `.loc` before the lines inlined there).
     */
    CudaLine debugLine() {
        int line = cur().line;
        next();
        std::array<int, 3> at{};
        for (int& n : at)
            n = static_cast<int>(number("after .loc"));
        std::optional<std::array<int, 3>> caller;
        while (cur().kind != Tok::Kind::End && cur().line == line) {
            if (cur().word("inlined_at")) {
                next();
                caller.emplace();
                for (int& n : *caller)
                    n = static_cast<int>(number("after inlined_at"));
                continue;
            }
            next();
        }
        CudaLine c{std::to_string(at[0]), at[1], {}};
        if (caller) {
            auto known = chains_.find(*caller);
            if (known != chains_.end())
                c.inlinedAt = known->second.frames();
            else // a call site with no `.loc` of its own: its call sites are not known
                c.inlinedAt = {SourceLine{std::to_string((*caller)[0]), (*caller)[1]}};
        }
        chains_[at] = c;
        return c;
    }

    void topLevel(Module& m) {
        const Tok& t = cur();
        if (t.word(".version")) {
            next();
            const Tok& v = next();
            m.version = v.text;
            return;
        }
        if (t.word(".target")) {
            next();
            m.target = next().text;
            while (cur().is(',')) {
                next();
                next();
            }
            return;
        }
        if (t.word(".address_size")) {
            next();
            m.addressSize = static_cast<int>(number("after .address_size"));
            return;
        }
        if (t.word(".file")) {
            int line = t.line;
            next();
            int k = static_cast<int>(number("after .file"));
            if (cur().kind == Tok::Kind::String) m.files[k] = underCurrentDirectory(cur().text);
            skipLine(line);
            return;
        }
        if (t.word(".section")) {
            next();
            skipStatement();
            return;
        }
        bool isExtern = false;
        while (t_[i_].word(".visible") || t_[i_].word(".weak") || t_[i_].word(".extern") ||
               t_[i_].word(".common")) {
            isExtern = isExtern || cur().text == ".extern";
            next();
        }
        if (cur().word(".entry") || cur().word(".func")) {
            function(m, isExtern);
            return;
        }
        if (cur().kind == Tok::Kind::Ident && stateSpace(cur().text)) {
            m.globals.push_back(variable(isExtern));
            return;
        }
        if (cur().kind == Tok::Kind::Ident && !cur().text.empty() && cur().text[0] == '.') {
            next();
            skipStatement(); // another module directive (.alias, .pragma): nothing to check
            return;
        }
        fail(cur(), "expected a module directive (.version, .target, .entry, ...), found " +
                        describe(cur()) + (m.version.empty() ? ": this is not a PTX module" : ""));
    }

    /** `.space {.align N} {.vN} .type name{[N]}{<N>} {= ...};` (the ';' consumed). */
    Variable variable(bool isExtern) {
        Variable v;
        v.isExtern = isExtern;
        v.loc = loc(cur());
        v.space = *stateSpace(next().text);
        std::uint64_t elem = 1;
        while (cur().kind == Tok::Kind::Ident && cur().text[0] == '.') {
            std::string q = next().text;
            if (q == ".align")
                v.align = static_cast<std::uint64_t>(number("after .align"));
            else if (q == ".v2" || q == ".v4" || q == ".v8")
                elem *= static_cast<std::uint64_t>(q[2] - '0');
            else if (q.rfind(".ptr", 0) == 0 || q == ".const" || q == ".global" || q == ".shared" ||
                     q == ".local")
                continue;
            else
                elem *= typeBytes(q);
        }
        if (cur().kind != Tok::Kind::Ident)
            fail(cur(), "expected a variable name, found " + describe(cur()));
        v.name = next().text;
        v.bytes = elem;
        while (cur().is('[')) {
            next();
            if (cur().is(']')) {
                v.bytes = 0; // `name[]`: sized at launch (dynamic shared memory)
            } else {
                v.bytes *= static_cast<std::uint64_t>(number("as the array size"));
            }
            expect(']', "after the array size");
        }
        if (cur().is('<')) { // `%r<12>`: a register range, no storage
            next();
            number("in a register range");
            expect('>', "after the register range");
        }
        if (cur().is('='))
            skipStatement();
        else if (cur().is(';'))
            next();
        return v;
    }

    std::optional<std::array<int, 3>> dims() {
        std::array<int, 3> d{1, 1, 1};
        for (int k = 0; k < 3; ++k) {
            d[static_cast<std::size_t>(k)] = static_cast<int>(number("in a launch directive"));
            if (!cur().is(',')) break;
            next();
        }
        return d;
    }

    void function(Module& m, bool isExtern) {
        Function f;
        f.isEntry = cur().text == ".entry";
        f.loc = loc(cur());
        next();
        if (cur().is('(')) { // .func's return parameters
            next();
            while (!cur().is(')') && cur().kind != Tok::Kind::End)
                next();
            expect(')', "after the return parameters");
        }
        if (cur().kind != Tok::Kind::Ident) fail(cur(), "expected the function's name");
        f.name = next().text;
        if (cur().is('(')) {
            next();
            while (!cur().is(')')) {
                if (!cur().word(".param"))
                    fail(cur(), "expected '.param' in " + f.name + "'s parameter list, found " +
                                    describe(cur()));
                Variable p = paramVariable();
                f.params.push_back(p);
                if (cur().is(','))
                    next();
                else if (!cur().is(')'))
                    fail(cur(),
                         "expected ',' or ')' in the parameter list, found " + describe(cur()));
            }
            next();
        }
        while (cur().kind == Tok::Kind::Ident && cur().text[0] == '.') {
            std::string d = next().text;
            if (d == ".reqntid")
                f.reqntid = dims();
            else if (d == ".maxntid")
                f.maxntid = dims();
            else if (d == ".reqnctapercluster")
                f.reqnctapercluster = dims();
            else if (d == ".noreturn" || d == ".explicitcluster")
                continue;
            else if (cur().kind == Tok::Kind::Number)
                dims();
        }
        if (cur().is(';') || isExtern) { // a declaration
            if (cur().is(';')) next();
            return;
        }
        body(f);
        m.functions.push_back(std::move(f));
    }

    Variable paramVariable() {
        Variable v;
        v.loc = loc(cur());
        next(); // .param
        v.space = VarSpace::Param;
        std::uint64_t elem = 1;
        while (cur().kind == Tok::Kind::Ident && cur().text[0] == '.') {
            std::string q = next().text;
            if (q == ".align")
                v.align = static_cast<std::uint64_t>(number("after .align"));
            else if (q.rfind(".ptr", 0) == 0 || stateSpace(q))
                continue;
            else
                elem = typeBytes(q);
        }
        if (cur().kind != Tok::Kind::Ident) fail(cur(), "expected a parameter name");
        v.name = next().text;
        v.bytes = elem;
        v.align = std::max<std::uint64_t>(v.align, elem);
        if (cur().is('[')) {
            next();
            v.bytes *= static_cast<std::uint64_t>(number("as the parameter's size"));
            expect(']', "after the parameter's size");
        }
        return v;
    }

    void body(Function& f) {
        if (!cur().is('{'))
            fail(cur(), "expected '{' to open " + f.name + "'s body, found " + describe(cur()));
        const Tok& open = next();
        f.scopes.push_back(Scope{});
        std::vector<int> stack{0};
        std::optional<CudaLine> cuda;
        while (true) {
            const Tok& t = cur();
            if (t.kind == Tok::Kind::End)
                fail(open, "unterminated body of " + f.name + ": no '}' before the end of file");
            if (t.is('}')) {
                next();
                stack.pop_back();
                if (stack.empty()) return;
                continue;
            }
            if (t.is('{')) {
                next();
                f.scopes.push_back(Scope{stack.back(), {}});
                stack.push_back(static_cast<int>(f.scopes.size()) - 1);
                continue;
            }
            if (t.word(".loc")) {
                cuda = debugLine();
                continue;
            }
            if (t.word(".reg") || t.word(".pragma") || t.word(".maxnreg")) {
                next();
                skipStatement();
                continue;
            }
            if (t.kind == Tok::Kind::Ident && stateSpace(t.text)) {
                f.locals.push_back(variable(false));
                continue;
            }
            if (t.kind == Tok::Kind::Ident && t_[i_ + 1].is(':') && t.text[0] != '.') {
                Statement s;
                s.kind = Statement::Kind::Label;
                s.label = t.text;
                s.loc = loc(t);
                s.scope = stack.back();
                s.cuda = cuda;
                Scope& sc = f.scopes[static_cast<std::size_t>(stack.back())];
                if (sc.labels.count(s.label))
                    fail(t, "label '" + s.label + "' defined twice in one block");
                sc.labels[s.label] = f.body.size();
                f.body.push_back(std::move(s));
                next();
                next();
                continue;
            }
            Statement s = instruction();
            s.scope = stack.back();
            s.cuda = cuda;
            f.body.push_back(std::move(s));
        }
    }

    Statement instruction() {
        Statement s;
        s.loc = loc(cur());
        litmus::Instruction& in = s.insn;
        if (cur().is('@')) {
            litmus::Predicate p;
            p.loc = loc(cur());
            next();
            if (cur().is('!')) {
                p.negated = true;
                next();
            }
            if (cur().kind != Tok::Kind::Ident) fail(cur(), "expected a predicate after '@'");
            p.reg = next().text;
            in.guard = p;
        }
        const Tok& op = cur();
        if (op.kind != Tok::Kind::Ident || op.text[0] == '.' || op.text[0] == '%')
            fail(op, "expected an instruction, found " + describe(op));
        in.opcode = op.text;
        in.loc = loc(op);
        std::string part;
        for (char c : in.opcode) {
            if (c == '.') {
                in.parts.push_back(part);
                part.clear();
            } else {
                part += c;
            }
        }
        in.parts.push_back(part);
        next();
        ptx::ModuleOpRow row = ptx::moduleOp(in.parts);
        s.op = row.op;
        s.role = row.role;
        s.value = ptx::valueForm(row.op, in.parts);
        if (s.op == ptx::ModuleOp::Call) {
            // call{.uni} {(ret),} callee, (args): the callee is what the evaluation needs
            int depth = 0;
            while (!(cur().is(';') && depth == 0)) {
                if (cur().kind == Tok::Kind::End) fail(op, "unterminated call");
                if (cur().is('(')) ++depth;
                if (cur().is(')')) --depth;
                if (depth == 0 && cur().kind == Tok::Kind::Ident && in.operands.empty()) {
                    litmus::Operand callee;
                    callee.loc = loc(cur());
                    callee.name = cur().text;
                    in.operands.push_back(callee);
                }
                next();
            }
            next();
            s.kind = Statement::Kind::Instruction;
            s.role = calleeRole(in.operands.empty() ? std::string() : in.operands[0].name);
            return s;
        }
        while (!cur().is(';')) {
            in.operands.push_back(operand());
            if (cur().is(','))
                next();
            else if (!cur().is(';'))
                fail(cur(), "expected ',' or ';' after an operand of " + in.opcode + ", found " +
                                describe(cur()));
        }
        next();
        s.kind = Statement::Kind::Instruction;
        return s;
    }

    litmus::Operand operand() {
        litmus::Operand o;
        o.loc = loc(cur());
        if (cur().is('[')) {
            next();
            o.kind = litmus::Operand::Kind::Memory;
            if (cur().kind == Tok::Kind::Number) {
                o.value = parseInt(next());
            } else if (cur().kind == Tok::Kind::Ident) {
                o.name = next().text;
            } else {
                fail(cur(), "expected an address in '[ ]', found " + describe(cur()));
            }
            if (cur().is('+') || cur().is('-')) {
                bool neg = next().is('-');
                if (cur().is('-')) {
                    neg = !neg;
                    next();
                }
                std::int64_t k = number("as the address offset");
                o.value += neg ? -k : k;
            }
            if (cur().is(',')) { // tensor coordinates [tmap, {c0, c1}]
                next();
                litmus::Operand coords = operand();
                o.elements = coords.kind == litmus::Operand::Kind::Vector
                                 ? coords.elements
                                 : std::vector<litmus::Operand>{coords};
            }
            expect(']', "to close the address");
            return o;
        }
        if (cur().is('{')) {
            next();
            o.kind = litmus::Operand::Kind::Vector;
            while (!cur().is('}')) {
                o.elements.push_back(operand());
                if (cur().is(','))
                    next();
                else if (!cur().is('}'))
                    fail(cur(), "expected ',' or '}' in a vector, found " + describe(cur()));
            }
            next();
            return o;
        }
        if (cur().is('-')) {
            next();
            o.kind = litmus::Operand::Kind::Integer;
            o.value = -number("after '-'");
            return o;
        }
        if (cur().kind == Tok::Kind::Number) {
            o.kind = litmus::Operand::Kind::Integer;
            o.value = parseInt(next());
            return o;
        }
        bool negated = false;
        if (cur().is('!')) {
            negated = true;
            next();
        }
        if (cur().kind != Tok::Kind::Ident)
            fail(cur(), "expected an operand, found " + describe(cur()));
        o.name = (negated ? "!" : "") + next().text;
        if (o.name == "_") o.kind = litmus::Operand::Kind::Sink;
        if (cur().is('|')) { // d|p pairs: setp, elect.sync, mbarrier.test_wait
            next();
            litmus::Operand second;
            second.loc = loc(cur());
            if (cur().kind != Tok::Kind::Ident) fail(cur(), "expected a register after '|'");
            second.name = next().text;
            o.elements.push_back(second);
        }
        return o;
    }

    std::vector<Tok> t_;
    std::size_t i_ = 0;
    std::string file_;
    std::map<int, std::string> files_;
    /// each `.loc` position's latest line with its call sites: where a later `inlined_at` goes
    std::map<std::array<int, 3>, CudaLine> chains_;
};

/** The path of `.file` entry `number`, or the number when the module has no such entry. */
std::string fileName(const Module& m, const std::string& number) {
    auto it = m.files.find(std::stoi(number));
    return it != m.files.end() ? it->second : number;
}

} // namespace

std::vector<SourceLine> CudaLine::frames() const {
    std::vector<SourceLine> out{SourceLine{file, line}};
    out.insert(out.end(), inlinedAt.begin(), inlinedAt.end());
    return out;
}

bool isToolkitHeader(const std::string& path) {
    // nvcc names its own headers by the toolkit's path: .../cuda/include/..., or
    // .../cuda/bin/../targets/<arch>/include/... (sm_30_intrinsics.hpp for __shfl_sync).
    return path.find("/targets/") != std::string::npos ||
           path.find("cuda/include/") != std::string::npos ||
           path.find("/include/crt/") != std::string::npos;
}

SourceLine CudaLine::userLine() const {
    for (const SourceLine& f : frames())
        if (!isToolkitHeader(f.file)) return f;
    return SourceLine{file, line};
}

std::string cudaText(const CudaLine& c) {
    std::string s = c.file + ":" + std::to_string(c.line);
    for (const SourceLine& caller : c.inlinedAt)
        s += ", inlined at " + caller.file + ":" + std::to_string(caller.line);
    return s;
}

Module parseModule(const std::string& text, const std::string& file) {
    Parser p(lex(text, file), file);
    Module m = p.module();
    for (Function& f : m.functions)
        for (Statement& s : f.body)
            if (s.cuda) {
                s.cuda->file = fileName(m, s.cuda->file);
                for (SourceLine& caller : s.cuda->inlinedAt)
                    caller.file = fileName(m, caller.file);
            }
    return m;
}

Module parseModuleFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(SourceLoc{path, 0, 0}, "cannot read the PTX module");
    std::ostringstream text;
    text << in.rdbuf();
    return parseModule(text.str(), path);
}

} // namespace ptxmc::kernel

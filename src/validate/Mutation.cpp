// Mutation operators on the parsed test: each weakens one synchronising instruction.
#include "validate/Mutation.hpp"

#include "support/SourceLoc.hpp"

#include <algorithm>
#include <regex>

namespace ptxmc::validate {

namespace {

const char* kindName(Mutation::Kind k) {
    switch (k) {
    case Mutation::Kind::Drop:
        return "drop";
    case Mutation::Kind::Relax:
        return "relax";
    case Mutation::Kind::Cta:
        return "cta";
    case Mutation::Kind::Read:
        return "read";
    }
    return "drop";
}

bool has(const std::vector<std::string>& parts, const std::string& q) {
    return std::find(parts.begin() + 1, parts.end(), q) != parts.end();
}

bool isFence(const litmus::Instruction& i) {
    const std::string& h = i.parts[0];
    if (h == "fence" || h == "membar") return true;
    return h == "tcgen05" && i.parts.size() > 1 && i.parts[1].rfind("fence::", 0) == 0;
}

bool isWait(const litmus::Instruction& i) {
    const auto& p = i.parts;
    if (p[0] == "mbarrier" && p.size() > 1 && (p[1] == "try_wait" || p[1] == "test_wait"))
        return !i.operands.empty() && i.operands[0].kind == litmus::Operand::Kind::Sink;
    if (p[0] == "tcgen05" && p.size() > 1 && p[1].rfind("wait::", 0) == 0) return true;
    return p.size() > 3 && p[0] == "cp" && p[3] == "wait_group";
}

bool isMbarrierOrdering(const litmus::Instruction& i) {
    const auto& p = i.parts;
    return p[0] == "mbarrier" && p.size() > 1 &&
           (p[1] == "arrive" || p[1] == "try_wait" || p[1] == "test_wait");
}

/** Does relaxing change anything? (.release/.acquire/.acq_rel, or an mbarrier default.) */
bool relaxable(const litmus::Instruction& i) {
    const auto& p = i.parts;
    if (p[0] == "fence" || p[0] == "membar") return false;
    if (has(p, "release") || has(p, "acquire") || has(p, "acq_rel")) return true;
    return isMbarrierOrdering(i) && !has(p, "relaxed");
}

bool narrowable(const litmus::Instruction& i) {
    const auto& p = i.parts;
    if (p[0] == "membar" || p[0] == "tcgen05") return false;
    return has(p, "gpu") || has(p, "sys") || has(p, "cluster");
}

void rebuild(litmus::Instruction& i) {
    std::string op;
    for (const std::string& s : i.parts)
        op += (op.empty() ? "" : ".") + s;
    i.opcode = op;
}

} // namespace

std::string toString(const Mutation& m) {
    return std::string(kindName(m.kind)) + ":P" + std::to_string(m.thread) + ":" +
           std::to_string(m.index);
}

std::optional<Mutation> parseMutation(const std::string& text) {
    static const std::regex re(R"(^(drop|relax|cta|read):P([0-9]+):([0-9]+)$)");
    std::smatch m;
    if (!std::regex_match(text, m, re)) return std::nullopt;
    Mutation r;
    std::string k = m[1];
    r.kind = k == "drop"    ? Mutation::Kind::Drop
             : k == "relax" ? Mutation::Kind::Relax
             : k == "cta"   ? Mutation::Kind::Cta
                            : Mutation::Kind::Read;
    r.thread = std::stoi(m[2]);
    r.index = std::stoi(m[3]);
    return r;
}

litmus::Test applyMutation(const litmus::Test& test, const Mutation& m) {
    litmus::Test out = test;
    SourceLoc where{test.file, 1, 1};
    auto fail = [&](const std::string& why) {
        throw InputError(where, "mutation " + toString(m) + ": " + why);
    };
    auto t = std::find_if(out.threads.begin(), out.threads.end(),
                          [&](const litmus::Thread& th) { return th.id == m.thread; });
    if (t == out.threads.end()) fail("no thread P" + std::to_string(m.thread));
    if (m.index < 0 || m.index >= static_cast<int>(t->code.size()))
        fail("P" + std::to_string(m.thread) + " has no instruction " + std::to_string(m.index));
    litmus::Instruction& i = t->code[static_cast<std::size_t>(m.index)];
    where = i.loc;
    auto& p = i.parts;
    switch (m.kind) {
    case Mutation::Kind::Drop:
        if (!isFence(i) && !isWait(i)) fail("only fences and waits are dropped");
        t->code.erase(t->code.begin() + m.index);
        break;
    case Mutation::Kind::Relax:
        if (!relaxable(i)) fail("nothing to relax in '" + i.opcode + "'");
        for (std::string& s : p)
            if (s == "release" || s == "acquire" || s == "acq_rel") s = "relaxed";
        if (isMbarrierOrdering(i) && !has(p, "relaxed")) p.push_back("relaxed");
        rebuild(i);
        break;
    case Mutation::Kind::Cta:
        if (!narrowable(i)) fail("no wider scope in '" + i.opcode + "'");
        for (std::string& s : p)
            if (s == "gpu" || s == "sys" || s == "cluster") s = "cta";
        rebuild(i);
        break;
    case Mutation::Kind::Read:
        if (!(p.size() > 3 && p[0] == "cp" && p[3] == "wait_group") || has(p, "read"))
            fail("only cp.async.bulk.wait_group weakens to .read");
        p.push_back("read");
        rebuild(i);
        break;
    }
    out.name = test.name + "~" + toString(m);
    return out;
}

std::vector<Mutation> candidateMutations(const litmus::Test& test) {
    std::vector<Mutation> drops, relaxes, reads, ctas, waits;
    for (const auto& t : test.threads)
        for (std::size_t k = 0; k < t.code.size(); ++k) {
            const litmus::Instruction& i = t.code[k];
            Mutation m;
            m.thread = t.id;
            m.index = static_cast<int>(k);
            if (isFence(i)) {
                m.kind = Mutation::Kind::Drop;
                drops.push_back(m);
            }
            if (relaxable(i)) {
                m.kind = Mutation::Kind::Relax;
                relaxes.push_back(m);
            }
            if (i.parts.size() > 3 && i.parts[0] == "cp" && i.parts[3] == "wait_group" &&
                !has(i.parts, "read")) {
                m.kind = Mutation::Kind::Read;
                reads.push_back(m);
            }
            if (narrowable(i)) {
                m.kind = Mutation::Kind::Cta;
                ctas.push_back(m);
            }
            if (isWait(i)) {
                m.kind = Mutation::Kind::Drop;
                waits.push_back(m);
            }
        }
    std::vector<Mutation> all;
    for (auto* v : {&drops, &relaxes, &reads, &ctas, &waits})
        all.insert(all.end(), v->begin(), v->end());
    return all;
}

} // namespace ptxmc::validate

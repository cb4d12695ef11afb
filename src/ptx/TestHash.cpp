// The three texts herd7 digests for `Hash=`, printed canonically, and their MD5.
#include "ptx/TestHash.hpp"

#include "ptx/Print.hpp"
#include "support/Md5.hpp"
#include "support/SourceLoc.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace ptxmc::ptx {

namespace {

std::string spaceName(ir::Space s) {
    switch (s) {
    case ir::Space::None:
    case ir::Space::Global:
        return "";
    case ir::Space::Shared:
        return "shared ";
    case ir::Space::Tmem:
        return "tmem ";
    case ir::Space::Mbarrier:
        return "mbarrier ";
    }
    return "";
}

/** An array's shape, `[N] stride S`; nothing for a single location. */
std::string arrayText(const litmus::LocationDecl& d) {
    if (!d.isArray()) return "";
    return "[" + std::to_string(d.rows) + "] stride " + std::to_string(d.stride);
}

/** The initial value of row or element `i`. */
std::int64_t valueOf(const litmus::LocationDecl& d, int i) {
    if (d.values.empty()) return 0;
    return d.values.size() == 1 ? d.values.front() : d.values[static_cast<std::size_t>(i)];
}

/** "0:r1=5; ...; x=0; shared a=1; t[1]=2", registers first (herd's location order). */
std::string initText(const Program& t) {
    std::vector<std::pair<std::pair<int, std::string>, std::string>> regs;
    for (const auto& r : t.registers)
        regs.push_back({{r.thread, r.reg}, std::to_string(r.value)});
    std::sort(regs.begin(), regs.end());
    std::map<std::string, std::string> locs; // sorted by name
    for (const auto& d : t.locations) {
        std::string where = d.ctas.empty() ? "" : "@";
        for (std::size_t i = 0; i < d.ctas.size(); ++i)
            where += (i ? "," : "") + std::to_string(d.ctas[i]);
        if (d.aliasOf) {
            locs[d.name] = d.aliasProxy + " " + d.name + "=&" + *d.aliasOf;
        } else if (d.count) {
            locs[d.name] = spaceName(d.space) + d.name + where + arrayText(d) + " count " +
                           std::to_string(*d.count);
        } else if (d.isArray()) {
            std::string v;
            for (int i = 0; i < d.rows; ++i)
                v += (i ? "; " : "") + spaceName(d.space) + d.name + where + "[" +
                     std::to_string(i) + "]=" + std::to_string(valueOf(d, i));
            locs[d.name] = v + "; stride " + std::to_string(d.stride);
        } else if (d.values.size() > 1) {
            std::string v;
            for (std::size_t i = 0; i < d.values.size(); ++i)
                v += (i ? "; " : "") + spaceName(d.space) + d.name + where + "[" +
                     std::to_string(i) + "]=" + std::to_string(d.values[i]);
            locs[d.name] = v;
        } else {
            locs[d.name] = spaceName(d.space) + d.name + where + "=" +
                           std::to_string(d.values.empty() ? 0 : d.values.front());
        }
    }
    std::string out;
    auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
    for (const auto& [key, value] : regs)
        add(std::to_string(key.first) + ":" + key.second + "=" + value);
    for (const auto& [name, text] : locs)
        add(text);
    return out;
}

/**
 * One instruction as ptxmc prints it; a label or branch target renamed by `labels`. A malformed
 * instruction (which no check accepts) stands as its decoding error.
 */
std::string instructionText(const CodeItem& inst,
                            const std::map<std::string, std::string>& labels) {
    if (inst.label) return labels.at(*inst.label) + ":";
    if (!inst.decoded) return "error: " + inst.error->message();
    Insn renamed = *inst.decoded;
    for (auto& o : renamed.operands)
        if (o.kind == litmus::Operand::Kind::Name && labels.count(o.name))
            o.name = labels.at(o.name);
    std::string text = print(renamed);
    if (inst.guard) text = (inst.guard->negated ? "@!" : "@") + inst.guard->reg + " " + text;
    return text;
}

/** Each thread's code, one instruction per line, labels renamed L00, L01, ... */
std::string codeText(const Program& t) {
    std::map<std::string, std::string> labels;
    for (const auto& th : t.threads)
        for (const auto& inst : th.code)
            if (inst.label && !labels.count(*inst.label)) {
                const std::size_t n = labels.size();
                labels[*inst.label] = std::string("L") + (n < 10 ? "0" : "") + std::to_string(n);
            }
    std::string out;
    for (const auto& th : t.threads) {
        // where the thread runs changes what its scopes reach: part of the code
        out += "P" + std::to_string(th.id) + "@cta " + std::to_string(th.cta) +
               (th.cluster ? ",cluster " + std::to_string(*th.cluster) : "") + ",gpu " +
               std::to_string(th.gpu) + ":\n";
        for (const auto& inst : th.code)
            out += instructionText(inst, labels) + "\n";
    }
    return out;
}

void refsOf(const litmus::Prop& p, std::set<std::string>& out) {
    auto name = [](const litmus::Ref& r) {
        if (r.kind == litmus::Ref::Kind::Register) return std::to_string(r.thread) + ":" + r.name;
        return r.name + (r.cta ? "@" + std::to_string(*r.cta) : "") +
               (r.row ? "[" + std::to_string(*r.row) + "]" : "");
    };
    if (p.kind == litmus::Prop::Kind::Eq || p.kind == litmus::Prop::Kind::Ne) {
        out.insert(name(p.lhs));
        if (p.rhsRef) out.insert(name(*p.rhsRef));
    }
    for (const auto& a : p.args)
        refsOf(*a, out);
}

std::string observedText(const Program& t) {
    std::set<std::string> names;
    if (t.condition && t.condition->prop) refsOf(*t.condition->prop, names);
    litmus::Prop locations;
    for (const auto& r : t.observed) {
        locations.kind = litmus::Prop::Kind::Eq;
        locations.lhs = r;
        refsOf(locations, names);
    }
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : "; ") + n;
    return out;
}

} // namespace

std::string testHash(const Program& program) {
    return md5Hex(md5Raw(initText(program)) + md5Raw(codeText(program)) +
                  md5Raw(observedText(program)));
}

std::string testHash(const litmus::Test& test) {
    return testHash(decodeProgram(test));
}

} // namespace ptxmc::ptx

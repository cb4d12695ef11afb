// Builds the program to check from an evaluated entry: locations for mbarriers and async
// buffers, one thread per synchronizing warp, lanes merged, arrival counts scaled to warps.
#include "kernel/Extract.hpp"

#include "kernel/Builder.hpp"
#include "kernel/Repeats.hpp"
#include "ptx/Decode.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <set>

namespace ptxmc::kernel {

std::string shortName(const std::string& m) {
    std::string out = m;
    if (m.rfind("_ZZ", 0) == 0) {
        // _ZZ<len><function>...E<len><name>: the last length-prefixed name after the 'E'
        std::size_t e = m.rfind('E');
        std::size_t i = e == std::string::npos ? m.size() : e + 1;
        std::size_t len = 0, j = i;
        while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j])))
            len = len * 10 + static_cast<std::size_t>(m[j++] - '0');
        if (len > 0 && j + len <= m.size()) out = m.substr(j, len);
    } else if (auto p = m.find("_param_"); p != std::string::npos) {
        out = m.substr(p + 1);
    } else if (m.rfind("_Z", 0) == 0) { // _Z<len><name><signature>
        std::size_t len = 0, j = 2;
        while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j])))
            len = len * 10 + static_cast<std::size_t>(m[j++] - '0');
        if (len > 0 && j + len <= m.size()) out = m.substr(j, len);
    }
    std::string clean;
    for (char c : out)
        clean += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (clean.empty() || std::isdigit(static_cast<unsigned char>(clean[0]))) clean = "s" + clean;
    return clean;
}

std::optional<ptx::BulkCopy> bulkCopyOf(const litmus::Instruction& in) {
    ptx::Insn decoded = ptx::decode(in);
    if (auto* copy = std::get_if<ptx::BulkCopy>(&decoded.op)) return std::move(*copy);
    return std::nullopt;
}

bool copiesSharedToGlobal(const litmus::Instruction& in) {
    const auto copy = bulkCopyOf(in);
    return copy && copy->dst == ptx::StateSpace::Global && copy->src != ptx::StateSpace::Global;
}

KernelProgram Builder::build() {
    KernelProgram k;
    findObjects();
    makeRegions();
    k.test.arch = "PTX";
    k.test.file = m_.file;
    int ctas = x_.cluster[0] * x_.cluster[1] * x_.cluster[2];
    partitionWrites();
    for (const WarpTrace& w : x_.warps) {
        std::vector<Item> merged = mergeLanes(w);
        if (merged.empty()) continue;
        warps_.push_back({w.cta, {w.warp}, std::move(merged)});
    }
    mergeRoles();
    coarsenTmem();
    scaleArrivals();
    scaleNamedBarriers();
    for (const WarpCode& w : warps_) {
        litmus::Thread t;
        t.id = static_cast<int>(k.test.threads.size());
        t.cta = w.cta;
        t.gpu = 0;
        if (ctas > 1) t.cluster = 0;
        Ways ways;
        for (const Item& it : w.items)
            for (int r = 0; r < it.repeat; ++r)
                t.code.push_back(guarded(it, ways, t.code));
        k.stats.events += t.code.size();
        k.threadNames.push_back(roleName(w));
        k.test.threads.push_back(std::move(t));
    }
    declare(k.test);
    k.notes = x_.notes;
    for (auto& n : notes_)
        k.notes.push_back(n.second);
    k.stats.ctas = ctas;
    k.stats.warps = static_cast<int>(x_.warps.size());
    k.stats.threads = static_cast<int>(k.test.threads.size());
    k.stats.executed = x_.instructions;
    k.stats.droppedData = dropped_;
    return k;
}

std::string Builder::roleName(const WarpCode& w) {
    if (w.warps.size() == 1) return fmt::format("CTA {} warp {}", w.cta, w.warps[0]);
    std::string list;
    for (int x : w.warps)
        list += (list.empty() ? "" : ",") + std::to_string(x);
    return fmt::format("CTA {} warps {} (identical)", w.cta, list);
}

namespace {

/** Into `out`, the declared locations `o` names (a barrier, a buffer, a list of slices). */
void namedLocations(const litmus::Operand& o, const std::set<std::string>& declared,
                    std::set<std::string>& out) {
    if ((o.kind == litmus::Operand::Kind::Memory || o.kind == litmus::Operand::Kind::Name) &&
        declared.count(o.name))
        out.insert(o.name);
    for (const litmus::Operand& e : o.elements)
        namedLocations(e, declared, out);
}

/** KernelProgram::locationsAt and firstUse, from the built program's instructions. */
void indexLocations(KernelProgram& k) {
    std::set<std::string> declared;
    for (const litmus::LocationDecl& d : k.test.locations)
        declared.insert(d.name);
    for (const litmus::Thread& t : k.test.threads)
        for (const litmus::Instruction& insn : t.code) {
            std::set<std::string> names;
            for (const litmus::Operand& o : insn.operands)
                namedLocations(o, declared, names);
            for (const std::string& name : names) {
                k.locationsAt[insn.loc.line].insert(name);
                auto [it, fresh] = k.firstUse.emplace(name, std::make_pair(insn.loc, insn.opcode));
                if (!fresh && insn.loc.line < it->second.first.line)
                    it->second = std::make_pair(insn.loc, insn.opcode);
            }
        }
}

} // namespace

std::string wayWords(const std::string& note) {
    static const std::string kWay = "nondet.pred way_l";
    std::string out;
    std::size_t at = 0;
    while (true) {
        const std::size_t way = note.find(kWay, at);
        const std::size_t close = way == std::string::npos ? way : note.find(") is ", way);
        if (close == std::string::npos || close + 5 >= note.size()) break;
        unsigned line = 0, run = 0;
        if (std::sscanf(note.c_str() + way + kWay.size(), "%u_%u", &line, &run) != 2) break;
        out += note.substr(at, way - at);
        out += fmt::format("the guard at line {} {}", line,
                           note[close + 5] == '1' ? "holds" : "fails");
        if (run > 0) out += fmt::format(" (its run {})", run + 1);
        at = close + 6;
    }
    return out + note.substr(at);
}

KernelProgram extractKernel(const Module& m, const Launch& launch) {
    const Function& f = pickEntry(m, launch.entry);
    Extraction x = evaluate(m, f, launch);
    Builder b(m, x);
    b.entry_ = &f;
    KernelProgram k = b.build();
    k.stats.repeatedAccesses = dropRepeatedAccesses(k.test);
    k.stats.events -= k.stats.repeatedAccesses;
    k.test.name = shortName(f.name);
    k.unread = x.unread;
    // Properties, not final values: the condition holds in every execution that completes.
    litmus::Condition c;
    c.quantifier = ir::Quantifier::Exists;
    auto prop = std::make_shared<litmus::Prop>();
    prop->kind = litmus::Prop::Kind::True;
    prop->loc = f.loc;
    c.prop = prop;
    c.loc = f.loc;
    k.test.condition = c;
    for (const Statement& s : f.body)
        if (s.cuda && s.kind == Statement::Kind::Instruction) k.cudaLines[s.loc.line] = *s.cuda;
    indexLocations(k);
    return k;
}

} // namespace ptxmc::kernel

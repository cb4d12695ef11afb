// `ptxmc kernel FILE.ptx`: extracts one program per launch from the PTX (src/kernel), checks it
// like a litmus test and reports its properties in the kernel's terms (PTX and CUDA lines).
#include "cli/Kernel.hpp"

#include "check/Check.hpp"
#include "cli/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Readings.hpp"
#include "engine/Flags.hpp"
#include "kernel/Extract.hpp"
#include "kernel/Module.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Program.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

namespace ptxmc::cli {

namespace {

const char* const kKernelExamples = R"(Examples:
  nvcc -arch=sm_90a -ptx -lineinfo gemm.cu -o gemm.ptx
  ptxmc kernel gemm.ptx --param k_tiles=4           every property of the entry
  ptxmc kernel gemm.ptx --param 2=4 --emit-litmus   the extracted program as a litmus test
  ptxmc kernel gemm.ptx --list-params               the parameter fields the kernel reads
  ptxmc kernel gemm.ptx --param 0+344=4             a field of a struct parameter (Params)
  ptxmc kernel attn.ptx --param 3=0x1000 --global 0x1000=u32:128,256
                                                    sequence lengths the kernel loads from memory
  ptxmc kernel gemm.ptx --block 160 --cluster 2 --param k_tiles=4 --readings

Every thread of one cluster runs on what the launch and --param make known; each warp that
synchronizes becomes one thread of the checked program (lanes that do the same merged), each
mbarrier and each async buffer one location. Loops whose bound is a parameter need it with
--param (NAME: the PTX parameter, its _param_N suffix, or its index; NAME+OFFSET=VALUE for
a field of a struct parameter; --list-params lists the fields the kernel reads), values the host
wrote to global memory (a sequence-length array) with --global. Other data (floating point,
values read from memory) is not followed: both sides of a branch on it are explored, and must
meet again before either runs a memory or synchronization instruction.
Exit status: 0 no property is violated, 1 a flag, a hang or an Unknown answer, 2 an input error
(the module, an unsupported instruction, an address or bound ptxmc cannot resolve).)";

struct KernelArgs {
    PipelineOptions pipeline;
    std::string format = "text";
    std::string file;
    std::string entry;
    std::string block, cluster, grid;
    std::vector<std::string> params;
    std::vector<std::string> globals;
    std::uint64_t dynamicSmem = kernel::Launch{}.dynamicShared;
    std::uint64_t maxSteps = kernel::Launch{}.maxSteps;
    int tiles = kernel::Launch{}.tiles;
    bool emitLitmus = false;
    bool readings = false;
    bool stats = false;
    bool listParams = false;
};

std::array<int, 3> dims(const std::string& text, const char* option) {
    std::array<int, 3> d{1, 1, 1};
    std::size_t pos = 0;
    for (int k = 0; k < 3 && pos <= text.size(); ++k) {
        std::size_t comma = text.find(',', pos);
        std::string part =
            text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        try {
            std::size_t used = 0;
            int v = std::stoi(part, &used);
            if (used != part.size() || v <= 0) throw std::invalid_argument(part);
            d[static_cast<std::size_t>(k)] = v;
        } catch (const std::exception&) {
            throw InputError(SourceLoc{option, 1, static_cast<int>(pos) + 1},
                             std::string(option) +
                                 " takes X[,Y[,Z]] with positive integers, got '" + text + "'");
        }
        if (comma == std::string::npos) return d;
        pos = comma + 1;
    }
    throw InputError(SourceLoc{option, 1, 1}, std::string(option) + " takes at most three sizes");
}

/** An integer of --global's text at `pos`: decimal or 0x; `what` names it in the error. */
std::uint64_t globalNumber(const std::string& arg, std::size_t pos, std::size_t end,
                           const char* what) {
    std::string text = arg.substr(pos, end - pos);
    try {
        std::size_t used = 0;
        if (text.empty() || text[0] == '-') throw std::invalid_argument(text);
        std::uint64_t v = std::stoull(text, &used, 0);
        if (used != text.size()) throw std::invalid_argument(text);
        return v;
    } catch (const std::exception&) {
        throw InputError(
            SourceLoc{"--global", 1, static_cast<int>(pos) + 1},
            fmt::format("--global: {} must be an integer (decimal or 0x), got '{}'", what, text));
    }
}

/**
 * --global ADDRESS=TYPE:V,V,... (TYPE u8, u16, u32 or u64: each value that wide, little-endian)
 * or ADDRESS=@FILE (the file's bytes): global memory the host wrote before the launch.
 */
std::pair<std::uint64_t, std::vector<std::uint8_t>> globalBytes(const std::string& arg) {
    std::size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError(SourceLoc{"--global", 1, 1},
                         "--global takes ADDRESS=TYPE:V,V,... or ADDRESS=@FILE, got '" + arg + "'");
    std::uint64_t address = globalNumber(arg, 0, eq, "the address");
    std::vector<std::uint8_t> bytes;
    if (arg.compare(eq + 1, 1, "@") == 0) {
        std::string path = arg.substr(eq + 2);
        std::ifstream in(path, std::ios::binary);
        if (!in)
            throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 3},
                             "--global: cannot read '" + path + "'");
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } else {
        std::size_t colon = arg.find(':', eq);
        std::string type = arg.substr(eq + 1, colon == std::string::npos ? 0 : colon - eq - 1);
        int width = type == "u8"    ? 1
                    : type == "u16" ? 2
                    : type == "u32" ? 4
                    : type == "u64" ? 8
                                    : 0;
        if (width == 0)
            throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 2},
                             "--global: the values need a type, u8, u16, u32 or u64 (ADDRESS=u32:"
                             "V,V,...), got '" +
                                 arg.substr(eq + 1) + "'");
        for (std::size_t pos = colon + 1; pos <= arg.size();) {
            std::size_t comma = std::min(arg.find(',', pos), arg.size());
            std::uint64_t v = globalNumber(arg, pos, comma, "each value");
            if (width < 8 && (v >> (8 * width)) != 0)
                throw InputError(SourceLoc{"--global", 1, static_cast<int>(pos) + 1},
                                 fmt::format("--global: {} does not fit {}", v, type));
            for (int b = 0; b < width; ++b)
                bytes.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
            pos = comma + 1;
        }
    }
    if (bytes.empty())
        throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 2},
                         "--global gives no bytes at " + arg.substr(0, eq));
    return {address, std::move(bytes)};
}

kernel::Launch launchOf(const KernelArgs& a) {
    kernel::Launch l;
    l.entry = a.entry;
    if (!a.block.empty()) l.block = dims(a.block, "--block");
    if (!a.cluster.empty()) l.cluster = dims(a.cluster, "--cluster");
    if (!a.grid.empty()) l.grid = dims(a.grid, "--grid");
    for (const std::string& p : a.params) {
        std::size_t eq = p.find('=');
        std::size_t plus = p.rfind('+', eq);
        if (eq == std::string::npos || eq == 0 || plus == 0)
            throw InputError(SourceLoc{"--param", 1, 1},
                             "--param takes NAME=VALUE or NAME+OFFSET=VALUE, got '" + p + "'");
        std::string name = p.substr(0, std::min(eq, plus));
        std::uint64_t offset = 0;
        if (plus != std::string::npos) {
            std::string text = p.substr(plus + 1, eq - plus - 1);
            bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
            try {
                std::size_t used = 0;
                offset = std::stoull(hex ? text.substr(2) : text, &used, hex ? 16 : 10);
                if (used + (hex ? 2 : 0) != text.size() || text[hex ? 2 : 0] == '-')
                    throw std::invalid_argument(text);
            } catch (const std::exception&) {
                throw InputError(SourceLoc{"--param", 1, static_cast<int>(plus) + 2},
                                 "--param " + name +
                                     "+OFFSET: the offset is a byte count "
                                     "(decimal or 0x), got '" +
                                     text + "'");
            }
        }
        std::string value = p.substr(eq + 1);
        try {
            std::size_t used = 0;
            std::uint64_t v = std::stoull(value, &used, 0);
            if (used != value.size()) throw std::invalid_argument(value);
            l.params[{name, offset}] = v;
        } catch (const std::exception&) {
            throw InputError(SourceLoc{"--param", 1, static_cast<int>(eq) + 2},
                             "--param " + p.substr(0, eq) + " needs an integer value, got '" +
                                 value + "'");
        }
    }
    for (const std::string& g : a.globals) {
        auto [address, bytes] = globalBytes(g);
        auto next = l.globals.lower_bound(address);
        bool overlaps = (next != l.globals.end() && next->first < address + bytes.size()) ||
                        (next != l.globals.begin() &&
                         std::prev(next)->first + std::prev(next)->second.size() > address);
        if (overlaps)
            throw InputError(SourceLoc{"--global", 1, 1},
                             "--global " + g + " overlaps bytes another --global gives");
        l.globals.emplace(address, std::move(bytes));
    }
    l.dynamicShared = a.dynamicSmem;
    l.maxSteps = a.maxSteps;
    l.tiles = a.tiles;
    l.listParams = a.listParams;
    return l;
}

/** The `.loc` line of the PTX line an event is at, when the module has one. */
const kernel::CudaLine* cudaLineOf(const engine::EventRef& e, const kernel::KernelProgram& k) {
    auto cuda = k.cudaLines.find(e.loc.line);
    return cuda != k.cudaLines.end() ? &cuda->second : nullptr;
}

/**
 * "CTA 0 warp 4: mbarrier.try_wait... at gemm.ptx:120:5 (pipeline.h:88)": the innermost CUDA
 * line; `chain` adds its call sites, ", inlined at gemm.cu:40" (one line for JSON).
 */
std::string eventText(const engine::EventRef& e, const kernel::KernelProgram& k, bool chain) {
    std::string who = e.thread >= 0 && static_cast<std::size_t>(e.thread) < k.threadNames.size()
                          ? k.threadNames[static_cast<std::size_t>(e.thread)]
                          : std::string("init");
    std::string s =
        fmt::format("{}: {}{} at {}", who, e.text, engine::mbarrierText(e), e.loc.str());
    if (e.iteration >= 0) s += fmt::format(" (iteration {})", e.iteration);
    if (const kernel::CudaLine* cuda = cudaLineOf(e, k))
        s += " (" +
             (chain ? kernel::cudaText(*cuda) : fmt::format("{}:{}", cuda->file, cuda->line)) + ")";
    if (!e.note.empty()) s += " [" + e.note + "]";
    return s;
}

/** The text output's lines under an event: "inlined at FILE:LINE", one per call site. */
std::string callSites(const engine::EventRef& e, const kernel::KernelProgram& k,
                      const std::string& indent) {
    std::string s;
    if (const kernel::CudaLine* cuda = cudaLineOf(e, k))
        for (const kernel::SourceLine& caller : cuda->inlinedAt)
            s += fmt::format("{}inlined at {}:{}\n", indent, caller.file, caller.line);
    return s;
}

/** Whether `text` holds `name` as a whole word ("(write response_0)" holds response_0). */
bool namesWord(const std::string& text, const std::string& name) {
    auto isPart = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at == 0 || !isPart(text[at - 1])) && (end == text.size() || !isPart(text[end])))
            return true;
    }
    return false;
}

/**
 * The locations a flag's witnesses name, in the order the events name them: an mbarrier
 * operation's barrier, and the locations its instruction's text names ("(write response_0)";
 * among those its PTX line names in any thread or iteration).
 */
std::vector<std::string> locationsOf(const engine::RaisedFlag& f, const kernel::KernelProgram& k) {
    std::vector<std::string> out;
    auto add = [&out](const std::string& name) {
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    };
    for (const auto& w : f.witnesses)
        for (const auto& e : w) {
            if (!e.barrier.empty()) add(e.barrier);
            auto at = k.locationsAt.find(e.loc.line);
            if (at == k.locationsAt.end()) continue;
            for (const std::string& name : at->second)
                if (namesWord(e.text, name)) add(name);
        }
    return out;
}

/**
 * "full_bar_0: first named by mbarrier.init... at k.ptx:60:2 (k.cu:60)": where a location the
 * extraction named comes from in the code.
 */
std::string firstUseText(const std::string& name, const kernel::KernelProgram& k) {
    auto use = k.firstUse.find(name);
    if (use == k.firstUse.end()) return name;
    const auto& [loc, opcode] = use->second;
    auto cuda = k.cudaLines.find(loc.line);
    return fmt::format("{}: first named by {} at {}{}", name, opcode, loc.str(),
                       cuda != k.cudaLines.end() ? " (" + kernel::cudaText(cuda->second) + ")"
                                                 : std::string());
}

/** JSON: the CUDA lines of PTX line `ptxLine`, the innermost first, then its call sites. */
nlohmann::ordered_json sourcesJson(int ptxLine, const kernel::KernelProgram& k) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    auto cuda = k.cudaLines.find(ptxLine);
    if (cuda != k.cudaLines.end())
        for (const kernel::SourceLine& f : cuda->second.frames())
            out.push_back({{"file", f.file}, {"line", f.line}});
    return out;
}

/** JSON: a location and the first instruction that names it, with its CUDA lines. */
nlohmann::ordered_json firstUseJson(const std::string& name, const kernel::KernelProgram& k) {
    nlohmann::ordered_json j{{"name", name}};
    auto use = k.firstUse.find(name);
    if (use == k.firstUse.end()) return j;
    const auto& [loc, opcode] = use->second;
    j["first_named_by"] = opcode;
    j["ptx"] = loc.str();
    j["sources"] = sourcesJson(loc.line, k);
    return j;
}

std::vector<std::string> flagNamesOf(const cat::ResolvedModel& m) {
    std::vector<std::string> out;
    for (const auto& a : m.axioms)
        if (a.flag && std::find(out.begin(), out.end(), a.name) == out.end()) out.push_back(a.name);
    return out;
}

int printText(const kernel::KernelProgram& k, const engine::CheckResult& r,
              const cat::ResolvedModel& model, const KernelArgs& a, double extractSeconds) {
    std::cout << fmt::format("Kernel {} ({}): {} CTA(s), {} warps; {} of them synchronize "
                             "({} instructions checked)\n",
                             k.test.name, k.test.file, k.stats.ctas, k.stats.warps, k.stats.threads,
                             k.stats.events);
    bool bad = false;
    if (r.observation == engine::Observation::Unknown) {
        std::cout << "Unknown: " << r.unknownReason.text << '\n';
        bad = true;
    }
    std::set<std::string> raised;
    for (const auto& f : r.flags)
        raised.insert(f.name);
    bool hang = r.observation == engine::Observation::Deadlock || raised.count(engine::kHangFlag);
    if (r.observation != engine::Observation::Unknown) {
        std::cout << "Properties:\n";
        for (const std::string& name : flagNamesOf(model))
            std::cout << fmt::format("  {:<28} {}\n", name,
                                     raised.count(name) ? "VIOLATED" : "holds");
        std::cout << fmt::format("  {:<28} {}\n", "completes (no hang)",
                                 hang ? "VIOLATED" : "holds");
    }
    for (const auto& f : r.flags) {
        bad = true;
        std::cout << "\nFlag " << f.name << ": " << f.doc << '\n';
        for (std::size_t w = 0; w < f.witnesses.size(); ++w) {
            std::cout << "  witness " << (w + 1) << ":\n";
            for (const auto& e : f.witnesses[w])
                std::cout << "    " << eventText(e, k, false) << '\n'
                          << callSites(e, k, "        ");
        }
        const std::vector<std::string> named = locationsOf(f, k);
        if (!named.empty()) std::cout << "  in the code:\n";
        for (const std::string& name : named)
            std::cout << "    " << firstUseText(name, k) << '\n';
    }
    if (r.observation == engine::Observation::Deadlock) {
        bad = true;
        std::cout << "\nHang: no execution completes:\n";
        for (const auto& b : r.deadlockedWaits)
            std::cout << "  " << (b.wait ? eventText(*b.wait, k, false) : b.reason)
                      << (b.wait && !b.reason.empty() ? " (" + b.reason + ")" : "") << '\n'
                      << (b.wait ? callSites(*b.wait, k, "      ") : std::string());
    }
    if (r.readings && r.readings->empty())
        std::cout << "\nReadings: robust, the same answer under every reading of the PTX text's "
                     "open questions\n";
    if (r.readings && !r.readings->empty()) {
        std::cout << "\nReading-dependent: the readings under which the answer differs:\n";
        for (const auto& rd : *r.readings) {
            std::string flags;
            for (const auto& f : rd.flags)
                flags += (flags.empty() ? "" : ",") + f;
            std::cout << fmt::format(
                "  {}: {}{}\n", rd.reading.modelFile(), flags.empty() ? "no flag" : flags,
                rd.observation == engine::Observation::Deadlock ? ", hangs" : "");
        }
    }
    if (!k.notes.empty()) {
        std::cout << "\nAssumed:\n";
        for (const auto& n : k.notes)
            std::cout << "  " << (n.loc.line > 0 ? n.loc.str() + ": " : "") << n.text << '\n';
    }
    if (a.stats)
        std::cout << fmt::format("\nStats: {} instructions executed by the evaluation, {} data "
                                 "accesses outside async buffers dropped, {} repeated accesses "
                                 "kept once, extraction {:.2f} s, check {:.2f} s\n",
                                 k.stats.executed, k.stats.droppedData, k.stats.repeatedAccesses,
                                 extractSeconds, r.seconds);
    bool violated = !r.flags.empty() || r.observation == engine::Observation::Deadlock;
    std::cout << (violated ? "Verdict: violations found\n"
                  : bad    ? "Verdict: Unknown (no answer within the limit named above)\n"
                           : "Verdict: clean for this launch and bound\n");
    return bad ? 1 : 0;
}

int printJson(const kernel::KernelProgram& k, const engine::CheckResult& r,
              const cat::ResolvedModel& model) {
    nlohmann::ordered_json j;
    j["kernel"] = k.test.name;
    j["file"] = k.test.file;
    j["ctas"] = k.stats.ctas;
    j["warps"] = k.stats.warps;
    j["threads"] = k.stats.threads;
    j["events"] = k.stats.events;
    j["observation"] = engine::toString(r.observation);
    if (!r.unknownReason.empty()) j["unknown"] = r.unknownReason.text;
    std::set<std::string> raised;
    for (const auto& f : r.flags)
        raised.insert(f.name);
    nlohmann::ordered_json props = nlohmann::ordered_json::object();
    for (const std::string& name : flagNamesOf(model))
        props[name] = raised.count(name) ? "violated" : "holds";
    bool hang = r.observation == engine::Observation::Deadlock || raised.count(engine::kHangFlag);
    props["completes"] = hang ? "violated" : "holds";
    j["properties"] = props;
    nlohmann::ordered_json flags = nlohmann::ordered_json::array();
    for (const auto& f : r.flags) {
        nlohmann::ordered_json fj;
        fj["name"] = f.name;
        fj["witnesses"] = nlohmann::ordered_json::array();
        // each event's CUDA lines, as the witnesses list the events
        fj["sources"] = nlohmann::ordered_json::array();
        for (const auto& w : f.witnesses) {
            nlohmann::ordered_json wj = nlohmann::ordered_json::array();
            nlohmann::ordered_json sj = nlohmann::ordered_json::array();
            for (const auto& e : w) {
                wj.push_back(eventText(e, k, true));
                sj.push_back(sourcesJson(e.loc.line, k));
            }
            fj["witnesses"].push_back(wj);
            fj["sources"].push_back(sj);
        }
        fj["locations"] = nlohmann::ordered_json::array();
        for (const std::string& name : locationsOf(f, k))
            fj["locations"].push_back(firstUseJson(name, k));
        flags.push_back(fj);
    }
    j["flags"] = flags;
    nlohmann::ordered_json notes = nlohmann::ordered_json::array();
    for (const auto& n : k.notes)
        notes.push_back(n.text);
    j["assumed"] = notes;
    std::cout << j.dump(2) << '\n';
    bool bad = !r.flags.empty() || r.observation == engine::Observation::Deadlock ||
               r.observation == engine::Observation::Unknown;
    return bad ? 1 : 0;
}

/** SARIF 2.1.0 for code scanning: every violated property an error at the PTX line. */
int printSarif(const kernel::KernelProgram& k, const engine::CheckResult& r,
               const cat::ResolvedModel& model) {
    report::SarifReport sarif(PTXMC_VERSION, flagRulesOf(&model));
    report::TestOutcome o;
    o.path = k.test.file;
    o.result = &r;
    o.everyFlagFails = true;
    o.sourceOf = [&k](int ptxLine) {
        std::vector<report::SourceFrame> out;
        auto it = k.cudaLines.find(ptxLine);
        if (it == k.cudaLines.end()) return out;
        // the innermost user line is where; every other line of the chain is related
        const kernel::SourceLine user = it->second.userLine();
        out.push_back({user.file, user.line, "the innermost line outside the CUDA toolkit"});
        bool inner = true;
        for (const kernel::SourceLine& f : it->second.frames()) {
            if (f.file == user.file && f.line == user.line && inner) {
                inner = false;
                continue;
            }
            out.push_back({f.file, f.line,
                           inner ? "the toolkit line inlined there" : "inlined at this call site"});
        }
        return out;
    };
    sarif.add(o);
    std::cout << sarif.text();
    bool bad = !r.flags.empty() || r.observation == engine::Observation::Deadlock ||
               r.observation == engine::Observation::Unknown;
    return bad ? 1 : 0;
}

/**
 * --list-params: every parameter field the evaluation read, given or not, and where threads
 * stopped. Exit 0 when every thread ran to its end, 2 when some stopped.
 */
int listParams(const kernel::Module& m, const kernel::Launch& launch) {
    const kernel::Function& f = kernel::pickEntry(m, launch.entry);
    const kernel::Extraction x = kernel::evaluate(m, f, launch);
    int threads = x.block[0] * x.block[1] * x.block[2];
    int ctas = x.cluster[0] * x.cluster[1] * x.cluster[2];
    std::cout << fmt::format("Parameter fields read by {} ({}; {} CTA(s) of {} threads), as "
                             "--param INDEX+OFFSET names them:\n",
                             f.name.size() > 60 ? f.name.substr(0, 57) + "..." : f.name, m.file,
                             ctas, threads);
    // one line per field (its first load; how many other loads read it)
    std::vector<std::string> order, needed;
    std::map<std::string, std::pair<kernel::ParamRead, int>> fields;
    for (const kernel::ParamRead& r : x.paramReads) {
        std::string key = fmt::format("{}:{}", r.field(), r.bytes);
        auto [it, fresh] = fields.emplace(key, std::make_pair(r, 0));
        if (fresh)
            order.push_back(key);
        else
            ++it->second.second;
        it->second.first.decides = it->second.first.decides || r.decides;
    }
    for (const std::string& key : order) {
        const auto& [r, more] = fields.at(key);
        std::string status = r.value     ? fmt::format("= {}", *r.value)
                             : r.decides ? std::string("not given, a branch needs it")
                                         : std::string("not given");
        std::cout << fmt::format(
            "  {:<10} {:>2} bytes  {:<30} {}{}{}\n", r.field(), r.bytes, status, r.loc.str(),
            r.cuda ? fmt::format(" ({}:{})", r.cuda->userLine().file, r.cuda->userLine().line)
                   : std::string(),
            more ? fmt::format(" and {} more load(s)", more) : std::string());
        if (r.decides) needed.push_back("--param " + r.field() + "=VALUE");
    }
    if (x.paramReads.empty()) std::cout << "  (none)\n";
    std::vector<kernel::Note> stops = x.stops;
    if (stops.empty()) { // the program is built too: an operand may need a field (expect_tx bytes)
        kernel::Launch check = launch;
        check.listParams = false;
        try {
            kernel::extractKernel(m, check);
        } catch (const InputError& e) {
            stops.push_back(kernel::Note{e.loc(), e.message()});
            std::size_t add = e.message().rfind("add --param ");
            if (add != std::string::npos) needed.push_back(e.message().substr(add + 4));
        }
    }
    std::stable_sort(stops.begin(), stops.end(), [](const auto& p, const auto& q) {
        return std::make_pair(p.loc.line, p.loc.col) < std::make_pair(q.loc.line, q.loc.col);
    });
    if (stops.empty()) {
        std::cout << "Every thread ran to its end and the program is built: the check can run "
                     "with these values.\n";
        return 0;
    }
    std::cout << "Stopped (a thread that reaches one goes no further):\n";
    for (const kernel::Note& n : stops)
        std::cout << "  " << (n.loc.line > 0 ? n.loc.str() + ": " : "") << n.text << '\n';
    if (!needed.empty()) {
        std::string all;
        for (const std::string& n : needed)
            all += (all.empty() ? "" : " ") + n;
        std::cout << "To go further: " << all << '\n';
    }
    return 2;
}

int runKernel(const KernelArgs& a) {
    using Clock = std::chrono::steady_clock;
    auto t0 = Clock::now();
    const kernel::Module m = kernel::parseModuleFile(a.file);
    if (a.listParams) return listParams(m, launchOf(a));
    kernel::KernelProgram k = kernel::extractKernel(m, launchOf(a));
    double extractSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (k.test.threads.empty())
        throw InputError(SourceLoc{a.file, 0, 0},
                         "entry " + k.test.name +
                             " has no memory or synchronization instruction "
                             "ptxmc checks under this launch");
    if (a.emitLitmus) {
        std::cout << kernel::renderLitmus(k);
        return 0;
    }
    if (a.readings && !a.pipeline.model.empty())
        throw InputError(SourceLoc{"--readings", 1, 1},
                         "--readings compares the built-in model with its variants "
                         "(model/variants); it takes no --model");
    // the variants redefine one decision of the built-in model each
    std::shared_ptr<const cat::ResolvedModel> model =
        a.readings ? modelWithReadings() : loadModel(a.pipeline);
    const ptx::Program decoded = ptx::decodeProgram(k.test);
    const ir::Program program =
        lower::lowerProgram(decoded, lower::LowerOptions{a.pipeline.unroll});
    engine::CheckOptions options = checkOptionsOf(a.pipeline);
    // a flag's witness must not move when --readings is added: the smallest, not the first found
    options.canonicalWitnesses = true;
    engine::CheckResult r = checkProgram(program, *model, options, a.readings);
    if (a.format == "sarif") return printSarif(k, r, *model);
    return a.format == "json" ? printJson(k, r, *model)
                              : printText(k, r, *model, a, extractSeconds);
}

} // namespace

void setupKernel(CLI::App& app) {
    auto args = std::make_shared<KernelArgs>();
    CLI::App* sub = app.add_subcommand(
        "kernel", "Check the synchronization of a PTX module's kernel (nvcc -ptx output)");
    addFormatOption(*sub, args->format, {"text", "json", "sarif"},
                    "text (the default), json, or sarif (SARIF 2.1.0 for code scanning)");
    PipelineHelp help;
    help.timeout = "wall-clock limit for the check";
    addPipelineOptions(*sub, args->pipeline, help);
    sub->add_option("--entry", args->entry,
                    "the .entry to check (a substring of its name); "
                    "needed when the module has several");
    sub->add_option("--block", args->block,
                    "threads per CTA, X[,Y,Z]; default: .reqntid or .maxntid");
    sub->add_option("--cluster", args->cluster,
                    "CTAs per cluster, X[,Y,Z]; default: "
                    ".reqnctapercluster, else 1");
    sub->add_option("--grid", args->grid,
                    "CTAs in the grid, X[,Y,Z] (what %nctaid reads); "
                    "default: one cluster. Only one cluster is checked");
    sub->add_option("--param", args->params,
                    "a kernel parameter's value, NAME=VALUE (NAME: the PTX name, its _param_N "
                    "suffix or its index), or a field of a struct parameter, NAME+OFFSET=VALUE "
                    "(OFFSET in bytes, decimal or 0x; as wide as the load that reads it); once "
                    "per field")
        ->take_all()
        ->expected(1)
        ->allow_extra_args(false);
    sub->add_option("--global", args->globals,
                    "global memory the host wrote before the launch, which the kernel's loads "
                    "read (sequence lengths, a tile count): ADDRESS=TYPE:V,V,... (TYPE u8, u16, "
                    "u32 or u64) or ADDRESS=@FILE (its bytes); give the pointer parameter the "
                    "ADDRESS with --param")
        ->take_all()
        ->expected(1)
        ->allow_extra_args(false);
    sub->add_option("--dynamic-smem", args->dynamicSmem, "bytes of dynamic shared memory");
    sub->add_option("--tiles", args->tiles,
                    "tiles the checked cluster runs where clusterlaunchcontrol.try_cancel "
                    "schedules them: the first N-1 requests each cancel the next cluster of the "
                    "grid (--grid must hold N clusters), the next one fails; default 2")
        ->check(CLI::Range(1, 64));
    sub->add_option("--max-steps", args->maxSteps,
                    "instructions one thread may execute before ptxmc calls its loop unbounded");
    sub->add_flag("--emit-litmus", args->emitLitmus,
                  "print the extracted program as a litmus test (ptxmc check reads it) and stop");
    sub->add_flag("--readings", args->readings,
                  "also check under every reading of the PTX text's open questions");
    sub->add_flag("--stats", args->stats, "print the extraction's figures and times");
    sub->add_flag("--list-params", args->listParams,
                  "evaluate as far as the given values go, list every parameter field read "
                  "(given or not) and where threads stopped; no check");
    sub->add_option("FILE", args->file, "the PTX module (nvcc -ptx, cuobjdump -ptx)")->required();
    sub->footer(kKernelExamples);
    sub->callback([args] {
        int status = 0;
        try {
            status = runKernel(*args);
        } catch (const InputError& e) {
            if (args->format != "sarif") throw;
            // A CI job reads the log: the located error goes into it too (and to stderr).
            report::SarifReport sarif(PTXMC_VERSION, {});
            sarif.addError(e.what());
            std::cout << sarif.text();
            std::cerr << e.what() << '\n';
            status = 2;
        }
        if (status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
